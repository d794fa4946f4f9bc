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
const ProfilePage = lazy(() => import('../features/users/pages/profile-page').then((m) => ({ default: m.ProfilePage })));
const SettingsPage = lazy(() => import('../features/users/pages/settings-page').then((m) => ({ default: m.SettingsPage })));
const CabinetLayout = lazy(() => import('./layouts/cabinet-layout').then((m) => ({ default: m.CabinetLayout })));
const PlaceholderPage = lazy(() => import('../components/placeholder-page').then((m) => ({ default: m.PlaceholderPage })));
const PayPage = lazy(() => import('../features/payments/pages/pay-page').then((m) => ({ default: m.PayPage })));
const PaymentsPage = lazy(() => import('../features/payments/pages/payments-page').then((m) => ({ default: m.PaymentsPage })));
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

function placeholder(path: string, title: string): RouteObject {
  return { path, element: <PlaceholderPage title={title} /> };
}

/** Screens of later issues, by path and Russian name (spec 01 §2, spec 02 §2). */
const userPlaceholders: Array<[string, string]> = [
  ['publication', 'Мои публикации'],
  ['contract', 'Данные для договора'],
];

const managerPlaceholders: Array<[string, string]> = [
  ['dashboard', 'Статистика'],
  ['publication', 'Публикации'],
  ['contract', 'Договоры'],
  ['service/:id?', 'Услуги'],
  ['service-package', 'Пакеты услуг'],
  ['users', 'Пользователи'],
  ['macroses', 'Макросы'],
  ['templates', 'Шаблоны'],
  ['events', 'События'],
  ['leadings', 'Ведущие'],
  ['service-types', 'Типы услуг'],
  ['profiles', 'Профили'],
  ['publication-categories', 'Рубрики публикаций'],
  ['publication-releases', 'Выпуски журнала'],
  ['publication-prices', 'Цены публикаций'],
  ['icons', 'Иконки'],
  ['reviews', 'Отзывы'],
  ['logs', 'Журнал изменений'],
  ['mailing', 'Рассылка'],
  ['regions', 'Регионы'],
  ['api-requests', 'Запросы API'],
];

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
              { path: 'profile', element: <ProfilePage /> },
              { path: 'notifications', element: <NotificationsPage /> },
              { path: 'settings', element: <SettingsPage /> },
              ...userPlaceholders.map(([path, title]) => placeholder(path, title)),
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
                  { path: 'yookassa', element: <CardTransactionsPage /> },
                  ...managerPlaceholders.map(([path, title]) => placeholder(path, title)),
                ],
              },
            ],
          },
          placeholder('/entry/:id?/print/:type?', 'Печать'),
        ],
      },
      { path: '*', element: <Navigate to="/login" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
