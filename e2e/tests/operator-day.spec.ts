import { expect, test, type Page } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { DEMO_OPERATOR, DEMO_PASSWORD, login, operatorHeaders } from '../support/session.ts';
import { notice } from '../support/ui.ts';

/** The count a to-do card shows (its data-count), read once it has loaded. */
async function todoCount(page: Page, key: string): Promise<number | null> {
  const card = page.getByTestId(`todo-${key}`);
  if ((await card.count()) === 0) return null;
  return Number(await card.getAttribute('data-count'));
}

test("an operator's day: the to-do dashboard leads to filtered lists, the contract board splits scans to check from waiting ones", async ({
  page,
  request,
}) => {
  const headers = await operatorHeaders(request);
  const todo = await (await request.get('/api/manager/todo', { headers })).json();

  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/dashboard');
  const heading = page.getByRole('heading', { name: 'Нужно сделать' });
  await expect(heading).toBeVisible();
  // The to-do comes first, the charts stay below it.
  const todoTop = (await heading.boundingBox())!.y;
  await expect(page.getByRole('heading', { name: 'Статистика' })).toBeVisible();
  expect((await page.getByRole('heading', { name: 'Статистика' }).boundingBox())!.y).toBeGreaterThan(todoTop);
  await expect(page.getByTestId('todo-open').or(page.getByTestId('todo-empty'))).toBeVisible();
  await shot(page, 'manager-dashboard-todo-desktop');

  // Each open card shows the server's count.
  for (const key of ['contracts_to_review', 'publications_pending', 'entries_overdue', 'payments_attention', 'requisites_missing']) {
    const shown = await todoCount(page, key);
    if (shown !== null) expect(shown).toBe(todo[key]);
  }

  // The pending publications open the moderation list filtered to them.
  if (todo.publications_pending > 0) {
    await page.getByTestId('todo-publications_pending').getByRole('link').first().click();
    await expect(page).toHaveURL(/\/manager\/publication\?status=1$/);
    await page.goBack();
  }

  // Entries unpaid although the event has begun: the entry list with its filter ticked, and its total agrees.
  const overdue = await (await request.get('/api/entry?overdue=1', { headers })).json();
  expect(overdue.meta.total).toBe(todo.entries_overdue);
  await page.goto('/manager/entry?overdue=1');
  await expect(page.getByLabel('Не оплачены, а мероприятие уже началось')).toBeChecked();
  await shot(page, 'manager-entries-overdue-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByLabel('Не оплачены, а мероприятие уже началось')).toBeChecked();
  await shot(page, 'manager-entries-overdue-mobile');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Services the site refused: «Все услуги» with the filter chosen, the same total.
  const siteErrors = await (await request.get('/api/service/overview?site=error', { headers })).json();
  expect(siteErrors.meta.total).toBe(todo.services_publish_failed);

  // Payments needing attention: the payment list with the state chosen.
  const attention = await (await request.get('/api/payment?state=attention', { headers })).json();
  expect(attention.meta.total).toBe(todo.payments_attention);

  // The contract board: scans to check first, contracts still without a scan in their own column, last.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/manager/contract?column=review');
  await expect(page.getByRole('heading', { name: 'Договоры' })).toBeVisible();
  const columns = ['review', '2', '3', 'waiting'];
  for (const c of columns) await expect(page.getByTestId(`column-${c}`)).toBeVisible();
  await expect(page.getByTestId('count-review')).toHaveText(String(todo.contracts_to_review));
  await expect(page.getByTestId('count-waiting')).toHaveText(String(todo.contracts_waiting_scan));
  await expect(page.getByTestId('column-review')).toHaveAttribute('data-marked', 'true');
  // A card in «Проверить скан» always has a scan; one in «Ждём скан» never does.
  await expect(page.getByTestId('column-review').getByText('Скан не загружен')).toHaveCount(0);
  const waitingCards = page.getByTestId('column-waiting').getByTestId('contract-card');
  if (todo.contracts_waiting_scan > 0) await expect(waitingCards.first()).toContainText('Скан не загружен');
  // Four columns side by side, in one screen of height.
  const tops = await Promise.all(columns.map(async (c) => (await page.getByTestId(`column-${c}`).boundingBox())!));
  expect(new Set(tops.map((b) => Math.round(b.y))).size).toBe(1);
  expect(tops[0]!.x).toBeLessThan(tops[3]!.x);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height).toBeLessThanOrEqual(800 + 120);
  await shot(page, 'manager-contract-board-desktop');

  // On a phone: one column at a time, chosen by tabs; the link's column is open.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/manager/contract?column=waiting');
  await expect(page.getByTestId('column-tabs')).toBeVisible();
  await expect(page.getByTestId('column-waiting')).toBeVisible();
  await expect(page.getByTestId('column-review')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'manager-contract-board-mobile');
  await page
    .getByTestId('column-tabs')
    .getByText(/Проверить скан/)
    .click();
  await expect(page.getByTestId('column-review')).toBeVisible();
  await expect(page).toHaveURL(/\/manager\/contract$/);

  await page.goto('/manager/dashboard');
  await expect(page.getByRole('heading', { name: 'Нужно сделать' })).toBeVisible();
  await expect(page.getByTestId('todo-open').or(page.getByTestId('todo-empty'))).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'manager-dashboard-todo-mobile');
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('shortcuts and the requisites page are set by operators in the settings, checked, and empty until set', async ({ page, request }) => {
  const headers = await operatorHeaders(request);
  const demo = (await (await request.get('/api/site-links')).json()).data;
  try {
    // No links: the top bar says where to set them, the footer has no requisites link.
    expect((await request.put('/api/settings/site-links', { headers, data: { requisites_url: '', shortcuts: [] } })).status()).toBe(200);
    await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
    await page.goto('/manager/dashboard');
    await page.getByRole('button', { name: 'Полезные ссылки' }).click();
    await expect(page.getByTestId('shortcuts-empty')).toContainText('Макросы → Реквизиты центра');
    await expect(page.locator('footer').getByRole('link', { name: 'Реквизиты' })).toHaveCount(0);
    await shot(page, 'shortcuts-empty-desktop');
    await page.getByRole('menuitem', { name: 'Настроить ссылки' }).click();
    await expect(page).toHaveURL(/\/manager\/macroses\?tab=requisites$/);
    const form = page.getByTestId('site-links-form');
    await expect(form.getByTestId('site-links-empty')).toBeVisible();

    // A link that is not http(s) is refused under its row, in Russian.
    await form.getByLabel('Страница с реквизитами').fill('centre.example.com/requisites');
    await form.getByRole('button', { name: 'Добавить ссылку' }).click();
    await form.getByLabel('Название ссылки 1').fill('Сайт центра');
    await form.getByLabel('Адрес ссылки 1').fill('ftp://centre.example.com');
    await form.getByRole('button', { name: 'Сохранить ссылки' }).click();
    await expect(form.getByText('Ссылка должна начинаться с http:// или https://')).toHaveCount(2);
    await shot(page, 'site-links-errors-desktop');
    await form.getByLabel('Страница с реквизитами').fill('https://centre.example.com/requisites');
    await form.getByLabel('Адрес ссылки 1').fill('https://centre.example.com');
    await form.getByRole('button', { name: 'Сохранить ссылки' }).click();
    await notice(page, 'Ссылки сохранены');

    // The top bar and the footer follow at once, without a rebuild.
    await page.getByRole('button', { name: 'Полезные ссылки' }).click();
    await expect(page.getByRole('menuitem', { name: 'Сайт центра' })).toHaveAttribute('href', 'https://centre.example.com');
    await page.keyboard.press('Escape');
    await expect(page.locator('footer').getByRole('link', { name: 'Реквизиты' })).toHaveAttribute('href', 'https://centre.example.com/requisites');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByTestId('site-links-form').getByTestId('shortcut-row')).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByTestId('site-links-form').scrollIntoViewIfNeeded();
    await shot(page, 'site-links-settings-mobile');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'site-links-settings-desktop');

    // The change is in the change log.
    const log = await (await request.get('/api/log?type=settings', { headers })).json();
    expect(log.data[0]).toMatchObject({ type: 'settings', type_label: 'Настройки', entity_id: 2 });
    expect(log.data[0].diff.requisites_url).toEqual({ old: null, new: 'https://centre.example.com/requisites' });
  } finally {
    await request.put('/api/settings/site-links', { headers, data: { requisites_url: demo.requisites_url ?? '', shortcuts: demo.shortcuts } });
  }
});
