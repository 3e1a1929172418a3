/** What other features use of selling. */
export { WithdrawListingDialog } from './components/withdraw-listing-dialog.tsx';
