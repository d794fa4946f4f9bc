import { expect, test, type APIRequestContext, type Locator, type Page } from '../support/test.ts';
import type { AppServer } from '../support/app-server.ts';
import { shot } from '../support/screens.ts';
import { bearer, DEMO_OPERATOR, DEMO_PASSWORD, login, tokenOf } from '../support/session.ts';

// Operators read Russian, not data (issue 19): no service-type slugs, developer labels such as
// «Название (fdv)», English icon names or raw ids on the operator's dictionary screens, and the
// site's categories and tags are chosen by their names from the site's own lists.

/** Slugs of the seeded service types and template types (the dictionaries' dv codes). */
const SLUGS = [
  'conference',
  'webinar',
  'qualification',
  'retraining',
  'publication',
  'seminar',
  'masterClass',
  'roundTable',
  'olympiad',
  'forum',
  'contest',
  'internship',
  'regList',
  'certificate',
];
const FORBIDDEN: RegExp[] = [
  new RegExp(`\\b(${SLUGS.join('|')})\\b`),
  /\((fdv|dv|id)\)/i,
  /\bJoomla\b/i,
  /\bIcon[A-Z][A-Za-z]+/,
  /\b(UUID|Email|Alias|Id|ID)\b/,
  /#\d+/,
];

/** The text a person reads in this part of the page (sidebar and page text, or a dialog). */
async function expectRussian(area: Locator, where: string) {
  const text = await area.innerText();
  for (const pattern of FORBIDDEN) expect(text.match(pattern)?.[0] ?? null, `${where}: ${pattern}`).toBeNull();
}

async function dictionary<T>(request: APIRequestContext, token: string, name: string): Promise<T[]> {
  const answer = await request.get(`/api/dictionaries/${name}`, { headers: bearer(token) });
  expect(answer.ok()).toBeTruthy();
  return ((await answer.json()) as { data: { data: T[] } }).data.data;
}

async function setSiteMode(request: APIRequestContext, app: AppServer, mode: 'ok' | 'down') {
  const answer = await request.post(`${app.joomla.url}/__e2e/mode`, { data: { mode } });
  expect(answer.status()).toBe(204);
}

async function narrow(page: Page, name: string, ready: Locator) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(ready).toBeVisible();
  await page.waitForTimeout(500);
  await expectRussian(page.locator('body'), `${name} at 390 px`);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function choose(page: Page, field: Locator, option: string) {
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('service types and subtypes: Russian labels, site categories and tags by name', async ({ page, request, app }) => {
  const token = await tokenOf(request, DEMO_OPERATOR, DEMO_PASSWORD);
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/service-types');
  const types = page.getByTestId('types-table');
  // The seeded types name their site categories by title (the demo site has «Раздел сайта N»).
  await expect(types.getByTestId('type-row').filter({ hasText: 'Конференции' })).toContainText('Раздел сайта 1', { timeout: 60_000 });
  await expectRussian(page.locator('body'), 'service types');
  await shot(page, 'russian-types-1280');

  await page.getByRole('button', { name: 'Редактировать Конференции' }).click();
  const typeModal = page.getByRole('dialog', { name: 'Тип услуги: Конференции' });
  await expect(typeModal.getByLabel('Категория на сайте')).toHaveValue('Раздел сайта 1');
  await expect(typeModal.getByLabel('Иконка')).toHaveValue('Презентация');
  await expectRussian(typeModal, 'type modal');
  await shot(page, 'russian-type-modal-1280');
  await typeModal.getByRole('button', { name: 'Отмена' }).click();

  // A subtype gets a category and a tag chosen from the site's lists by name; the ids are stored.
  await page.getByRole('button', { name: 'Редактировать Городская конференция' }).click();
  const subtypeModal = page.getByRole('dialog', { name: 'Подтип: Городская конференция' });
  await choose(page, subtypeModal.getByLabel('Категория на сайте'), 'Раздел сайта 5');
  await choose(page, subtypeModal.getByLabel('Тег на сайте'), 'Профиль 3');
  await expectRussian(subtypeModal, 'subtype modal');
  await shot(page, 'russian-subtype-modal-1280');
  await subtypeModal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(subtypeModal).toBeHidden();
  const row = page.getByTestId('subtypes-table').getByTestId('subtype-row').filter({ hasText: 'Городская конференция' });
  await expect(row).toContainText('категория: Раздел сайта 5, тег: Профиль 3');
  type Subtype = { fdv: string; dv: string | null; joomla_category_id: number | null; joomla_tag_id: number | null };
  const saved = (await dictionary<Subtype>(request, token, 'dict_service_subtypes')).find((s) => s.fdv === 'Городская конференция');
  // The hidden code (dv) is kept as it was.
  expect(saved).toMatchObject({ joomla_category_id: 105, joomla_tag_id: 203, dv: 'Городская' });
  type ServiceType = { fdv: string; dv: string | null; points: number; joomla_category_id: number | null };
  const before = (await dictionary<ServiceType>(request, token, 'dict_service_types')).find((t) => t.fdv === 'Конференции');
  expect(before?.dv).toBe('conference');

  // While the site does not answer, the field says so and saving keeps the stored category.
  await setSiteMode(request, app, 'down');
  try {
    await page.goto('/manager/service-types');
    await expect(types.getByTestId('type-row').filter({ hasText: 'Конференции' })).toContainText('задано', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Редактировать Конференции' }).click();
    await expect(typeModal.getByLabel('Категория на сайте')).toHaveValue('Сайт не ответил');
    await expect(typeModal.getByText('Выбранная категория сохранится')).toBeVisible();
    await expectRussian(typeModal, 'type modal without the site');
    await shot(page, 'russian-type-modal-site-down-1280');
    await typeModal.getByLabel('Баллы').fill('11');
    await typeModal.getByRole('button', { name: 'Сохранить' }).click();
    await expect(typeModal).toBeHidden();
  } finally {
    await setSiteMode(request, app, 'ok');
  }
  const after = (await dictionary<ServiceType>(request, token, 'dict_service_types')).find((t) => t.fdv === 'Конференции');
  expect(after).toMatchObject({ points: 11, joomla_category_id: before?.joomla_category_id, dv: 'conference' });

  await page.goto('/manager/service-types');
  await narrow(page, 'russian-types', page.getByTestId('types-cards'));
});

test('profiles and rubrics: site tags and categories by name, no ids', async ({ page }) => {
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/profiles');
  await expect(page.getByTestId('profiles-table')).toBeVisible();
  await expectRussian(page.locator('body'), 'profiles');
  await shot(page, 'russian-profiles-1280');
  await page
    .getByRole('button', { name: /^Редактировать/ })
    .first()
    .click();
  const profileModal = page.getByRole('dialog');
  await choose(page, profileModal.getByLabel('Тег на сайте'), 'Профиль 7');
  await expectRussian(profileModal, 'profile modal');
  await profileModal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(profileModal).toBeHidden();
  await expect(page.getByTestId('profiles-table').getByTestId('profile-row').first()).toContainText('Профиль 7');
  await narrow(page, 'russian-profiles', page.getByTestId('profiles-cards'));

  await page.goto('/manager/publication-categories');
  await expect(page.getByTestId('rubrics-table')).toBeVisible();
  await expectRussian(page.locator('body'), 'rubrics');
  await page.getByRole('button', { name: 'Редактировать Дошкольное образование' }).click();
  const rubricModal = page.getByRole('dialog');
  await expect(rubricModal.getByLabel('Адрес на сайте')).toBeVisible();
  await choose(page, rubricModal.getByLabel('Категория на сайте'), 'Раздел сайта 2');
  await expectRussian(rubricModal, 'rubric modal');
  await shot(page, 'russian-rubric-modal-1280');
  await rubricModal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(rubricModal).toBeHidden();
  await page.getByRole('button', { name: 'Редактировать Дошкольное образование' }).click();
  await expect(rubricModal.getByLabel('Категория на сайте')).toHaveValue('Раздел сайта 2');
  await rubricModal.getByRole('button', { name: 'Отмена' }).click();
  await narrow(page, 'russian-rubrics', page.getByTestId('rubrics-cards'));
});

test('icons read in Russian; users, services and payments have no developer labels', async ({ page }) => {
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/icons');
  await expect(page.getByTestId('icon-preview')).toContainText('Презентация');
  await page.getByLabel('Поиск иконки').fill('ракета');
  await expect(page.getByTestId('icon-tile')).toHaveCount(1);
  await page.getByRole('button', { name: 'Иконка «Ракета»' }).click();
  await expect(page.getByTestId('icon-preview')).toContainText('Ракета');
  await page.getByLabel('Поиск иконки').fill('');
  await expectRussian(page.locator('body'), 'icons');
  await shot(page, 'russian-icons-1280');
  await narrow(page, 'russian-icons', page.getByTestId('icon-preview'));

  await page.goto('/manager/users');
  await expect(page.getByTestId('users-table')).toBeVisible();
  await expect(page.getByLabel('Номер', { exact: true })).toBeVisible();
  // Other journeys register many clients: the demo user is found by name, not by page.
  await page.getByLabel('ФИО').fill('Иванова Мария Петровна');
  await page.getByRole('button', { name: 'Редактировать Иванова Мария Петровна' }).click();
  const userModal = page.getByRole('dialog', { name: 'Иванова Мария Петровна' });
  await expect(userModal.getByLabel('E-mail')).toBeVisible();
  await expectRussian(userModal, 'user modal');
  await shot(page, 'russian-user-modal-1280');
  await page.keyboard.press('Escape');

  // The service modal is titled by the service, not «Услуга #1».
  await page.goto('/manager/service');
  await page.getByText('Конференции', { exact: true }).first().click();
  await page
    .getByText(/^Всероссийская конференция/)
    .first()
    .click();
  const edit = page.getByRole('button', { name: /^Изменить услугу Всероссийская конференция/ }).first();
  const title = ((await edit.getAttribute('aria-label')) ?? '').replace('Изменить услугу ', '');
  await edit.click();
  const serviceModal = page.getByTestId('service-form-modal');
  await expect(page.getByRole('dialog', { name: title })).toBeVisible();
  await expect(serviceModal.getByLabel('Номер курса в Moodle')).toBeVisible();
  await expectRussian(serviceModal, 'service modal');
  await shot(page, 'russian-service-modal-1280');
  await page.keyboard.press('Escape');

  await page.goto('/manager/payments');
  await expect(page.getByLabel('Идентификатор платежа')).toBeVisible();
  await expectRussian(page.locator('body'), 'payments');
});
