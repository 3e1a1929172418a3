/** What other features use of the escrow feature. */
export { BuyWithEscrow } from './components/buy-with-escrow.tsx';
