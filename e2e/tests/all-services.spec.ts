import { expect, test, type APIRequestContext, type Page } from '../support/test.ts';
import { dayAhead } from '../support/days.ts';
import { shot } from '../support/screens.ts';
import { applyFor, DEMO_OPERATOR, DEMO_PASSWORD, login, operatorHeaders, registerClient } from '../support/session.ts';
import { PHONE, WIDE } from '../support/ui.ts';

// «Все услуги» (issue 22): every service in one list with its sales, filters and sorting kept in the
// address bar; a title opens the service's form, whose description is rich text cleaned by the server.

const narrow = (page: Page) => page.setViewportSize(PHONE);
const wide = (page: Page) => page.setViewportSize(WIDE);
const reviewer = (request: APIRequestContext) => registerClient(request, 'all-services', { lastName: 'Обзорова', middleName: 'Петровна' });

test('an operator finds a service in «Все услуги» with its sales, filters and sorts the list, and edits its rich-text description', async ({
  page,
  request,
}) => {
  const op = await operatorHeaders(request);
  const title = `Вебинар «Обзор продаж» ${Date.now() % 100000}`;
  const day = dayAhead(25);
  // A webinar with 5 seats and a description typed as HTML with a script in it.
  const created = await request.post('/api/service', {
    headers: op,
    data: {
      title,
      description: '<p>Программа <b>вебинара</b></p><script>alert(1)</script><img src=x onerror=alert(1)>',
      price: 1500,
      dict_type_id: 2,
      dict_subtype_id: 8,
      participation_type: 1,
      date_type: 1,
      begda: `${day.iso} 10:00:00`,
      endda: `${day.iso} 11:30:00`,
      max_participants: 5,
    },
  });
  expect(created.status()).toBe(201);
  const service = ((await created.json()) as { data: { id: number; description: string } }).data;
  // Cleaned on saving: the script and the handler never reach the cabinet or the site.
  expect(service.description).toBe('<p>Программа <b>вебинара</b></p>');
  // Two clients apply; the operator takes the payment of one at the office.
  const entries: number[] = [];
  for (let n = 0; n < 2; n++) entries.push((await applyFor(request, await reviewer(request), service.id)).id);
  expect((await request.post(`/api/entry/${entries[0]}/pay`, { headers: op, data: { pay_type: 2 } })).ok()).toBeTruthy();

  // The obvious way in: «Все услуги» in the catalogue group of the menu.
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/dashboard');
  await page.getByRole('link', { name: 'Все услуги' }).click();
  await expect(page).toHaveURL(/\/manager\/all-services$/);
  await expect(page.getByRole('heading', { name: 'Все услуги' })).toBeVisible();
  await expect(page.getByTestId('all-services-table')).toBeVisible();
  // Services of different types side by side, without choosing a type first.
  const kinds = await page.getByTestId('overview-kind').evaluateAll((els) => els.map((el) => el.getAttribute('title')?.split(' · ')[0]));
  expect(new Set(kinds).size).toBeGreaterThan(1);
  await shot(page, 'all-services-desktop');

  // Search: the one service, with its entries, paid entries, free places and income.
  await page.getByLabel('Поиск').fill(title);
  const row = page.getByTestId('overview-row').filter({ hasText: title });
  await expect(page.getByTestId('overview-row')).toHaveCount(1);
  await expect(row.getByTestId('overview-entries')).toHaveText('2');
  await expect(row.getByTestId('overview-paid')).toHaveText('1');
  await expect(row.getByTestId('overview-free')).toHaveText('3 из 5');
  await expect(row.getByTestId('overview-income')).toHaveText('1 500 ₽');
  await expect(row.getByTestId('overview-kind')).toHaveText(`#${service.id} · Тематический вебинар`);
  await expect(row.getByTestId('overview-kind')).toHaveAttribute('title', 'Вебинары · Тематический вебинар');
  await expect(page).toHaveURL(/q=/);

  // Type → subtype stays, as filters; the address bar keeps them.
  await page.getByRole('combobox', { name: 'Тип услуги' }).click();
  await page.getByRole('option', { name: 'Вебинары' }).click();
  await expect(page).toHaveURL(/dict_type_id=2/);
  await page.getByRole('combobox', { name: 'Подтип' }).click();
  await page.getByRole('option', { name: 'Тематический вебинар' }).click();
  await expect(page).toHaveURL(/dict_subtype_id=8/);
  await expect(row).toHaveCount(1);
  await page.getByRole('combobox', { name: 'Видимость' }).click();
  await page.getByRole('option', { name: 'Скрытые' }).click();
  await expect(page).toHaveURL(/is_visible=0/);
  await expect(page.getByText('Ничего не найдено')).toBeVisible();
  await page.getByRole('combobox', { name: 'Видимость' }).click();
  await page.getByRole('option', { name: 'Видимые' }).click();
  await expect(page).toHaveURL(/is_visible=1/);
  await expect(row).toHaveCount(1);
  // Dates typed as dd.mm.yyyy: the service's day keeps it, the day after leaves it out.
  await page.getByLabel('С даты').pressSequentially(day.ru.replaceAll('.', ''));
  await expect(page).toHaveURL(new RegExp(`date_from=${day.ru}`));
  await expect(row).toHaveCount(1);
  await page.getByLabel('С даты').fill('');
  await page.getByLabel('С даты').pressSequentially(dayAhead(26).ru.replaceAll('.', ''));
  await expect(page.getByText('Ничего не найдено')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('С даты')).toHaveValue(dayAhead(26).ru);
  await page.getByRole('button', { name: 'Сбросить' }).click();
  await expect(page).toHaveURL(/\/manager\/all-services$/);

  // Sorting by income, most first: kept in the address bar like the filters.
  const byIncome = page.getByRole('columnheader', { name: 'Доход' }).getByRole('button');
  await byIncome.click();
  await expect(page).toHaveURL(/sort=income/);
  await byIncome.click();
  await expect(page).toHaveURL(/sort=-income/);
  await expect(page.getByRole('columnheader', { name: 'Доход' })).toHaveAttribute('aria-sort', 'descending');
  const incomes = await page.getByTestId('overview-income').allTextContents();
  const rubles = incomes.map((t) => Number(t.replace(/[^\d,]/g, '').replace(',', '.')));
  expect(rubles).toEqual([...rubles].sort((a, b) => b - a));
  await shot(page, 'all-services-sorted-desktop');

  // A title opens the service's form; the description is rich text, shown as formatted.
  await page.getByLabel('Поиск').fill(title);
  await expect(page.getByTestId('overview-row')).toHaveCount(1);
  await row.getByRole('button', { name: `Открыть услугу ${title}` }).click();
  const modal = page.getByRole('dialog', { name: title });
  const editor = modal.getByRole('textbox', { name: 'Описание услуги' });
  await expect(editor.locator('b, strong')).toHaveText('вебинара');
  await expect(modal.getByRole('button', { name: 'Полужирный' })).toBeVisible();
  await editor.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.press('Enter');
  await modal.getByRole('button', { name: 'Маркированный список' }).click();
  await page.keyboard.type('Практика на примерах');
  await shot(page, 'all-services-service-form-desktop');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Успешно сохранено!')).toBeVisible();
  const saved = ((await (await request.get(`/api/service/${service.id}`, { headers: op })).json()) as { data: { description: string } }).data;
  expect(saved.description).toMatch(/^<p>Программа <strong>вебинара<\/strong><\/p><ul><li><p>Практика на примерах<\/p><\/li><\/ul>/);

  // The entries count opens the service's entries and guests.
  await row.getByRole('button', { name: `Заявки услуги ${title}` }).click();
  const entriesModal = page.getByRole('dialog', { name: `Заявки: ${title}` });
  await expect(entriesModal.getByTestId('service-entry-row')).toHaveCount(2);
  await expect(entriesModal).toContainText('Участников: 2 из 5');
  await page.keyboard.press('Escape');

  // At 390 px: cards with the same figures; the filters fold behind «Фильтры».
  await expect(page.getByText('Успешно сохранено!')).toBeHidden({ timeout: 15_000 });
  await narrow(page);
  await expect(page.getByRole('button', { name: 'Фильтры' })).toBeVisible();
  const card = page.getByTestId('overview-card').filter({ hasText: title });
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('overview-entries')).toHaveText('2');
  await expect(card.getByRole('button', { name: 'Заявки и гости' })).toBeVisible();
  await expect(card.getByTestId('overview-income')).toHaveText('1 500 ₽');
  await expect(card.getByTestId('overview-free')).toHaveText('3 из 5');
  await shot(page, 'all-services-mobile');
  await card.getByRole('button', { name: `Открыть услугу ${title}` }).click();
  const mobileEditor = page.getByRole('dialog', { name: title }).getByRole('textbox', { name: 'Описание услуги' });
  await expect(mobileEditor).toContainText('Практика на примерах');
  await mobileEditor.scrollIntoViewIfNeeded();
  await shot(page, 'all-services-service-form-mobile');
  await wide(page);
});

test('a user is refused «Все услуги» by the API', async ({ request }) => {
  const { headers } = await reviewer(request);
  expect((await request.get('/api/service/overview', { headers })).status()).toBe(403);
});
