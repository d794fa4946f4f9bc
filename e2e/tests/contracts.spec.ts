import { expect, test } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { pdf, png } from '../support/files.ts';
import { clientWithEntry, DEMO_OPERATOR, DEMO_PASSWORD, login, registerClient } from '../support/session.ts';
import { fillContractData, notice } from '../support/ui.ts';

test('a course client fills the wizard and uploads the scan; the operator rejects, the client uploads again, the operator accepts and sets the registration number', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const client = await clientWithEntry(request, 'contract', { lastName: 'Договорова' });

  // The client: the menu item and the profile card follow is_documents_upload_allowed.
  await login(page, client.email, client.password);
  await page.goto('/user/entry');
  await expect(page.getByTestId('contract-data-banner')).toBeVisible();
  await shot(page, 'entries-contract-banner-desktop');
  await page.goto('/user/profile');
  await expect(page.getByTestId('documents-card')).toBeVisible();
  await shot(page, 'profile-documents-card-desktop');
  await page.getByRole('button', { name: 'Меню пользователя' }).click();
  await page.getByRole('menuitem', { name: 'Данные для договора' }).click();
  await expect(page).toHaveURL(/\/user\/contract$/);
  await expect(page.getByRole('heading', { name: 'Данные для договора' })).toBeVisible();
  await shot(page, 'contract-wizard-empty-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('floating-save')).toBeVisible();
  await shot(page, 'contract-wizard-empty-mobile');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();

  // Next without data: the spec's message.
  await page.getByTestId('wizard-next').click();
  await notice(page, 'Заполните все обязательные поля для перехода к договору!');

  // Step 1: personal data, passport, documents; the floating save counts the changes.
  await fillContractData(page, {
    passport: [pdf('паспорт стр 2-3.pdf'), png('паспорт прописка.png')],
    education: [pdf('диплом.pdf')],
    snils: [png('снилс.png')],
  });
  await expect(page.getByTestId('unsaved-count')).toHaveText('10');
  await shot(page, 'contract-wizard-filled-desktop');
  await page.getByTestId('floating-save').click();
  await notice(page, 'Данные сохранены!');
  await notice(page, 'Все обязательные поля заполнены!');
  await expect(page.getByTestId('unsaved-count')).toHaveCount(0);
  await expect(page.getByText('Сохранён, изменить может только оператор')).toBeVisible();
  await expect(page.getByLabel('Серия и номер')).toBeDisabled();
  await expect(page.getByTestId('doc-passport')).toContainText('паспорт прописка.png');

  // Step 2: the consent; the contract step opens only after its upload.
  await page.getByTestId('wizard-next').click();
  await expect(page.getByRole('heading', { name: 'Согласие на обработку персональных данных' })).toBeVisible();
  await page.getByTestId('wizard-next').click();
  await notice(page, 'Заполните все обязательные поля для перехода к договору!');
  await page
    .getByTestId('doc-consent')
    .locator('input[type=file]')
    .setInputFiles([pdf('согласие подписано.pdf')]);
  await expect(page.getByTestId('unsaved-count')).toHaveText('1');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByRole('heading', { name: 'Договор', exact: true })).toBeVisible();

  // Step 3: the signed contract scan.
  const card = page.getByTestId(`client-contract-${client.entry.id}`);
  await expect(card.getByRole('link', { name: 'Распечатать договор' })).toHaveAttribute('href', `/entry/${client.entry.id}/print/contract`);
  await expect(card).toContainText('Скан не загружен');
  await card.locator('input[type=file]').setInputFiles([pdf('договор подписан.pdf')]);
  await notice(page, 'Файл успешно загружен!');
  await expect(card.getByTestId('contract-status')).toHaveText('Ожидает проверки');
  await shot(page, 'contract-wizard-step3-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'contract-wizard-step3-mobile');
  await page.reload();
  await expect(page.getByTestId(`client-contract-${client.entry.id}`)).toBeVisible(); // the stored step opens again
  await page.setViewportSize({ width: 1280, height: 800 });

  // The operator rejects with a comment.
  const operatorContext = await browser.newContext({ baseURL });
  const op = await operatorContext.newPage();
  await login(op, DEMO_OPERATOR, DEMO_PASSWORD);
  await op.goto('/manager/contract');
  await expect(op.getByRole('heading', { name: 'Договоры' })).toBeVisible();
  await op.getByPlaceholder('Поиск по ФИО').fill('Договорова');
  const pending = op.getByTestId('column-review').getByTestId('contract-card').filter({ hasText: client.fio });
  await expect(pending).toHaveCount(1);
  await expect(pending).toContainText('Скан: договор подписан.pdf');
  await expect(op.getByTestId('count-review')).toHaveText('1');
  // The scan opens in a new tab through a short-lived link, with no session header needed.
  const [scanTab] = await Promise.all([op.waitForEvent('popup'), pending.getByTestId('scan-link').click()]);
  await scanTab.waitForURL(/\/api\/file\/link\/[A-Za-z0-9_-]{43}$/);
  const scanResponse = await op.request.get(scanTab.url());
  expect(scanResponse.headers()['content-type']).toBe('application/pdf');
  await scanTab.waitForTimeout(1500);
  await shot(scanTab, 'manager-contract-scan-tab-desktop');
  await scanTab.close();
  await pending.getByRole('button', { name: 'Документы' }).click();
  await expect(op.getByTestId('client-documents')).toContainText('112-233-445 95');
  await expect(op.getByTestId('client-documents')).toContainText('диплом.pdf');
  await shot(op, 'manager-contract-documents-desktop');
  await op.keyboard.press('Escape');
  await expect(op.getByRole('dialog')).toHaveCount(0);
  await shot(op, 'manager-contract-board-desktop');
  await pending.getByRole('button', { name: 'Отклонить' }).click();
  await expect(op.getByText('Оставьте поле пустым, если комментариев нет')).toBeVisible();
  await op.getByLabel('Комментарий').fill('Нет подписи на последней странице');
  await shot(op, 'manager-contract-reject-desktop');
  await op.getByRole('dialog').getByRole('button', { name: 'Отклонить' }).click();
  const rejected = op.getByTestId('column-3').getByTestId('contract-card').filter({ hasText: client.fio });
  await expect(rejected).toContainText('Комментарий: Нет подписи на последней странице');
  await expect(op.getByTestId('count-review')).toHaveText('0');

  // The client sees the comment and uploads again.
  await page.reload();
  const again = page.getByTestId(`client-contract-${client.entry.id}`);
  await expect(again.getByTestId('reject-comment')).toContainText('Нет подписи на последней странице');
  await expect(again.getByTestId('contract-status')).toHaveText('Отклонён');
  await shot(page, 'contract-wizard-rejected-desktop');
  await again.locator('input[type=file]').setInputFiles([png('договор с подписью.png')]);
  await notice(page, 'Файл успешно загружен!');
  await expect(again.getByTestId('contract-status')).toHaveText('Ожидает проверки');

  // The operator accepts and sets the registration number after the confirmation.
  await op.reload();
  await op.getByPlaceholder('Поиск по ФИО').fill('Договорова');
  const second = op.getByTestId('column-review').getByTestId('contract-card').filter({ hasText: client.fio });
  await expect(second).toContainText('договор с подписью.png');
  // Accepting asks first, and can be taken back for a few seconds: nothing is sent then.
  await second.getByRole('button', { name: 'Принять' }).click();
  const confirmAccept = op.getByRole('dialog', { name: 'Принять договор' });
  await expect(confirmAccept).toContainText(client.fio);
  await confirmAccept.getByRole('button', { name: 'Принять' }).click();
  await op.getByTestId('undo-notice').getByRole('button', { name: 'Отменить' }).click();
  await expect(op.getByText('Принятие договора отменено')).toBeVisible();
  await op.waitForTimeout(7000);
  await op.reload();
  await expect(op.getByTestId('column-review').getByTestId('contract-card').filter({ hasText: client.fio })).toHaveCount(1);
  await second.getByRole('button', { name: 'Принять' }).click();
  await confirmAccept.getByRole('button', { name: 'Принять' }).click();
  await expect(op.getByTestId('undo-notice')).toBeVisible();
  const approved = op.getByTestId('column-2').getByTestId('contract-card').filter({ hasText: client.fio });
  await expect(approved).toHaveCount(1);
  await approved.getByRole('button', { name: 'Установить рег номер' }).click();
  await expect(op.getByText('Установить регистрационный номер и отправить договор в архив?')).toBeVisible();
  await op.getByRole('button', { name: 'ДА', exact: true }).click();
  await expect(op.getByText(/Регистрационный номер установлен: \d{4}-\d{4}/)).toBeVisible();
  await expect(approved).toHaveCount(0); // archived
  await op.getByLabel('Показать архив').check();
  await expect(op.getByTestId('column-2').getByTestId('contract-card').filter({ hasText: client.fio })).toContainText(/Рег\. номер \d{4}-\d{4}/);
  // The search and the archive switch live in the address bar: a reload keeps them.
  await expect(op).toHaveURL(/fio=.*archive=1|archive=1.*fio=/);
  await op.reload();
  await expect(op.getByPlaceholder('Поиск по ФИО')).toHaveValue('Договорова');
  await expect(op.getByLabel('Показать архив')).toBeChecked();
  await expect(op.getByTestId('column-2').getByTestId('contract-card').filter({ hasText: client.fio })).toContainText(/Рег\. номер \d{4}-\d{4}/);
  await shot(op, 'manager-contract-archive-desktop');
  await op.setViewportSize({ width: 390, height: 844 });
  // A fresh load at phone width (the address keeps the search and the archive), not a shot mid-resize.
  await op.reload();
  // One column at a time on a phone, chosen by its tab (the one to check comes first).
  await op
    .getByTestId('column-tabs')
    .getByText(/^Одобренные/)
    .click();
  await expect(op.getByTestId('column-2').getByTestId('contract-card').filter({ hasText: client.fio })).toBeVisible();
  await shot(op, 'manager-contract-board-mobile');

  // The export answers an .xlsx.
  await op.setViewportSize({ width: 1280, height: 800 });
  const download = op.waitForEvent('download');
  await op.getByRole('button', { name: 'Выгрузить в Excel' }).click();
  expect((await download).suggestedFilename()).toMatch(/^Договоры .*\.xlsx$/);
  await operatorContext.close();

  // The client: approved, and the wizard is complete.
  await page.reload();
  await expect(page.getByTestId(`client-contract-${client.entry.id}`).getByTestId('contract-status')).toHaveText('Одобрен');
  await expect(page.getByTestId('contracts-done')).toBeVisible();
  await shot(page, 'contract-wizard-approved-desktop');
  await page.goto('/user/entry');
  await expect(page.getByRole('heading', { name: 'Мои заявки' })).toBeVisible();
  await expect(page.getByTestId('contract-data-banner')).toHaveCount(0);
});

test('a client without a course sees the notice instead of the wizard, and no menu item', async ({ page, request }) => {
  const client = await registerClient(request, 'no-course', { lastName: 'Безкурсова', firstName: 'Ольга', middleName: 'Игоревна' });
  await login(page, client.email, client.password);
  await page.getByRole('button', { name: 'Меню пользователя' }).click();
  await expect(page.getByRole('menuitem', { name: 'Данные для договора' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.goto('/user/profile');
  await expect(page.getByRole('heading', { name: 'Профиль' })).toBeVisible();
  await expect(page.getByTestId('documents-card')).toHaveCount(0);
  await page.goto('/user/contract');
  await expect(page.getByTestId('documents-not-allowed')).toHaveText('Загрузка документов доступна только записавшимся на курсы');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('documents-not-allowed')).toBeVisible();
  await shot(page, 'contract-not-allowed-mobile');
});
