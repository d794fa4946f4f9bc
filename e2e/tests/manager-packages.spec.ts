import { expect, test } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { DEMO_OPERATOR, DEMO_PASSWORD, login } from '../support/session.ts';

test('an operator creates, edits and deletes a service package', async ({ page }) => {
  const title = `Пакет «Весна» ${Date.now() % 10000}`;
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/service-package');
  await expect(page.getByTestId('packages-table')).toBeVisible();
  await page.getByRole('button', { name: 'Добавить пакет' }).click();
  const modal = page.getByRole('dialog', { name: 'Новый пакет услуг' });
  await modal.getByRole('textbox', { name: /^Название/ }).fill(title);
  const services = modal.getByLabel(/^Услуги/);
  await services.fill('Вебинар');
  await page
    .getByRole('option', { name: /Вебинар/ })
    .first()
    .click();
  await services.fill('конференция');
  await page
    .getByRole('option', { name: /конференция/ })
    .first()
    .click();
  await page.keyboard.press('Escape');
  await modal.getByRole('textbox', { name: /^Цена, ₽/ }).fill('1000');
  await modal.getByLabel('Старая цена, ₽').fill('900');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(modal.getByText('Старая цена должна быть больше цены пакета')).toBeVisible();
  await modal.getByLabel('Старая цена, ₽').fill('1500');
  await modal.getByRole('switch', { name: /Закрепить для профиля/ }).click({ force: true });
  await shot(page, 'manager-package-modal-desktop');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Успешно сохранено!')).toBeVisible();
  const row = page.getByTestId('package-row').filter({ hasText: title });
  await expect(row).toContainText('1 000 ₽');
  await expect(row).toContainText('1 500 ₽');
  await expect(row).toContainText('Закреплён');
  await shot(page, 'manager-packages-desktop');

  await row.getByRole('button', { name: `Изменить пакет ${title}` }).click();
  await page.getByRole('dialog', { name: 'Пакет услуг' }).getByLabel('Баллы').fill('12');
  await page.getByRole('dialog', { name: 'Пакет услуг' }).getByRole('button', { name: 'Сохранить' }).click();
  await expect(row).toContainText('12');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('packages-cards')).toBeVisible();
  await shot(page, 'manager-packages-mobile');
  await page
    .getByTestId('package-card')
    .filter({ hasText: title })
    .getByRole('button', { name: `Удалить пакет ${title}` })
    .click();
  await expect(page.getByText('Вы уверены, что хотите удалить?')).toBeVisible();
  await page.getByRole('dialog', { name: 'Удаление пакета' }).getByRole('button', { name: 'Да', exact: true }).click();
  await expect(page.getByText('Успешно удалено')).toBeVisible();
  await expect(page.getByTestId('package-card').filter({ hasText: title })).toHaveCount(0);
});
