import { expect, test, type APIRequestContext } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { clientWithEntry, DEMO_OPERATOR, DEMO_PASSWORD as PASSWORD, login } from '../support/session.ts';
import { rub } from '../support/ui.ts';

/** A client registers, applies for a service and pays it online on the sandbox's page; answers the provider's payment id. */
async function paidOnline(request: APIRequestContext): Promise<{ uuid: string; number: string; sum: number }> {
  const { headers, entry: data } = await clientWithEntry(
    request,
    'refund',
    { lastName: 'Возвратова', firstName: 'Ирина', middleName: 'Павловна' },
    { serviceId: 4 },
  );
  const started = await request.post(`/api/entry/${data.id}/pay`, { headers });
  expect(started.ok()).toBeTruthy();
  const { id: uuid, confirmation } = (await started.json()) as { id: string; confirmation: { confirmation_url: string } };
  // The payer presses «Оплатить» on the sandbox's page; the app captures the held payment.
  const confirmed = await request.post(confirmation.confirmation_url, { form: { action: 'pay' }, maxRedirects: 0 });
  expect(confirmed.status()).toBe(303);
  let sum = 0;
  await expect(async () => {
    const list = (await (await request.get(`/api/payment?uuid=${uuid}`, { headers })).json()) as { data: Array<{ sum: number }> };
    const [only] = list.data;
    expect(list.data).toHaveLength(1);
    sum = only?.sum ?? NaN;
  }).toPass({ timeout: 120_000, intervals: [300, 1000] });
  return { uuid, number: data.number, sum };
}

test('the operator refunds part of an online payment on /manager/payments; the list marks the refund', async ({ page, request }) => {
  const { uuid, number, sum } = await paidOnline(request);
  expect(sum).toBeGreaterThan(100);
  await login(page, DEMO_OPERATOR, PASSWORD);
  await page.goto(`/manager/payments?uuid=${uuid}`);
  await expect(page.getByRole('heading', { name: 'Платежи' })).toBeVisible();
  const row = page.getByTestId('payment-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(number);
  await expect(row).toContainText('Онлайн');
  await row.getByTestId('refund-button').click();

  const form = page.getByTestId('refund-form');
  await expect(page.getByRole('dialog', { name: 'Возврат платежа' })).toBeVisible();
  // The whole rest is proposed; a reason is required, said under the field.
  await expect(form.getByLabel('Сумма возврата')).toHaveValue(rub(sum));
  await form.getByRole('button', { name: 'Вернуть' }).click();
  await expect(form.getByText('Укажите причину возврата')).toBeVisible();
  // What happens to the entry is always asked.
  await expect(form.getByText('Выберите, что сделать с заявкой')).toBeVisible();
  await form.getByLabel('Причина возврата').fill('Клиент не смог посетить одно занятие');
  await form.getByLabel('Сумма возврата').fill('100,50');
  await form.getByLabel('Оставить заявку: клиент участвует').check();
  await shot(page, 'payment-refund-modal-desktop');
  await form.getByRole('button', { name: 'Вернуть' }).click();
  await expect(page.getByText('Деньги возвращены клиенту')).toBeVisible();
  await expect(form).toHaveCount(0);

  await expect(row.getByTestId('refunded-payment')).toHaveText(new RegExp(`Возврат ${rub(100.5).source}`));
  // The totals say what came in, what went back and the income.
  await expect(page.getByTestId('payments-net')).toHaveText(new RegExp(`Доход: ${rub(sum - 100.5).source}`));
  await expect(row.getByTestId('double-payment')).toHaveCount(0);
  // What is left can still be refunded.
  await expect(row.getByTestId('refund-button')).toBeVisible();
  await shot(page, 'payment-refund-desktop');

  // The filter «Состояние: С возвратом» keeps it; «Двойная оплата» does not.
  await page.goto(`/manager/payments?uuid=${uuid}&state=refunded`);
  await expect(row).toHaveCount(1);
  await page.goto(`/manager/payments?uuid=${uuid}&state=double`);
  await expect(page.getByTestId('payments-total')).toHaveText('Всего: 0');
  await expect(row).toHaveCount(0);

  // A phone: cards, the badge and the action fit; the modal too.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/manager/payments?uuid=${uuid}`);
  const card = page.getByTestId('payment-card');
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('refunded-payment')).toBeVisible();
  await shot(page, 'payment-refund-phone');
  await card.getByTestId('refund-button').click();
  const rest = page.getByTestId('refund-form');
  await expect(rest.getByLabel('Сумма возврата')).toHaveValue(rub(sum - 100.5));
  await rest.getByLabel('Причина возврата').fill('Отказ от участия');
  await rest.getByLabel(/Отменить заявку/).check();
  await shot(page, 'payment-refund-modal-phone');
  await rest.getByRole('button', { name: 'Вернуть' }).click();
  await expect(page.getByText('Деньги возвращены клиенту')).toBeVisible();

  // Cancelled: «Возврат» on the operator's entry list, «Возвращён» on the ЮKassa list.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/manager/entry?number=${number}`);
  await expect(page.getByText('Возврат', { exact: true }).first()).toBeVisible();
  await page.goto(`/manager/yookassa?uuid=${uuid}`);
  await expect(page.getByText(new RegExp(`Возвращён: ${rub(sum).source}`))).toBeVisible();
  await shot(page, 'payment-refund-yookassa-desktop');

  // The dashboard's income is net of it, and says what came in and what went back this month.
  await page.goto('/manager/dashboard');
  await expect(page.getByTestId('income-note')).toHaveText(/^Получено .+\s₽, возвращено .+\s₽$/);
  await shot(page, 'payment-refund-dashboard-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('income-note')).toBeVisible();
  await shot(page, 'payment-refund-dashboard-phone');
});
