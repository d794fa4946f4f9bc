import { expect, test, type APIRequestContext } from '@playwright/test';
import { shot } from '../support/screens.ts';
import { DEMO_OPERATOR, DEMO_PASSWORD as PASSWORD, login } from '../support/session.ts';


/** Prices are printed by Intl (ru-RU), whose group separator is a no-break space. */
const rub = (amount: number) => new RegExp(`${new Intl.NumberFormat('ru-RU').format(amount).replace(/\s/g, '\\s')}\\s₽`);


async function tokenOf(request: APIRequestContext, email: string, password: string): Promise<string> {
  const answer = await request.post('/login', { data: { email, password } });
  expect(answer.ok()).toBeTruthy();
  return ((await answer.json()) as { access_token: string }).access_token;
}

test('a visitor pays through /pay; the operator finds the confirmed payment among ЮKassa transactions', async ({ page }) => {
  const suffix = Date.now().toString().slice(-6);
  const sum = 1000 + (Number(suffix) % 900);
  const fio = 'Оплатова Вера Сергеевна';

  await page.goto('/pay');
  await expect(page.getByRole('heading', { name: 'Оплата' })).toBeVisible();
  await expect(page.locator('form a[href="/register"]')).toHaveText('Регистрация');
  await expect(page.locator('form a[href="/login"]')).toHaveText('Вход');

  // Submitted incomplete: the banner, no request.
  await page.getByLabel('ФИО').fill(fio);
  await page.getByRole('button', { name: 'Оплатить' }).click();
  await expect(page.getByText('Пожалуйста, введите все поля!')).toBeVisible();
  await shot(page, 'pay-incomplete-desktop');

  await page.getByLabel('Телефон').pressSequentially(`916${suffix}0`);
  await expect(page.getByLabel('Телефон')).toHaveValue(`+7 (916) ${suffix.slice(0, 3)}-${suffix.slice(3, 5)}-${suffix.slice(5)}0`);
  await page.getByLabel('Сумма').fill(String(sum));
  await expect(page.getByText('Пожалуйста, введите все поля!')).toHaveCount(0);
  await shot(page, 'pay-filled-desktop');
  await page.getByRole('button', { name: 'Оплатить' }).click();

  // The built-in sandbox of the provider, clearly marked as test mode.
  await expect(page).toHaveURL(/\/sandbox\/yookassa\//);
  await expect(page.getByText('Тестовый режим', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Оплатить' }).click();
  await expect(page).toHaveURL(/\/pay\?paid=\d+/);
  // The return page shows what really happened to the payment.
  await expect(page.getByTestId('pay-result')).toHaveAttribute('data-status', 'succeeded');
  await expect(page.getByText('Спасибо! Оплата прошла успешно.')).toBeVisible();

  await login(page, DEMO_OPERATOR, PASSWORD);
  const row = page.getByTestId('transaction-row').filter({ hasText: 'Оплатова Вера Сергеевна' }).filter({ hasText: rub(sum) });
  // The webhook of the sandbox may take a moment: open the list again until the status is there.
  await expect(async () => {
    await page.goto('/manager/yookassa');
    await expect(page.getByRole('heading', { name: 'ЮKassa' })).toBeVisible();
    await page.getByLabel('Без пользователя').check();
    await page.getByLabel('ФИО').fill('Оплатова');
    await expect(row).toHaveCount(1, { timeout: 3000 });
    await expect(row.getByTestId('provider-status')).toHaveText('Подтверждён', { timeout: 1000 });
  }).toPass({ timeout: 10_000, intervals: [500, 1000] });
  await expect(row.getByText('тест', { exact: true })).toBeVisible();
  await expect(row).toContainText('+7 (916)');
  await shot(page, 'yookassa-desktop');
});

test('the operator sees payments for entries in /manager/payments and filters them', async ({ page, request }) => {
  // A client with an entry the operator marks paid by bank.
  const suffix = Date.now().toString().slice(-7);
  const email = `payments-${suffix}@example.com`;
  // POST /register takes a JSON:API document (spec 01 §7).
  const attributes = {
    last_name: 'Платёжная',
    first_name: 'Анна',
    middle_name: 'Игоревна',
    phone: `+7 (93${suffix.slice(0, 1)}) ${suffix.slice(1, 4)}-${suffix.slice(4, 6)}-${suffix.slice(6)}0`,
    email,
    organization: 'МБОУ СОШ № 3',
    job_title: 'Учитель',
    password: 'Payments-2026!',
    password_confirmation: 'Payments-2026!',
  };
  const registered = await request.post('/register', {
    headers: { 'Content-Type': 'application/vnd.api+json' },
    data: JSON.stringify({ data: { type: 'token', attributes } }),
  });
  expect(registered.ok()).toBeTruthy();
  const userToken = ((await registered.json()) as { access_token: string }).access_token;
  const entry = await request.post('/api/entry', {
    headers: { Authorization: `Bearer ${userToken}` },
    data: { service_id: 4, pay_type: 1, is_extramural: 1 },
  });
  expect(entry.status()).toBe(201);
  const entryBody = (await entry.json()) as { data: { id: number; number: string } };
  const operatorToken = await tokenOf(request, DEMO_OPERATOR, PASSWORD);
  const paid = await request.post(`/api/entry/${entryBody.data.id}/pay`, { headers: { Authorization: `Bearer ${operatorToken}` }, data: { immediate: true, pay_type: 1 } });
  expect(paid.ok()).toBeTruthy();

  await login(page, DEMO_OPERATOR, PASSWORD);
  await page.goto('/manager/payments');
  await expect(page.getByRole('heading', { name: 'Платежи' })).toBeVisible();
  const table = page.getByTestId('payments-table');
  for (const header of ['Заявка', 'Клиент', 'Услуга', 'Тип оплаты', 'Сумма', 'Дата']) {
    await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  }

  await page.getByLabel('Клиент').fill('Платёжная');
  const row = page.getByTestId('payment-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(entryBody.data.number);
  await expect(row).toContainText('Банк');
  await expect(row.getByRole('link', { name: 'Платёжная Анна Игоревна' })).toHaveAttribute('href', /\/manager\/users\?id=\d+$/);

  // The date filter is typed with the mask 9999-99-99 99:99:99; a prefix is enough.
  await page.getByLabel('Дата').pressSequentially('1999');
  await expect(page.getByText('Ничего не найдено')).toBeVisible();
  await page.getByLabel('Дата').fill('');
  await expect(row).toHaveCount(1);
  // An impossible date is the field's own message and is not sent (the list keeps the last real
  // prefix, 2026-02-3); clearing it brings the row back.
  await page.getByLabel('Дата').pressSequentially('20260231');
  await expect(page.getByText('Несуществующая дата')).toBeVisible();
  await expect(page.getByText('Заполните все обязательные поля!')).toHaveCount(0);
  await shot(page, 'payments-impossible-date-desktop');
  await page.getByLabel('Дата').fill('');
  await expect(page.getByText('Несуществующая дата')).toHaveCount(0);
  await expect(row).toHaveCount(1);
  await shot(page, 'payments-desktop');
});
