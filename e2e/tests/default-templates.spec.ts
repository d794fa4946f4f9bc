import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { outputDir, shot } from '../support/screens.ts';
import { DEMO_OPERATOR, DEMO_PASSWORD, login } from '../support/session.ts';

// Issue 19: the templates that ship with every install. No template is uploaded in this journey: the
// consent, the contract and the certificates are the shipped ones (server/src/db/seed/templates).

/** Demo service 5: a qualification course (its type needs a contract); its type's default certificate is the shipped one. */
const COURSE_ID = 5;
const FREE_WEBINAR = 'Вебинар «Формирующее оценивание на уроках в начальной школе»';

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n' +
    '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources <</Font <</F1 5 0 R>>>>>> endobj\n' +
    '4 0 obj <</Length 44>> stream\nBT /F1 28 Tf 72 760 Td (Signed scan) Tj ET\nendstream endobj\n' +
    '5 0 obj <</Type /Font /Subtype /Type1 /BaseFont /Helvetica>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);
const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: PDF });

async function register(request: APIRequestContext, lastName: string) {
  const suffix = `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-7);
  const email = `shipped-${suffix}@example.com`;
  const attributes = {
    last_name: lastName,
    first_name: 'Анна',
    middle_name: 'Викторовна',
    phone: `+7 (96${suffix[0]}) ${suffix.slice(1, 4)}-${suffix.slice(4, 6)}-${suffix[6]}3`,
    email,
    organization: 'ГБОУ Школа № 239',
    job_title: 'Учитель математики',
    password: 'Shipped-2026!',
    password_confirmation: 'Shipped-2026!',
  };
  const registered = await request.post('/register', {
    headers: { 'Content-Type': 'application/vnd.api+json' },
    data: JSON.stringify({ data: { type: 'token', attributes } }),
  });
  expect(registered.status()).toBe(201);
  const token = ((await registered.json()) as { access_token: string }).access_token;
  return { email, password: 'Shipped-2026!', token, fio: `${lastName} Анна Викторовна` };
}

function pdfText(body: Buffer, name: string): string {
  fs.mkdirSync(outputDir, { recursive: true });
  const file = path.join(outputDir, `${name}.pdf`);
  fs.writeFileSync(file, body);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

/**
 * Runs `act` (a click that opens a tab), waits for the signed link of the document, and reads the PDF
 * with the request context. The tab's own request is stopped (Chromium's PDF viewer may never report
 * its load, decision in documents.spec.ts).
 */
async function printedPdf(context: BrowserContext, request: APIRequestContext, act: () => Promise<unknown>, name: string): Promise<string> {
  await context.route('**/api/file/signed**', (route) => route.abort());
  const signed = context.waitForEvent('request', { predicate: (r) => r.url().includes('/api/file/signed'), timeout: 90_000 });
  await act();
  const link = (await signed).url();
  await context.unroute('**/api/file/signed**');
  const answer = await request.get(link);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('application/pdf');
  return pdfText(await answer.body(), name);
}

async function notice(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
}

test('a fresh install: a course client prints the consent and the contract from the wizard; a completed entry prints its certificate', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const client = await register(request, 'Шаблонова');
  const auth = { Authorization: `Bearer ${client.token}` };
  const entry = await request.post('/api/entry', { headers: auth, data: { service_id: COURSE_ID, pay_type: 3, is_extramural: 1 } });
  expect(entry.status()).toBe(201);
  const course = ((await entry.json()) as { data: { id: number; number: string } }).data;

  await login(page, client.email, client.password);
  await page.goto('/user/contract');
  await expect(page.getByRole('heading', { name: 'Данные для договора' })).toBeVisible();
  // Step 1.
  await page.getByLabel('Адрес регистрации').fill('г. Санкт-Петербург, ул. Садовая, д. 5, кв. 12');
  await page.getByLabel('Дата рождения').pressSequentially('12041985');
  await page.getByRole('textbox', { name: 'СНИЛС' }).pressSequentially('11223344595');
  await page.getByLabel('Серия и номер').pressSequentially('4010123456');
  await page.getByLabel('Дата выдачи').pressSequentially('01062015');
  await page.getByLabel('Кем выдан').fill('ТП № 1 УФМС России по г. Санкт-Петербургу');
  await page
    .getByTestId('doc-passport')
    .locator('input[type=file]')
    .setInputFiles([pdf('паспорт.pdf')]);
  await page
    .getByTestId('doc-education')
    .locator('input[type=file]')
    .setInputFiles([pdf('диплом.pdf')]);
  await page
    .getByTestId('doc-snils')
    .locator('input[type=file]')
    .setInputFiles([pdf('снилс.pdf')]);
  await page.getByTestId('floating-save').click();
  await notice(page, 'Данные сохранены!');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByRole('heading', { name: 'Согласие на обработку персональных данных' })).toBeVisible();

  // Step 2: «Распечатать согласие» gives the shipped consent, filled with the client's data.
  const consent = await printedPdf(page.context(), request, () => page.getByRole('button', { name: 'Распечатать согласие' }).click(), 'shipped-consent');
  expect(consent).toContain('СОГЛАСИЕ на обработку персональных данных');
  expect(consent).toContain(client.fio);
  expect(consent).toContain('152-ФЗ');
  expect(consent).toContain('4010 123456');
  expect(consent).toContain('Автономная некоммерческая организация');
  for (const tab of page.context().pages()) if (tab !== page) await tab.close();
  await shot(page, 'shipped-consent-step-desktop');
  await page
    .getByTestId('doc-consent')
    .locator('input[type=file]')
    .setInputFiles([pdf('согласие подписано.pdf')]);
  await page.getByTestId('wizard-next').click();
  await expect(page.getByRole('heading', { name: 'Договор', exact: true })).toBeVisible();

  // Step 3: «Распечатать договор» gives the shipped contract of the course.
  const card = page.getByTestId(`client-contract-${course.id}`);
  const contract = await printedPdf(page.context(), request, () => card.getByRole('link', { name: 'Распечатать договор' }).click(), 'shipped-contract');
  expect(contract).toContain(`ДОГОВОР № ${course.number}`);
  expect(contract).toContain('об оказании платных образовательных услуг');
  expect(contract).toContain(client.fio);
  expect(contract).toContain('ИНН 7800000000');
  expect(contract).not.toContain('нет данных');
  for (const tab of page.context().pages()) if (tab !== page) await tab.close();

  // A free webinar entry, completed by the operator, prints its certificate (the webinar type's shipped default).
  const services = await request.get('/api/service', { headers: auth, params: { title: 'Формирующее оценивание', per_page: 15 } });
  const webinar = ((await services.json()) as { data: { id: number; title: string }[] }).data.find((s) => s.title === FREE_WEBINAR)!;
  const created = await request.post('/api/entry', { headers: auth, data: { service_id: webinar.id, pay_type: 3, is_extramural: 1 } });
  expect(created.status()).toBe(201);
  const free = ((await created.json()) as { data: { id: number; number: string } }).data;
  const opLogin = await request.post('/login', { data: { email: DEMO_OPERATOR, password: DEMO_PASSWORD } });
  const op = { Authorization: `Bearer ${((await opLogin.json()) as { access_token: string }).access_token}` };
  expect((await request.post(`/api/entry/${free.id}/complete`, { headers: op })).ok()).toBeTruthy();

  await page.goto('/user/entry');
  const row = page.getByTestId('entry-row').filter({ hasText: free.number });
  await row.getByRole('button', { name: `Печать документов заявки ${free.number}` }).click();
  const certificate = await printedPdf(page.context(), request, () => page.getByRole('menuitem', { name: 'Сертификат' }).click(), 'shipped-certificate');
  expect(certificate).toContain('СЕРТИФИКАТ');
  expect(certificate).toContain('Шаблоновой Анне Викторовне');
  expect(certificate).toContain(`«${FREE_WEBINAR}»`);
  expect(certificate).toMatch(/№ \d{12}/);
  for (const tab of page.context().pages()) if (tab !== page) await tab.close();
});

test('the operator sees what the install lacks for printing, and cannot delete a default certificate', async ({ page }) => {
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/templates');
  await expect(page.getByRole('heading', { name: 'Шаблоны' })).toBeVisible();
  // Every demo service has a certificate (its type's shipped default), the consent and contract ship.
  await expect(page.getByTestId('missing-templates-ok')).toBeVisible();
  const row = page.getByTestId('templates-table').getByRole('row').filter({ hasText: 'Удостоверение о повышении квалификации' });
  await expect(row).toContainText('Курсы повышения квалификации');
  await row.getByRole('button', { name: 'Действия с шаблоном Удостоверение о повышении квалификации' }).click();
  await page.getByRole('menuitem', { name: 'Удалить' }).click();
  const dialog = page.getByRole('dialog', { name: 'Удаление шаблона' });
  await dialog.getByRole('button', { name: 'Да' }).click();
  await expect(dialog.getByTestId('template-in-use')).toContainText('По умолчанию для типов услуг: «Курсы повышения квалификации»');
  await shot(page, 'templates-in-use-desktop');
  await dialog.getByRole('button', { name: 'Закрыть' }).click();
  await expect(row).toBeVisible();
  await shot(page, 'templates-shipped-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('templates-cards')).toContainText('Удостоверение о повышении квалификации');
  await shot(page, 'templates-shipped-mobile');
});
