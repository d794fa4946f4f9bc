import { expect, test } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { DEMO_OPERATOR, DEMO_PASSWORD, login, registerClient, uniqueTag } from '../support/session.ts';

// The operator's dashboard with the seeded year, and the users screen: find a user by name, edit
// them, log in as them and come back (issue 10, part A).

test('the dashboard shows the seeded months: four cards with growth, income and entries charts', async ({ page }) => {
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/dashboard');
  await expect(page.getByRole('heading', { name: 'Статистика' })).toBeVisible({ timeout: 30_000 });
  for (const name of ['entry', 'user', 'payment', 'publication']) {
    await expect(page.getByTestId(`stat-${name}`).getByTestId('stat-value')).toBeVisible();
  }
  await expect(page.getByTestId('stat-payment').getByTestId('stat-value')).toHaveText(/тыс\.$/);
  // The seeded year: twelve bars, most of them above zero, and the income line.
  await expect(page.getByText('Доход по месяцам')).toBeVisible();
  const bars = page.locator('.recharts-bar-rectangle');
  await expect(bars.first()).toBeVisible();
  expect(await bars.count()).toBeGreaterThanOrEqual(11);
  await expect(page.locator('.recharts-line-curve').first()).toBeVisible();
  await shot(page, 'manager-dashboard-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('stat-entry')).toBeVisible();
  await shot(page, 'manager-dashboard-390');
});

test('the operator finds a user by name, edits them, logs in as them and comes back', async ({ page, request }) => {
  const client = await registerClient(request, 'zhuravleva', { lastName: 'Журавлёва', firstName: 'Софья', middleName: `Тестовна${uniqueTag()}` });

  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/users');
  await expect(page.getByRole('heading', { name: 'Пользователи' })).toBeVisible({ timeout: 30_000 });
  const table = page.getByTestId('users-table');
  await expect(table).toBeVisible();
  await shot(page, 'manager-users-1280');

  // Find by fio; the filter goes to the URL.
  await page.getByLabel('ФИО').fill(`Журавлёва ${client.middleName}`);
  const row = page.getByTestId('user-row');
  await expect(row).toHaveCount(1);
  await expect(page).toHaveURL(/fio=/);
  await expect(row).toContainText(client.email);
  await expect(row).toContainText('Не заполнены');

  // Edit: organization and a work profile; the card shows the entry figures.
  await row.getByRole('button', { name: /^Редактировать/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('user-card-counts')).toContainText('Заявок');
  await expect(dialog.getByLabel('E-mail')).toHaveValue(client.email);
  await dialog.getByLabel('Организация').fill('Лицей № 239');
  await dialog.getByRole('combobox', { name: 'Профили' }).click();
  await page.getByRole('option', { name: 'Начальное общее образование' }).click();
  await dialog.getByLabel('Заметка менеджера').click();
  await shot(page, 'manager-user-modal-1280');
  await dialog.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Успешно сохранено!')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Лицей № 239');
  await expect(row).toContainText('Начальное общее образование');

  // Log in as the user: the cabinet shows whose it is, with the way back.
  await row.getByRole('button', { name: /^Войти как/ }).click();
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  const banner = page.getByTestId('login-as-banner');
  await expect(banner).toContainText(`Вы вошли как Журавлёва Софья ${client.middleName}`);
  await shot(page, 'login-as-banner-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(banner).toBeVisible();
  await shot(page, 'login-as-banner-390');
  await banner.getByRole('button', { name: 'Вернуться к оператору' }).click();
  await expect(page).toHaveURL(/\/manager\/users$/);
  await expect(page.getByTestId('login-as-banner')).toHaveCount(0);

  // Narrow screens get cards; the filter from the URL still applies.
  await page.goto(`/manager/users?fio=${encodeURIComponent(client.middleName)}`);
  await expect(page.getByTestId('user-card')).toHaveCount(1);
  await shot(page, 'manager-users-390');
  await page.setViewportSize({ width: 1280, height: 800 });
});
