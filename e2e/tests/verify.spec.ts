import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '../support/test.ts';
import { printedPdf } from '../support/files.ts';
import { shot } from '../support/screens.ts';
import { applyFor, clientWithEntry, DEMO_OPERATOR, DEMO_PASSWORD, login, operatorHeaders } from '../support/session.ts';
import { notice, PHONE, WIDE } from '../support/ui.ts';

// Issue 33, capability 1 (decision 039): a printed certificate carries a verification code and a QR
// code of APP_URL/verify/<code>; a visitor (no login) opens that page; an operator revokes it.

const FREE_WEBINAR = 'Вебинар «Формирующее оценивание на уроках в начальной школе»';

async function axeBlocking(page: import('@playwright/test').Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.join(' ')}: ${v.help}`));
}

test('a client prints a certificate; a visitor checks it by its code; once revoked it no longer verifies', async ({ page, request, browser }) => {
  test.setTimeout(240_000);
  const client = await clientWithEntry(request, 'verify', { lastName: 'Проверкина' });
  const services = await request.get('/api/service', { headers: client.headers, params: { title: 'Формирующее оценивание', per_page: 15 } });
  const webinar = ((await services.json()) as { data: { id: number; title: string; dict_type_id: number }[] }).data.find((s) => s.title === FREE_WEBINAR)!;
  const entry = await applyFor(request, client, webinar.id);
  const op = await operatorHeaders(request);
  // The shipped webinar certificate prints for webinars (documents.spec, on the same install when the
  // journeys share a worker, makes a centre's own template without the code the default).
  const shipped = await request.get('/api/template', { headers: op, params: { title: 'Сертификат участника вебинара', per_page: 15 } });
  const template = ((await shipped.json()) as { data: { id: number; title: string }[] }).data.find((t) => t.title === 'Сертификат участника вебинара')!;
  expect((await request.post(`/api/template/${template.id}/set-as-default/${webinar.dict_type_id}`, { headers: op })).ok()).toBeTruthy();
  expect((await request.post(`/api/entry/${entry.id}/complete`, { headers: op })).ok()).toBeTruthy();

  // The client prints the certificate: it carries the code (and its QR code, decoded in the server's test).
  await login(page, client.email, client.password);
  await page.goto('/user/entry');
  const row = page.getByTestId('entry-row').filter({ hasText: entry.number });
  await row.getByRole('button', { name: `Печать документов заявки ${entry.number}` }).click();
  const text = await printedPdf(page.context(), request, () => page.getByRole('menuitem', { name: 'Сертификат' }).click(), 'verify-certificate');
  const code = /Код проверки: ([A-Z0-9]{12})/.exec(text)?.[1];
  expect(code, text).toBeTruthy();
  for (const tab of page.context().pages()) if (tab !== page) await tab.close();

  // The operator sees the same code among the entry's issued documents.
  const issued = await request.get(`/api/entry/${entry.id}/issued-documents`, { headers: op });
  const [doc] = ((await issued.json()) as { data: { id: number; code: string; url: string }[] }).data;
  if (!doc) throw new Error('no issued document');
  expect(doc.code).toBe(code);
  expect(new URL(doc.url).pathname).toBe(`/verify/${code}`);

  // A visitor, not logged in, opens the address of the QR code.
  const visitor = await browser.newContext({ viewport: WIDE, locale: 'ru-RU' });
  const v = await visitor.newPage();
  // Without a camera: the code typed on /verify (lower case, a space) leads to the same answer.
  await v.goto('/verify');
  await v.getByLabel('Код проверки').fill('12345');
  await v.getByRole('button', { name: 'Проверить' }).click();
  await expect(v.getByText('Код проверки — 12 латинских букв и цифр, как напечатано на документе')).toBeVisible();
  expect(await axeBlocking(v)).toEqual([]);
  await shot(v, 'verify-form-desktop');
  await v.getByLabel('Код проверки').fill(`${code!.slice(0, 6).toLowerCase()} ${code!.slice(6)}`);
  await v.getByRole('button', { name: 'Проверить' }).click();
  await expect(v).toHaveURL(new RegExp(`/verify/${code}$`));
  await expect(v.getByTestId('verify-result')).toContainText('Документ действителен');
  await v.goto(new URL(doc.url).pathname);
  await expect(v.getByTestId('verify-result')).toContainText('Документ действителен');
  const shown = v.getByTestId('verify-document');
  await expect(shown).toContainText(client.fio);
  await expect(shown).toContainText(FREE_WEBINAR);
  await expect(shown).not.toContainText(client.email);
  expect(await axeBlocking(v)).toEqual([]);
  await shot(v, 'verify-valid-desktop');
  await v.setViewportSize(PHONE);
  await expect(v.getByTestId('verify-result')).toBeVisible();
  expect(await v.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await shot(v, 'verify-valid-phone');

  // The operator revokes it with a reason in the entry's window: the same address now answers that it is not valid.
  const staff = await browser.newContext({ viewport: WIDE, locale: 'ru-RU' });
  const o = await staff.newPage();
  await login(o, DEMO_OPERATOR, DEMO_PASSWORD);
  await o.goto(`/manager/entry?number=${encodeURIComponent(entry.number)}`);
  await o
    .getByTestId('entry-row')
    .filter({ hasText: entry.number })
    .getByRole('button', { name: `Изменить заявку ${entry.number}` })
    .click();
  const issuedBlock = o.getByTestId('operator-entry-modal').getByTestId('issued-document');
  await expect(issuedBlock.getByTestId('issued-document-code')).toHaveText(code!);
  await issuedBlock.getByRole('button', { name: 'Отозвать…' }).click();
  await issuedBlock.getByRole('button', { name: 'Отозвать документ' }).click();
  await expect(issuedBlock.getByText('Укажите причину отзыва')).toBeVisible();
  await issuedBlock.getByLabel('Причина отзыва').fill('Выдан по ошибке');
  await issuedBlock.getByRole('button', { name: 'Отозвать документ' }).click();
  await notice(o, 'Документ отозван');
  await expect(issuedBlock).toContainText('Причина отзыва: Выдан по ошибке');
  await shot(o, 'verify-operator-revoked-desktop');
  await staff.close();
  await v.reload();
  await expect(v.getByTestId('verify-result')).toContainText('Документ не найден / отозван');
  await expect(v.getByTestId('verify-document')).toHaveCount(0);
  expect(await axeBlocking(v)).toEqual([]);
  await shot(v, 'verify-revoked-phone');
  await v.setViewportSize(WIDE);
  await shot(v, 'verify-revoked-desktop');
  await visitor.close();
});
