/** What other features and the app shell use of the auth feature. */
import { lazy } from 'react';

export { ResendVerificationButton } from './components/resend-verification-button.tsx';
export { useLogout } from './hooks/use-logout.ts';
/** Two-factor sign-in's settings: its own chunk, loaded with the settings that show it (wrap it in Suspense). */
export const TwoFactorSettings = lazy(() => import('./components/two-factor-settings.tsx').then((m) => ({ default: m.TwoFactorSettings })));
