// Every page is its own chunk (React.lazy), so /login downloads little.
import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { GuestOnly } from './guards/guest-only';
import { RequireOperator } from './guards/require-operator';
import { RequireSession } from './guards/require-session';
import { AuthLayout } from './layouts/auth-layout';
import { RouteError } from './route-error';

const LoginPage = lazy(() => import('../features/auth/pages/login-page').then((m) => ({ default: m.LoginPage })));
const RegisterPage = lazy(() => import('../features/auth/pages/register-page').then((m) => ({ default: m.RegisterPage })));
const PasswordResetPage = lazy(() => import('../features/auth/pages/password-reset-page').then((m) => ({ default: m.PasswordResetPage })));
const PasswordEmailPage = lazy(() => import('../features/auth/pages/password-email-page').then((m) => ({ default: m.PasswordEmailPage })));
const DashboardRoute = lazy(() => import('./routes/user-dashboard').then((m) => ({ default: m.UserDashboardRoute })));
const ServiceRoute = lazy(() => import('./routes/user-service').then((m) => ({ default: m.UserServiceRoute })));
const ServicePackagesRoute = lazy(() => import('./routes/user-service-packages').then((m) => ({ default: m.UserServicePackagesRoute })));
const UserEntriesRoute = lazy(() => import('./routes/entries').then((m) => ({ default: m.UserEntriesRoute })));
const ManagerEntriesRoute = lazy(() => import('./routes/entries').then((m) => ({ default: m.ManagerEntriesRoute })));
const NotificationsPage = lazy(() => import('../features/notifications/pages/notifications-page').then((m) => ({ default: m.NotificationsPage })));
const UserProfileRoute = lazy(() => import('./routes/user-profile').then((m) => ({ default: m.UserProfileRoute })));
const UserContractRoute = lazy(() => import('./routes/user-contract').then((m) => ({ default: m.UserContractRoute })));
const ManagerContractRoute = lazy(() => import('./routes/manager-contract').then((m) => ({ default: m.ManagerContractRoute })));
const UserSettingsRoute = lazy(() => import('./routes/user-settings').then((m) => ({ default: m.UserSettingsRoute })));
const CabinetLayout = lazy(() => import('./layouts/cabinet-layout').then((m) => ({ default: m.CabinetLayout })));
const ManagerServicesRoute = lazy(() => import('./routes/manager-services').then((m) => ({ default: m.ManagerServicesRoute })));
const ManagerAllServicesRoute = lazy(() => import('./routes/manager-all-services').then((m) => ({ default: m.ManagerAllServicesRoute })));
const ManagerPackagesPage = lazy(() => import('../features/service-packages/pages/manager-packages-page').then((m) => ({ default: m.ManagerPackagesPage })));
const PayPage = lazy(() => import('../features/payments/pages/pay-page').then((m) => ({ default: m.PayPage })));
const BankStatementsPage = lazy(() => import('../features/bank-statements/pages/bank-statements-page').then((m) => ({ default: m.BankStatementsPage })));
const PaymentsPage = lazy(() => import('../features/payments/pages/payments-page').then((m) => ({ default: m.PaymentsPage })));
const ManagerDashboardPage = lazy(() => import('../features/statistics/pages/manager-dashboard-page').then((m) => ({ default: m.ManagerDashboardPage })));
const ManagerUsersRoute = lazy(() => import('./routes/manager-users').then((m) => ({ default: m.ManagerUsersRoute })));
const ChangeLogsPage = lazy(() => import('../features/logs/pages/change-logs-page').then((m) => ({ default: m.ChangeLogsPage })));
const RequestLogsPage = lazy(() => import('../features/logs/pages/request-logs-page').then((m) => ({ default: m.RequestLogsPage })));
const EventsPage = lazy(() => import('../features/events/pages/events-page').then((m) => ({ default: m.EventsPage })));
const MailingPage = lazy(() => import('../features/mailing/pages/mailing-page').then((m) => ({ default: m.MailingPage })));
const UnsubscribePage = lazy(() => import('../features/mailing/pages/unsubscribe-page').then((m) => ({ default: m.UnsubscribePage })));
const MacrosPage = lazy(() => import('../features/macros/pages/macros-page').then((m) => ({ default: m.MacrosPage })));
const TemplatesPage = lazy(() => import('../features/templates/pages/templates-page').then((m) => ({ default: m.TemplatesPage })));
const VerifyPage = lazy(() => import('../features/print/pages/verify-page').then((m) => ({ default: m.VerifyPage })));
const PrintPage = lazy(() => import('../features/print/pages/print-page').then((m) => ({ default: m.PrintPage })));
const ServiceTypesPage = lazy(() => import('../features/dictionaries/pages/service-types-page').then((m) => ({ default: m.ServiceTypesPage })));
const ProfilesPage = lazy(() => import('../features/dictionaries/pages/profiles-page').then((m) => ({ default: m.ProfilesPage })));
const RegionsPage = lazy(() => import('../features/dictionaries/pages/regions-page').then((m) => ({ default: m.RegionsPage })));
const LeadingsPage = lazy(() => import('../features/dictionaries/pages/leadings-page').then((m) => ({ default: m.LeadingsPage })));
const IconsPage = lazy(() => import('../features/dictionaries/pages/icons-page').then((m) => ({ default: m.IconsPage })));
const ReleasesPage = lazy(() => import('../features/releases/pages/releases-page').then((m) => ({ default: m.ReleasesPage })));
const PricesPage = lazy(() => import('../features/publication-prices/pages/prices-page').then((m) => ({ default: m.PricesPage })));
const RubricsPage = lazy(() => import('../features/publication-categories/pages/rubrics-page').then((m) => ({ default: m.RubricsPage })));
const ReviewsPage = lazy(() => import('../features/reviews/pages/reviews-page').then((m) => ({ default: m.ReviewsPage })));
const UserPublicationsRoute = lazy(() => import('./routes/publications').then((m) => ({ default: m.UserPublicationsRoute })));
const ManagerPublicationsPage = lazy(() =>
  import('../features/publications/pages/manager-publications-page').then((m) => ({ default: m.ManagerPublicationsPage })),
);
const CardTransactionsPage = lazy(() => import('../features/payments/pages/card-transactions-page').then((m) => ({ default: m.CardTransactionsPage })));

/**
 * One Suspense boundary at the root and one in each layout. Navigations run as transitions, so an
 * already visible boundary keeps the current page on screen while the next chunk loads (no flash
 * of a loader between login and the dashboard); a first visit shows the loader.
 */
function Root() {
  return (
    <Suspense fallback={<PageLoader fullScreen />}>
      <Outlet />
    </Suspense>
  );
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <Navigate to="/login" replace /> },
      {
        element: <AuthLayout />,
        children: [
          {
            path: '/login',
            element: (
              <GuestOnly>
                <LoginPage />
              </GuestOnly>
            ),
          },
          { path: '/register', element: <RegisterPage /> },
          { path: '/password/email', element: <PasswordEmailPage /> },
          { path: '/password/reset', element: <PasswordResetPage /> },
          { path: '/pay', element: <PayPage /> },
          { path: '/unsubscribe/:token', element: <UnsubscribePage /> },
          { path: '/verify', element: <VerifyPage /> },
          { path: '/verify/:code', element: <VerifyPage /> },
        ],
      },
      {
        element: <RequireSession />,
        children: [
          {
            path: '/user',
            element: <CabinetLayout panel="user" />,
            children: [
              { index: true, element: <Navigate to="/user/dashboard" replace /> },
              { path: 'dashboard', element: <DashboardRoute /> },
              { path: 'entry/:from?', element: <UserEntriesRoute /> },
              { path: 'service/:id?', element: <ServiceRoute /> },
              { path: 'service-package', element: <ServicePackagesRoute /> },
              { path: 'profile', element: <UserProfileRoute /> },
              { path: 'contract', element: <UserContractRoute /> },
              { path: 'notifications', element: <NotificationsPage /> },
              { path: 'settings', element: <UserSettingsRoute /> },
              { path: 'publication', element: <UserPublicationsRoute /> },
            ],
          },
          {
            path: '/manager',
            element: <RequireOperator />,
            children: [
              {
                element: <CabinetLayout panel="manager" />,
                children: [
                  { index: true, element: <Navigate to="/manager/dashboard" replace /> },
                  { path: 'entry/:from?', element: <ManagerEntriesRoute /> },
                  { path: 'payments', element: <PaymentsPage /> },
                  { path: 'bank-statements', element: <BankStatementsPage /> },
                  { path: 'yookassa', element: <CardTransactionsPage /> },
                  { path: 'contract', element: <ManagerContractRoute /> },
                  { path: 'dashboard', element: <ManagerDashboardPage /> },
                  { path: 'users', element: <ManagerUsersRoute /> },
                  { path: 'logs', element: <ChangeLogsPage /> },
                  { path: 'api-requests', element: <RequestLogsPage /> },
                  { path: 'service-types', element: <ServiceTypesPage /> },
                  { path: 'profiles', element: <ProfilesPage /> },
                  { path: 'regions', element: <RegionsPage /> },
                  { path: 'leadings', element: <LeadingsPage /> },
                  { path: 'icons', element: <IconsPage /> },
                  { path: 'all-services', element: <ManagerAllServicesRoute /> },
                  { path: 'service/:id?', element: <ManagerServicesRoute /> },
                  { path: 'service-package', element: <ManagerPackagesPage /> },
                  { path: 'events', element: <EventsPage /> },
                  { path: 'mailing', element: <MailingPage /> },
                  { path: 'macroses', element: <MacrosPage /> },
                  { path: 'templates', element: <TemplatesPage /> },
                  { path: 'publication-releases', element: <ReleasesPage /> },
                  { path: 'publication-prices', element: <PricesPage /> },
                  { path: 'publication-categories', element: <RubricsPage /> },
                  { path: 'reviews', element: <ReviewsPage /> },
                  { path: 'publication', element: <ManagerPublicationsPage /> },
                ],
              },
            ],
          },
          { path: '/entry/:id?/print/:type?', element: <PrintPage /> },
        ],
      },
      { path: '*', element: <Navigate to="/login" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
