import { expect, test, type APIRequestContext } from '../support/test.ts';
import fs from 'node:fs';
import path from 'node:path';
import { outputDir, shot } from '../support/screens.ts';
import { clientWithEntry, DEMO_OPERATOR, DEMO_PASSWORD as PASSWORD, login } from '../support/session.ts';

/** A fresh client with one unpaid entry on demo service 5 (4 900 ₽, remote). */
const newClient = (request: APIRequestContext, lastName: string, payType?: number) =>
  clientWithEntry(request, 'entry-pay', { lastName, firstName: 'Ирина', middleName: 'Павловна' }, { payType });

test('a user pays an entry through the sandbox page, comes back and sees it paid with the badge gone', async ({ page, request }) => {
  const client = await newClient(request, 'Оплатина');
  await login(page, client.email, client.password);
  const sidebarEntries = page.getByRole('link', { name: /^Мои заявки/ }).first();
  await expect(sidebarEntries).toContainText('4 900');

  await page.goto('/user/entry');
  const row = page.getByTestId('entry-row').filter({ hasText: client.entry.number });
  await expect(row.getByTestId('entry-status')).toHaveText('Не оплачена');
  await row.getByRole('button', { name: /Оплатить/ }).click();

  await expect(page).toHaveURL(/\/sandbox\/yookassa\/pay\//);
  await expect(page.getByText('Тестовый режим', { exact: false })).toBeVisible();
  await shot(page, 'sandbox-confirmation-desktop');
  await page.getByRole('button', { name: 'Оплатить' }).click();

  await expect(page).toHaveURL(/\/user\/entry/);
  await expect(page.getByText('Оплата прошла успешно!')).toBeVisible();
  await expect(row.getByTestId('entry-status')).toHaveText('Оплачена');
  await expect(sidebarEntries).not.toContainText('₽');
  await page.getByRole('tab', { name: 'Платежи' }).click();
  await expect(page.getByTestId('payments-list')).toContainText(client.entry.number);
  await shot(page, 'entry-paid-desktop');
});

test('an operator marks another entry paid after the confirmation dialog', async ({ page, request }) => {
  const client = await newClient(request, 'Банковская');
  await login(page, DEMO_OPERATOR, PASSWORD);
  await page.goto('/manager/entry');
  await expect(page.getByRole('heading', { name: 'Заявки' })).toBeVisible();
  await page.getByLabel('ФИО').fill('Банковская');
  const row = page.getByTestId('entry-row').filter({ hasText: client.entry.number });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Банковская Ирина Павловна');
  // For an operator the row's button says what it does: it records money that came otherwise.
  await row.getByRole('button', { name: 'Отметить оплату' }).click();
  // The confirmation names the entry, the client and the sum, and asks how the money came.
  const confirm = page.getByRole('dialog', { name: 'Отметить заявку оплаченной' });
  await expect(confirm.getByText('Вы уверены, что хотите отметить заявку оплаченной?')).toBeVisible();
  await expect(confirm).toContainText(`№ ${client.entry.number}`);
  await expect(confirm).toContainText('Банковская Ирина Павловна');
  await expect(confirm).toContainText(/4\s900\s₽/);
  await expect(confirm.getByRole('radio')).toHaveCount(3);
  await expect(confirm.getByRole('radio', { name: 'Онлайн' })).toHaveCount(0);
  // The entry was to be paid online: nothing is preselected, the operator says how the money came.
  await expect(confirm.getByRole('radio', { name: 'Банк' })).not.toBeChecked();
  await expect(confirm.getByRole('button', { name: 'ДА', exact: true })).toBeDisabled();
  await shot(page, 'manager-entry-confirm-desktop');
  await confirm.getByRole('button', { name: 'НЕТ', exact: true }).click();
  await expect(row.getByTestId('entry-status')).toHaveText('Не оплачена');
  await row.getByRole('button', { name: 'Отметить оплату' }).click();
  await confirm.getByRole('radio', { name: 'Офис' }).check();
  await confirm.getByRole('button', { name: 'ДА', exact: true }).click();
  await expect(row.getByTestId('entry-status')).toHaveText('Оплачена');
  await page.getByRole('tab', { name: 'Платежи' }).click();
  await expect(page.getByTestId('payments-list')).toContainText(client.entry.number);
  await expect(page.getByTestId('payments-list').locator('tr, [data-testid]').filter({ hasText: client.entry.number }).first()).toContainText('Офис');
  await shot(page, 'manager-entries-payments-desktop');
});

test('a bank-transfer client prints the invoice (счёт на оплату) of an entry from «Мои заявки»', async ({ page, request }) => {
  const client = await newClient(request, 'Счетова', 1);
  await login(page, client.email, client.password);
  await page.goto('/user/entry');
  const row = page.getByTestId('entry-row').filter({ hasText: client.entry.number });
  await expect(row.getByTestId('entry-status')).toHaveText('Не оплачена');
  const invoice = row.getByTestId('invoice-button');
  await expect(invoice).toHaveText('Счёт на оплату');
  await expect(invoice).toHaveAttribute('href', `/entry/${client.entry.id}/print/invoice`);
  await shot(page, 'entry-invoice-button-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('entry-card').filter({ hasText: client.entry.number }).getByTestId('invoice-button')).toBeVisible();
  await shot(page, 'entry-invoice-button-narrow');

  // The link's call answers the document's address: a PDF.
  const answer = await request.get(`/api/entry/${client.entry.id}/print/invoice`, { headers: client.headers });
  expect(answer.status()).toBe(200);
  const pdf = await request.get(((await answer.json()) as { url: string }).url);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  const body = await pdf.body();
  expect(body.subarray(0, 5).toString()).toBe('%PDF-');
  fs.mkdirSync(outputDir, { recursive: true });
  fs.writeFileSync(path.join(outputDir, 'entry-invoice.pdf'), body);
});

test('an online-paying client is not offered an invoice', async ({ page, request }) => {
  const client = await newClient(request, 'Онлайнова');
  await login(page, client.email, client.password);
  await page.goto('/user/entry');
  const row = page.getByTestId('entry-row').filter({ hasText: client.entry.number });
  await expect(row.getByRole('button', { name: /Оплатить/ })).toBeVisible();
  await expect(row.getByTestId('invoice-button')).toHaveCount(0);
});
