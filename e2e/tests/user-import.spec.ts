import { expect, test } from '../support/test.ts';
import { downloadedSheet } from '../support/files.ts';
import { shot } from '../support/screens.ts';
import { DEMO_OPERATOR, DEMO_PASSWORD, login, uniqueTag } from '../support/session.ts';

// Going live (issue 32): the operator brings the old cabinet's people in from a file on
// /manager/users: a dry run first (what each row would do), then the import with its report; an
// imported teacher signs in with the password she had in the old cabinet.

// PHP's own password_verify example: the old cabinet keeps hashes like this one.
const PHP_HASH = '$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a';
const OLD_PASSWORD = 'rasmuslerdorf';

test('the operator previews and imports a CSV of the old cabinet; an imported teacher signs in with her old password', async ({ page }) => {
  const tag = uniqueTag();
  const email = `import.${tag}@example.com`;
  const csv = [
    'Фамилия;Имя;Отчество;E-mail;Телефон;Организация;Должность;Регион;Профили;Дата регистрации;Хеш пароля',
    `Импортова;Вера;Павловна;${email};8 921 ${tag.slice(0, 3)}-${tag.slice(3, 5)}-${tag.slice(5, 7)};Школа № 12;Учитель;Санкт-Петербург;Математика;12.09.2017;${PHP_HASH}`,
    `Второва;Нина;;second.${tag}@example.com;;Гимназия № 3;Методист;;;;`,
    `Безпочтова;Анна;;не-почта;;;;;;;`,
  ].join('\n');

  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/users');
  await page.getByRole('button', { name: 'Импорт', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Импорт из старого кабинета' });
  await dialog.getByRole('button', { name: 'Проверить файл' }).click();
  await expect(dialog.getByText('Выберите файл')).toBeVisible();
  await dialog.locator('input[type=file]').setInputFiles({ name: 'старый кабинет.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Проверить файл' }).click();

  const summary = dialog.getByTestId('import-summary');
  await expect(summary).toContainText('Пробный прогон: в базе ничего не изменено');
  await expect(summary).toContainText('Новых: 2');
  await expect(summary).toContainText('Отклонено: 1');
  await expect(dialog.getByTestId('import-rows').getByRole('row').filter({ hasText: 'Безпочтова' })).toContainText('Неверный e-mail «не-почта»');
  await shot(page, 'user-import-preview-1280');

  // Nothing is there yet.
  await page.goto(`/manager/users?email=${encodeURIComponent(email)}`);
  await expect(page.getByText('Импортова')).toHaveCount(0);
  await page.getByRole('button', { name: 'Импорт', exact: true }).click();
  await dialog.locator('input[type=file]').setInputFiles({ name: 'старый кабинет.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Проверить файл' }).click();
  await dialog.getByRole('button', { name: 'Импортировать' }).click();
  await expect(summary).toContainText('Импорт завершён');
  await expect(summary).toContainText('Новых: 2');
  await expect(dialog.getByText('Импортировано строк: 3 из 3')).toBeVisible();

  const sheet = await downloadedSheet(page, dialog.getByRole('button', { name: 'Скачать отчёт' }), 'Импорт');
  expect(sheet.getRow(2).getCell(2).value).toBe('Импортова Вера Павловна');
  expect(sheet.getRow(2).getCell(4).value).toBe('Новый');
  expect(sheet.getRow(4).getCell(4).value).toBe('Отклонён');
  await dialog.getByRole('button', { name: 'Готово' }).click();

  // The list (filtered by her e-mail) shows her at once.
  await expect(page.getByTestId('user-row').filter({ hasText: 'Импортова Вера Павловна' })).toHaveCount(1);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Импорт', exact: true }).click();
  await expect(dialog.getByRole('button', { name: 'Проверить файл' })).toBeVisible();
  // The window has faded in.
  await expect(dialog).toHaveCSS('opacity', '1');
  await shot(page, 'user-import-390');
  await dialog.getByRole('button', { name: 'Закрыть окно' }).click();

  // She signs in with the old cabinet's password.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await login(page, email, OLD_PASSWORD);
  await expect(page.getByRole('button', { name: /Меню пользователя/ })).toBeVisible();
});
