import { lazy } from 'react';
import type { RouteObject } from 'react-router-dom';
import { ListingsScreen } from '../features/cars/components/listings-screen.tsx';
import { Layout } from './layout.tsx';
import { RouteError } from './routes/route-error.tsx';
import { PAGES } from '@common/paths.ts';

// Route-level code splitting: every screen except Listings is its own chunk.
const CarDetailScreen = lazy(() =>
  import('../features/car-room/components/car-detail-screen.tsx').then((m) => ({ default: m.CarDetailScreen })),
);
const LoginScreen = lazy(() =>
  import('../features/auth/components/login-screen.tsx').then((m) => ({ default: m.LoginScreen })),
);
const RegisterScreen = lazy(() =>
  import('../features/auth/components/register-screen.tsx').then((m) => ({ default: m.RegisterScreen })),
);
const VerifyEmailScreen = lazy(() =>
  import('../features/auth/components/verify-email-screen.tsx').then((m) => ({ default: m.VerifyEmailScreen })),
);
const ForgotPasswordScreen = lazy(() =>
  import('../features/auth/components/forgot-password-screen.tsx').then((m) => ({
    default: m.ForgotPasswordScreen,
  })),
);
const ResetPasswordScreen = lazy(() =>
  import('../features/auth/components/reset-password-screen.tsx').then((m) => ({
    default: m.ResetPasswordScreen,
  })),
);
const DashboardScreen = lazy(() =>
  import('../features/dashboard/components/dashboard-screen.tsx').then((m) => ({ default: m.DashboardScreen })),
);
const NotificationSettingsScreen = lazy(() =>
  import('../features/dashboard/components/notification-settings-screen.tsx').then((m) => ({
    default: m.NotificationSettingsScreen,
  })),
);
const SellScreen = lazy(() =>
  import('../features/selling/components/sell-screen.tsx').then((m) => ({ default: m.SellScreen })),
);
const EditListingScreen = lazy(() =>
  import('../features/selling/components/edit-listing-screen.tsx').then((m) => ({ default: m.EditListingScreen })),
);
const OrderScreen = lazy(() =>
  import('../features/orders/components/order-screen.tsx').then((m) => ({ default: m.OrderScreen })),
);
const OfferScreen = lazy(() =>
  import('../features/offers/components/offer-screen.tsx').then((m) => ({ default: m.OfferScreen })),
);
const TestimonialsScreen = lazy(() =>
  import('../features/testimonials/components/testimonials-screen.tsx').then((m) => ({
    default: m.TestimonialsScreen,
  })),
);
const EscrowScreen = lazy(() =>
  import('../features/escrow/components/escrow-screen.tsx').then((m) => ({ default: m.EscrowScreen })),
);
const SupportScreen = lazy(() =>
  import('../features/support/components/support-screen.tsx').then((m) => ({ default: m.SupportScreen })),
);
const AdminScreen = lazy(() =>
  import('../features/back-office/components/admin-screen.tsx').then((m) => ({ default: m.AdminScreen })),
);
const ResultsScreen = lazy(() =>
  import('../features/market/components/results-screen.tsx').then((m) => ({ default: m.ResultsScreen })),
);
const UnsubscribeScreen = lazy(() =>
  import('../features/market/components/unsubscribe-screen.tsx').then((m) => ({ default: m.UnsubscribeScreen })),
);
const NotFoundScreen = lazy(() =>
  import('./routes/not-found.tsx').then((m) => ({ default: m.NotFoundScreen })),
);

/**
 * Route table of spec §2; the paths are common/paths.ts's, which the server's page HTML reads too.
 * The browser's router and the server's renderer (entry-server.tsx) both route with it.
 */
export const appRoutes: RouteObject[] = [
  {
    path: PAGES.home,
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      {
        // Pathless wrapper so a screen error renders inside the layout.
        errorElement: <RouteError />,
        children: [
          { index: true, element: <ListingsScreen /> },
          { path: PAGES.car, element: <CarDetailScreen /> },
          { path: PAGES.login, element: <LoginScreen /> },
          { path: PAGES.register, element: <RegisterScreen /> },
          { path: PAGES.dashboard, element: <DashboardScreen /> },
          { path: PAGES.notificationSettings, element: <NotificationSettingsScreen /> },
          { path: PAGES.order, element: <OrderScreen /> },
          { path: PAGES.offer, element: <OfferScreen /> },
          { path: PAGES.sell, element: <SellScreen /> },
          { path: PAGES.editListing, element: <EditListingScreen /> },
          { path: PAGES.verifyEmail, element: <VerifyEmailScreen /> },
          { path: PAGES.forgotPassword, element: <ForgotPasswordScreen /> },
          { path: PAGES.resetPassword, element: <ResetPasswordScreen /> },
          { path: PAGES.testimonials, element: <TestimonialsScreen /> },
          { path: PAGES.escrow, element: <EscrowScreen /> },
          { path: PAGES.support, element: <SupportScreen /> },
          { path: PAGES.results, element: <ResultsScreen /> },
          { path: PAGES.unsubscribe, element: <UnsubscribeScreen /> },
          { path: PAGES.admin, element: <AdminScreen notFound={<NotFoundScreen />} /> },
          { path: PAGES.adminSection, element: <AdminScreen notFound={<NotFoundScreen />} /> },
          { path: '*', element: <NotFoundScreen /> },
        ],
      },
    ],
  },
];
