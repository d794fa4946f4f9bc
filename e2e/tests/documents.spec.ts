import { expect, test } from '../support/test.ts';
import { makeDocx } from '../support/docx.ts';
import { printedPdf } from '../support/files.ts';
import { shot } from '../support/screens.ts';
import { applyFor, DEMO_OPERATOR, DEMO_PASSWORD as PASSWORD, login, logout, operatorHeaders, registerClient } from '../support/session.ts';
import { PHONE, WIDE } from '../support/ui.ts';

/** Demo service 'webinar-assessment': a free webinar (type Вебинары, no contract), no certificate template of its own. */
const FREE_WEBINAR = 'Вебинар «Формирующее оценивание на уроках в начальной школе»';

test('the macro catalogue: search by description, click copies; the requisites form', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await login(page, DEMO_OPERATOR, PASSWORD);
  await page.goto('/manager/macroses');
  await expect(page.getByRole('heading', { name: 'Макросы' })).toBeVisible();
  await expect(page.getByTestId('macro-category')).toHaveCount(6);
  await shot(page, 'macroses-desktop');
  await page.getByPlaceholder('Поиск по названию или описанию').fill('дательном');
  await expect(page.getByTestId('macro')).toHaveCount(4);
  await page.getByRole('button', { name: 'Скопировать ${user.fio_dative}' }).click();
  await expect(page.getByText('Скопировано в буфер обмена')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('${user.fio_dative}');
  await shot(page, 'macroses-search-desktop');

  await page.getByRole('tab', { name: 'Реквизиты центра' }).click();
  await page.getByLabel('ИНН').fill('7801234567');
  await page.getByLabel('Краткое наименование').fill('АНО ДПО «Учебный центр»');
  await page.getByRole('button', { name: 'Сохранить', exact: true }).click();
  await expect(page.getByText('Успешно сохранено!')).toBeVisible();
  await shot(page, 'macroses-requisites-desktop');

  await page.getByRole('tab', { name: 'Склонение ФИО' }).click();
  await page.getByLabel('Поиск по ФИО').fill('Иванова Мария');
  const demo = page.getByTestId('name-form').filter({ hasText: 'demo-user@example.com' });
  await expect(demo.getByLabel('Кому (дательный падеж)')).toHaveValue('Ивановой Марии Петровне');
  await shot(page, 'macroses-names-desktop');

  await page.setViewportSize(PHONE);
  await page.getByRole('tab', { name: 'Каталог' }).click();
  await expect(page.getByTestId('macro-category').first()).toBeVisible();
  await shot(page, 'macroses-mobile');
});

test('template editors by type: HTML with preview, rich text, the macro list beside', async ({ page }) => {
  await login(page, DEMO_OPERATOR, PASSWORD);
  await page.goto('/manager/templates');
  await page.locator('.mantine-SegmentedControl-label', { hasText: /^Программа$/ }).click();
  await page.getByRole('button', { name: 'Добавить шаблон' }).first().click();
  const modal = page.getByRole('dialog', { name: 'Шаблон' });
  await modal.getByLabel('Название').fill('Программа вебинара');
  await modal.getByLabel('HTML шаблона').fill('<h1>Программа</h1><p>«');
  await modal.getByRole('button', { name: 'Скопировать ${service.title}' }).click();
  await modal.getByLabel('HTML шаблона').press('End');
  await modal.getByLabel('HTML шаблона').pressSequentially('»</p><p>Объём: ${service.hours} ч.</p>');
  await expect(modal.getByLabel('HTML шаблона')).toHaveValue('<h1>Программа</h1><p>«${service.title}»</p><p>Объём: ${service.hours} ч.</p>');
  await modal.getByRole('tab', { name: 'Предпросмотр' }).click();
  await expect(modal.frameLocator('iframe[title="Предпросмотр"]').getByRole('heading', { name: 'Программа' })).toBeVisible();
  await shot(page, 'template-html-preview-desktop');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Успешно сохранено!')).toBeVisible();
  await expect(page.getByTestId('templates-table')).toContainText('Программа вебинара');
  // The chosen type lives in the address bar: a reload shows the same list.
  await expect(page).toHaveURL(/type=\d+/);
  await page.reload();
  await expect(page.getByTestId('templates-table')).toContainText('Программа вебинара');

  // A rich-text notification template with an unknown macro is refused with the reason.
  await page.locator('.mantine-SegmentedControl-label', { hasText: /^Уведомление$/ }).click();
  await page.getByRole('button', { name: 'Добавить шаблон' }).first().click();
  await modal.getByLabel('Название').fill('Напоминание');
  const editor = modal.locator('.tiptap');
  await editor.click();
  await editor.pressSequentially('Здравствуйте, ${user.nickname}!');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(modal.getByText('Неизвестные макросы: ${user.nickname}')).toBeVisible();
  await editor.press('Control+a');
  await editor.pressSequentially('Здравствуйте, ');
  await modal.getByRole('button', { name: 'Скопировать ${user.fio}' }).click();
  await shot(page, 'template-rich-desktop');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Успешно сохранено!')).toBeVisible();
  await expect(page.getByTestId('templates-table')).toContainText('Напоминание');
});

test('the operator uploads a certificate template and sets it as default; after completion the client prints the certificate', async ({ page, request }) => {
  // A title of this run's own: a retry on the same database meets the first try's template.
  const TITLE = `Наш сертификат вебинара ${Date.now().toString(36)}`;
  const op = await operatorHeaders(request);

  // The operator: a .docx with macros (one split across runs, as Word does).
  await login(page, DEMO_OPERATOR, PASSWORD);
  await page.goto('/manager/templates');
  await expect(page.getByRole('heading', { name: 'Шаблоны' })).toBeVisible();
  await page.getByRole('button', { name: 'Добавить шаблон' }).first().click();
  const modal = page.getByRole('dialog', { name: 'Шаблон' });
  await modal.getByLabel('Название').fill(TITLE);
  // A broken template is refused with the reason.
  await modal.locator('input[type=file]').setInputFiles({ name: 'broken.docx', mimeType: 'application/octet-stream', buffer: makeDocx(['Выдан ${user.fio']) });
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(modal.getByText(/Макрос не закрыт/)).toBeVisible();
  await shot(page, 'template-docx-error-desktop');
  const certificate = makeDocx([
    'СЕРТИФИКАТ',
    ['Настоящий сертификат выдан ${user.', 'fio_dative}'],
    'за участие в мероприятии «${service.title}»',
    '№ ${entry.certificate_number} от ${app.date}',
  ]);
  await modal.locator('input[type=file]').setInputFiles({
    name: 'Сертификат вебинара.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: certificate,
  });
  await shot(page, 'template-docx-desktop');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Успешно сохранено!')).toBeVisible();
  const row = page.getByTestId('templates-table').getByRole('row').filter({ hasText: TITLE });
  await expect(row).toContainText('Сертификат вебинара.docx');

  await row.getByRole('button', { name: `Действия с шаблоном ${TITLE}` }).click();
  await page.getByRole('menuitem', { name: 'Установить по умолчанию' }).click();
  const dialog = page.getByRole('dialog', { name: 'Шаблон по умолчанию' });
  await dialog.getByLabel('Тип услуги').click();
  await page.getByRole('option', { name: 'Вебинары' }).click();
  await dialog.getByRole('button', { name: 'Установить' }).click();
  await expect(page.getByText('Шаблон успешно установлен по умолчанию!')).toBeVisible();
  await expect(row).toContainText('Вебинары');
  await shot(page, 'templates-desktop');
  await page.setViewportSize(PHONE);
  await expect(page.getByTestId('templates-cards')).toContainText(TITLE);
  await shot(page, 'templates-mobile');

  // A client enrols in the free webinar (paid at once); printing before completion shows the error page.
  const client = await registerClient(request, 'docs', { lastName: 'Кузнецова', firstName: 'Ольга', middleName: 'Петровна' });
  const services = await request.get('/api/service', { headers: client.headers, params: { title: 'Формирующее оценивание', per_page: 15 } });
  const service = ((await services.json()) as { data: { id: number; title: string }[] }).data.find((s) => s.title === FREE_WEBINAR)!;
  const entry = await applyFor(request, client, service.id);
  expect(entry.status).toBe(2);

  await page.setViewportSize(WIDE);
  // Sign the operator out of this browser, then the client in.
  await logout(page);
  await login(page, client.email, client.password);
  await page.goto(`/entry/${entry.id}/print/certificate`);
  await expect(page.getByRole('heading', { name: 'Ошибка!' })).toBeVisible();
  await expect(page.getByText('Если заявка, для которой вы хотите распечатать сертификат оплачена и завершена, то обратитесь к оператору.')).toBeVisible();
  await expect(page.getByText('Сертификат будет доступен после завершения заявки')).toBeVisible();
  await shot(page, 'print-error-desktop');

  // The operator completes the entry.
  const done = await request.post(`/api/entry/${entry.id}/complete`, { headers: op });
  expect(done.ok()).toBeTruthy();

  // The client prints from the entries list: the print page fetches the link and opens the PDF.
  await page.goto('/user/entry');
  const entryRow = page.getByTestId('entry-row').filter({ hasText: entry.number });
  await entryRow.getByRole('button', { name: `Печать документов заявки ${entry.number}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Сертификат' })).toHaveAttribute('href', `/entry/${entry.id}/print/certificate`);
  await shot(page, 'entry-print-menu-desktop');
  // The print page goes on to the signed link (the PDF is read from it, and kept as e2e/output/certificate.pdf).
  const text = await printedPdf(
    page.context(),
    request,
    async () => void (await page.context().newPage()).goto(`/entry/${entry.id}/print/certificate`).catch(() => undefined),
    'certificate',
  );
  expect(text).toContain('СЕРТИФИКАТ');
  expect(text).toContain('Настоящий сертификат выдан Кузнецовой Ольге Петровне');
  expect(text).toContain(`за участие в мероприятии «${FREE_WEBINAR}»`);
  expect(text).toMatch(/№ \d{12} от \d{2}\.\d{2}\.\d{4}/);
});
