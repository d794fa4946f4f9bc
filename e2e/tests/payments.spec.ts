import { expect, test } from '../support/test.ts';
import { downloadedSheet } from '../support/files.ts';
import { shot } from '../support/screens.ts';
import { clientWithEntry, DEMO_OPERATOR, DEMO_PASSWORD as PASSWORD, login, operatorHeaders } from '../support/session.ts';
import { rub } from '../support/ui.ts';

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
  const row = page
    .getByTestId('transaction-row')
    .filter({ hasText: 'Оплатова Вера Сергеевна' })
    .filter({ hasText: rub(sum) });
  // The webhook of the sandbox may take a moment: open the list again until the status is there.
  await expect(async () => {
    await page.goto('/manager/yookassa');
    await expect(page.getByRole('heading', { name: 'ЮKassa' })).toBeVisible();
    await page.getByLabel('Без пользователя').check();
    await page.getByLabel('ФИО').fill('Оплатова');
    await expect(row).toHaveCount(1, { timeout: 15_000 });
    await expect(row.getByTestId('provider-status')).toHaveText('Подтверждён', { timeout: 5_000 });
    // Each try opens the page and filters the list: seconds on a busy machine, so the whole wait is
    // a limit against a hang, not a guess at the webhook's delay.
  }).toPass({ timeout: 120_000, intervals: [500, 1000] });
  await expect(row.getByText('тест', { exact: true })).toBeVisible();
  await expect(row).toContainText('+7 (916)');
  await shot(page, 'yookassa-desktop');
});

test('the operator sees payments for entries in /manager/payments and filters them', async ({ page, request }) => {
  // A client with an entry the operator marks paid by bank.
  const { entry } = await clientWithEntry(request, 'payments', { lastName: 'Платёжная', middleName: 'Игоревна' }, { serviceId: 4, payType: 1 });
  const paid = await request.post(`/api/entry/${entry.id}/pay`, {
    headers: await operatorHeaders(request),
    data: { immediate: true, pay_type: 1 },
  });
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
  await expect(row).toContainText(entry.number);
  await expect(row).toContainText('Банк');
  await expect(row.getByRole('link', { name: 'Платёжная Анна Игоревна' })).toHaveAttribute('href', /\/manager\/users\?id=\d+$/);

  // The chosen payments' count and sum are on screen.
  await expect(page.getByTestId('payments-totals')).toContainText('Платежей: 1');
  // Dates are typed dd.mm.yyyy (Moscow days, both ends included); a range that ends before it starts says so.
  const today = new Date().toLocaleDateString('ru-RU', { timeZone: 'Europe/Moscow' });
  await page.getByLabel('С даты').pressSequentially('01.01.1999');
  await page.getByLabel('По дату').pressSequentially('31.12.1999');
  await expect(page.getByText('Ничего не найдено')).toBeVisible();
  await expect(page.getByTestId('payments-totals')).toContainText('Платежей: 0');
  await page.getByLabel('По дату').fill('');
  await page.getByLabel('По дату').pressSequentially(today);
  await expect(row).toHaveCount(1);
  await page.getByLabel('С даты').fill('');
  await page.getByLabel('С даты').pressSequentially('31.12.2099');
  // The refused range is said at the field and instead of the list (no rows that ignore it).
  await expect(page.getByText('Дата окончания раньше даты начала').first()).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByLabel('С даты').fill('');
  await page.getByLabel('С даты').pressSequentially(today);
  await expect(row).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`date_from=${today.replace(/\./g, '\\.')}`));
  // An impossible day is the field's own message and is not sent.
  await page.getByLabel('По дату').fill('');
  await page.getByLabel('По дату').pressSequentially('31.02.2026');
  await expect(page.getByText('Несуществующая дата')).toBeVisible();
  await shot(page, 'payments-impossible-date-desktop');
  await page.getByLabel('По дату').fill('');
  await expect(row).toHaveCount(1);

  // Excel: exactly the filtered payments with a totals row.
  const sheet = await downloadedSheet(page, page.getByRole('button', { name: 'Скачать Excel' }), 'Платежи');
  expect(sheet.getRow(1).getCell(3).value).toBe('№ заявки');
  expect(sheet.rowCount).toBe(3);
  expect(sheet.getRow(2).getCell(3).value).toBe(entry.number);
  expect(sheet.getRow(2).getCell(4).value).toBe('Платёжная Анна Игоревна');
  expect(sheet.getRow(3).getCell(2).value).toBe('Итого');
  expect(sheet.getRow(3).getCell(3).value).toBe('Платежей: 1');
  expect(sheet.getRow(3).getCell(7).value).toBe(sheet.getRow(2).getCell(7).value);
  await shot(page, 'payments-desktop');
});
