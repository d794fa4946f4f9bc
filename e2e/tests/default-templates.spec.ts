import { expect, test } from '../support/test.ts';
import { pdf, printedPdf } from '../support/files.ts';
import { shot } from '../support/screens.ts';
import { applyFor, clientWithEntry, DEMO_OPERATOR, DEMO_PASSWORD, login, operatorHeaders } from '../support/session.ts';
import { fillContractData, notice } from '../support/ui.ts';

// Issue 19: the templates that ship with every install. No template is uploaded in this journey: the
// consent, the contract and the certificates are the shipped ones (server/src/db/seed/templates).

const FREE_WEBINAR = 'Вебинар «Формирующее оценивание на уроках в начальной школе»';

test('a fresh install: a course client prints the consent and the contract from the wizard; a completed entry prints its certificate', async ({
  page,
  request,
}) => {
  const client = await clientWithEntry(request, 'shipped', { lastName: 'Шаблонова' });
  const { entry: course, headers: auth } = client;

  await login(page, client.email, client.password);
  await page.goto('/user/contract');
  await expect(page.getByRole('heading', { name: 'Данные для договора' })).toBeVisible();
  // Step 1.
  await fillContractData(page, { passport: [pdf('паспорт.pdf')], education: [pdf('диплом.pdf')], snils: [pdf('снилс.pdf')] });
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
  const free = await applyFor(request, client, webinar.id);
  const op = await operatorHeaders(request);
  expect((await request.post(`/api/entry/${free.id}/complete`, { headers: op })).ok()).toBeTruthy();

  await page.goto('/user/entry');
  const row = page.getByTestId('entry-row').filter({ hasText: free.number });
  await row.getByRole('button', { name: `Печать документов заявки ${free.number}` }).click();
  const certificate = await printedPdf(page.context(), request, () => page.getByRole('menuitem', { name: 'Сертификат' }).click(), 'shipped-certificate');
  expect(certificate).toContain('СЕРТИФИКАТ');
  expect(certificate).toContain('Шаблоновой Анне Викторовне');
  // The title's kind word is not repeated after «вебинаре» (issue 28).
  expect(certificate).toContain('за участие в вебинаре «Формирующее оценивание на уроках в начальной школе»');
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
  await dialog.getByRole('button', { name: 'Закрыть', exact: true }).click();
  await expect(row).toBeVisible();
  await shot(page, 'templates-shipped-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('templates-cards')).toContainText('Удостоверение о повышении квалификации');
  await shot(page, 'templates-shipped-mobile');
});
