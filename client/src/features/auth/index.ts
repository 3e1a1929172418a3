/** What other features and the app shell use of the auth feature. */
export { ResendVerificationButton } from './components/resend-verification-button.tsx';
export { useLogout } from './hooks/use-logout.ts';
