import { expect, test } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { applyFor, DEMO_OPERATOR, DEMO_PASSWORD, login, newWebinar, operatorHeaders, registerClient } from '../support/session.ts';
import { PHONE, WIDE } from '../support/ui.ts';

// Issue 28: an operator's own cabinet («Оплата заявок» on /user/dashboard) lists the operator's own
// unpaid entries, not every client's debts.

test('an operator’s own dashboard lists their own unpaid entries, never a client’s', async ({ page, request }) => {
  const op = await operatorHeaders(request);
  const serviceId = await newWebinar(request, op, { title: `Вебинар «Своя заявка» ${Date.now() % 100000}`, price: 1200, daysAhead: 30 });
  // The operator applies for it in their own name, then a client does: the client's is the newest.
  const mine = await applyFor(request, { headers: op }, serviceId);
  const client = await registerClient(request, 'own-cabinet', { lastName: 'Должникова' });
  const theirs = await applyFor(request, client, serviceId);

  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.setViewportSize(WIDE);
  await page.goto('/user/dashboard');
  const block = page.getByTestId('unpaid-block');
  await expect(block).toContainText(mine.number);
  await expect(block).not.toContainText(theirs.number);
  await shot(page, 'operator-own-dashboard-desktop');
  await page.setViewportSize(PHONE);
  await expect(block).toContainText(mine.number);
  await shot(page, 'operator-own-dashboard-phone');
});
