import { expect, test } from '../support/test.ts';
import { downloadedSheet } from '../support/files.ts';
import { shot } from '../support/screens.ts';
import { clientWithEntry, DEMO_OPERATOR, DEMO_PASSWORD, login } from '../support/session.ts';

test("an operator changes an entry's price and pay type, pays, completes, deletes and restores it, and reads its history", async ({ page, request }) => {
  // Demo service 5 (4 900 ₽, remote); a fresh client applies to it through the API.
  const { entry } = await clientWithEntry(request, 'manager-entry', { lastName: 'Заявкина', firstName: 'Мария', middleName: 'Игоревна' });
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/entry');
  await page.getByLabel('Номер').fill(entry.number);
  const row = page.getByTestId('entry-row').filter({ hasText: entry.number });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('link', { name: 'Заявкина Мария Игоревна' })).toHaveAttribute('href', /\/manager\/users\?id=\d+/);
  // The filters live in the address bar: a reload keeps them.
  await expect(page).toHaveURL(new RegExp(`number=${entry.number}`));
  await page.reload();
  await expect(page.getByLabel('Номер')).toHaveValue(entry.number);
  await expect(row).toHaveCount(1);
  // An impossible created date is the field's own message, never a server error; the list stays.
  await page.getByLabel('Дата создания').pressSequentially('31022024');
  await expect(page.getByText('Несуществующая дата')).toBeVisible();
  await expect(row).toHaveCount(1);
  await page.getByLabel('Дата создания').fill('');

  // Excel: exactly the filtered list (this one entry) with a totals row.
  const sheet = await downloadedSheet(page, page.getByRole('button', { name: 'Скачать Excel' }), 'Заявки');
  expect(sheet.rowCount).toBe(3);
  expect(sheet.getRow(2).getCell(2).value).toBe(entry.number);
  expect(sheet.getRow(2).getCell(4).value).toBe('Заявкина Мария Игоревна');
  expect(sheet.getRow(3).getCell(2).value).toBe('Итого');
  expect(sheet.getRow(3).getCell(3).value).toBe('Заявок: 1');
  expect(sheet.getRow(3).getCell(11).value).toBe(4900);

  await row.getByRole('button', { name: `Изменить заявку ${entry.number}` }).click();
  const edit = page.getByTestId('operator-entry-modal');
  await edit.getByLabel('Цена, ₽').fill('3500');
  await edit.getByText('Офис', { exact: true }).click();
  // Certificate numbers are unique: one of this entry's own (12 digits from its number), so a rerun on the same database passes.
  await edit.getByLabel('Номер сертификата').fill(`1234${entry.number.replace('-', '').padStart(8, '0').slice(-8)}`);
  await shot(page, 'manager-entry-edit-desktop');
  await edit.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Тип оплаты успешно изменён!')).toBeVisible();
  await expect(row.getByTestId('entry-price')).toHaveText('3 500 ₽');

  await row.getByRole('button', { name: `Действия с заявкой ${entry.number}` }).click();
  await page.getByRole('menuitem', { name: 'Отметить оплату' }).click();
  const pay = page.getByRole('dialog', { name: 'Отметить заявку оплаченной' });
  await expect(pay).toContainText(`№ ${entry.number}`);
  // The entry's own pay type, set just above, is preselected.
  await expect(pay.getByRole('radio', { name: 'Офис' })).toBeChecked();
  await expect(pay.getByRole('radio', { name: 'Онлайн' })).toHaveCount(0);
  await pay.getByRole('button', { name: 'ДА', exact: true }).click();
  await expect(row.getByTestId('entry-status')).toHaveText('Оплачена');

  await row.getByRole('button', { name: `Действия с заявкой ${entry.number}` }).click();
  await page.getByRole('menuitem', { name: 'Завершить' }).click();
  await expect(page.getByText('Вы уверены, что хотите отметить заявку как завершённую?')).toBeVisible();
  await page.getByRole('dialog', { name: 'Завершение заявки' }).getByRole('button', { name: 'Да' }).click();
  await expect(row.getByTestId('entry-status')).toHaveText('Завершена');
  await shot(page, 'manager-entries-desktop');

  await row.getByRole('button', { name: `Действия с заявкой ${entry.number}` }).click();
  await page.getByRole('menuitem', { name: 'Удалить' }).click();
  await page.getByRole('dialog', { name: 'Удалить заявку?' }).getByRole('button', { name: 'Удалить' }).click();
  await expect(row).toHaveCount(0);
  await page.getByText('Удалённые', { exact: true }).click();
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Действия с заявкой ${entry.number}` }).click();
  await page.getByRole('menuitem', { name: 'Восстановить' }).click();
  await page.getByRole('dialog', { name: 'Восстановить заявку?' }).getByRole('button', { name: 'Восстановить' }).click();
  await expect(page.getByText('Заявка восстановлена')).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByText('Все', { exact: true }).click();
  await expect(row).toHaveCount(1);

  await row.getByRole('button', { name: `История заявки ${entry.number}` }).click();
  const history = page.getByTestId('entry-history-modal');
  await expect(history.getByTestId('history-row').first()).toBeVisible();
  const rows = history.getByTestId('history-row');
  expect(await rows.count()).toBeGreaterThanOrEqual(6);
  await expect(history).toContainText('Смирнова Анна Викторовна');
  await expect(history).toContainText('Цена');
  await expect(history).toContainText('Дата удаления');
  // Codes and times read in Russian, not as stored.
  await expect(history).not.toContainText('deleted_at');
  await expect(history).toContainText(/Статус: Не оплачена → Оплачена|Дата удаления: — → \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/);
  await shot(page, 'manager-entry-history-desktop');
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('entries-cards')).toBeVisible();
  await shot(page, 'manager-entries-mobile');
});
