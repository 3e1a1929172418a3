/** What other features use of offers: the car page's entry, the dashboard's list, and the second-chance offer. */
export { CarOfferEntry, DASHBOARD_OFFERS } from './components/car-offer-entry.tsx';
export { OfferDialogForm } from './components/offer-dialog-form.tsx';
export { sendSecondChance, type Offer } from './api/offers-api.ts';
export { carTitle, offerParty, offerStatusLabel, offerStatusTone, turnLabel } from './lib/offer-view.ts';
export { applyOffers, useOfferList } from './stores/offer-store.ts';
