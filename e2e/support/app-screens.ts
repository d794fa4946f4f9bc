import { expect, type Page } from '@playwright/test';

// Every screen of each role (guest, user, operator), walked by the layout and the accessibility
// journeys at both widths. A new screen is one line in SCREENS.

export type Who = 'guest' | 'user' | 'operator';
export interface Screen {
  who: Who;
  /** Short name for the screenshot file. */
  name: string;
  path: string;
  /** Something that shows when the page has its data. */
  ready?: (page: Page) => Promise<void>;
}

export const SCREENS: Screen[] = [
  { who: 'guest', name: 'login', path: '/login' },
  { who: 'guest', name: 'register', path: '/register' },
  { who: 'guest', name: 'password-reset', path: '/password/reset' },
  { who: 'guest', name: 'pay', path: '/pay' },
  { who: 'guest', name: 'password-email', path: '/password/email' },
  { who: 'guest', name: 'unsubscribe', path: '/unsubscribe/00000000-0000-4000-8000-000000000000' },
  { who: 'user', name: 'dashboard', path: '/user/dashboard', ready: (p) => expect(p.getByTestId('notifications-block')).toBeVisible() },
  {
    who: 'user',
    name: 'entries',
    path: '/user/entry',
    ready: (p) => expect(p.locator('[data-testid="entries-table"], [data-testid="entries-cards"]')).toBeVisible(),
  },
  {
    who: 'user',
    name: 'entries-payments',
    path: '/user/entry/payments',
    ready: (p) => expect(p.locator('[data-testid="payments-table"], [data-testid="payments-cards"]')).toBeVisible(),
  },
  { who: 'user', name: 'services', path: '/user/service' },
  { who: 'user', name: 'service-packages', path: '/user/service-package', ready: (p) => expect(p.getByTestId('package-card').first()).toBeVisible() },
  { who: 'user', name: 'profile', path: '/user/profile' },
  { who: 'user', name: 'notifications', path: '/user/notifications' },
  { who: 'user', name: 'settings', path: '/user/settings' },
  { who: 'user', name: 'contract', path: '/user/contract' },
  {
    who: 'user',
    name: 'publications',
    path: '/user/publication',
    ready: (p) => expect(p.locator('[data-testid="publications-cards"], [data-testid="list-empty"]')).toBeVisible(),
  },
  {
    who: 'operator',
    name: 'entries',
    path: '/manager/entry',
    ready: (p) => expect(p.locator('[data-testid="entries-table"], [data-testid="entries-cards"]')).toBeVisible(),
  },
  {
    who: 'operator',
    name: 'entries-payments',
    path: '/manager/entry/payments',
    ready: (p) => expect(p.locator('[data-testid="payments-table"], [data-testid="payments-cards"]')).toBeVisible(),
  },
  {
    who: 'operator',
    name: 'payments',
    path: '/manager/payments',
    ready: (p) => expect(p.locator('[data-testid="payments-table"], [data-testid="payments-cards"]')).toBeVisible(),
  },
  {
    who: 'operator',
    name: 'bank-statements',
    path: '/manager/bank-statements',
    ready: (p) => expect(p.locator('[data-testid="bank-lines-table"], [data-testid="bank-lines-cards"], [data-testid="list-empty"]')).toBeVisible(),
  },
  { who: 'operator', name: 'yookassa', path: '/manager/yookassa' },
  { who: 'operator', name: 'dashboard', path: '/manager/dashboard' },
  { who: 'operator', name: 'users', path: '/manager/users' },
  // Chosen filters show whole ('Другие города', not 'Другие го…').
  { who: 'operator', name: 'users-filtered', path: '/manager/users?is_spb=0&role=2' },
  { who: 'operator', name: 'logs', path: '/manager/logs' },
  { who: 'operator', name: 'api-requests', path: '/manager/api-requests' },
  { who: 'operator', name: 'services', path: '/manager/service' },
  {
    who: 'operator',
    name: 'all-services',
    path: '/manager/all-services',
    ready: (p) => expect(p.locator('[data-testid="all-services-table"], [data-testid="all-services-cards"]')).toBeVisible(),
  },
  { who: 'operator', name: 'service-packages', path: '/manager/service-package' },
  { who: 'operator', name: 'macroses', path: '/manager/macroses' },
  { who: 'operator', name: 'templates', path: '/manager/templates' },
  { who: 'operator', name: 'contracts', path: '/manager/contract' },
  { who: 'operator', name: 'events', path: '/manager/events' },
  { who: 'operator', name: 'mailing', path: '/manager/mailing' },
  { who: 'operator', name: 'service-types', path: '/manager/service-types' },
  { who: 'operator', name: 'profiles', path: '/manager/profiles' },
  { who: 'operator', name: 'regions', path: '/manager/regions' },
  {
    who: 'operator',
    name: 'publication-releases',
    path: '/manager/publication-releases',
    ready: (p) => expect(p.locator('[data-testid="releases-table"], [data-testid="releases-cards"]')).toBeVisible(),
  },
  {
    who: 'operator',
    name: 'publication-prices',
    path: '/manager/publication-prices',
    ready: (p) => expect(p.locator('[data-testid="prices-table"], [data-testid="prices-cards"]')).toBeVisible(),
  },
  {
    who: 'operator',
    name: 'publication-categories',
    path: '/manager/publication-categories',
    ready: (p) => expect(p.locator('[data-testid="rubrics-table"], [data-testid="rubrics-cards"]')).toBeVisible(),
  },
  {
    who: 'operator',
    name: 'reviews',
    path: '/manager/reviews',
    ready: (p) => expect(p.locator('[data-testid="reviews-table"], [data-testid="reviews-cards"]')).toBeVisible(),
  },
  { who: 'operator', name: 'leadings', path: '/manager/leadings' },
  { who: 'operator', name: 'icons', path: '/manager/icons' },
  {
    who: 'operator',
    name: 'publications',
    path: '/manager/publication',
    ready: (p) => expect(p.locator('[data-testid="publications-table"], [data-testid="publications-cards"], [data-testid="list-empty"]')).toBeVisible(),
  },
];

export const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** Opens the screen and waits until its data, fonts and no skeletons show. */
export async function openScreen(page: Page, screen: Screen): Promise<void> {
  await page.goto(screen.path);
  await page.waitForLoadState('networkidle');
  if (screen.ready) await screen.ready(page);
  await expect(page.locator('.mantine-Skeleton-root[data-visible="true"]')).toHaveCount(0, { timeout: 10_000 });
  await page.evaluate(() => document.fonts.ready);
}
