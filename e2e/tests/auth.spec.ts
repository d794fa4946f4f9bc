import { expect, test } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { DEMO_OPERATOR, DEMO_PASSWORD as PASSWORD, DEMO_USER, login, logout, maskedPhone, newPerson, submitLogin } from '../support/session.ts';

test('a new user registers in the form, lands on the dashboard, logs out and logs in by phone', async ({ page }) => {
  // The form field by field, with what it says between them (the other journeys use fillRegistration).
  const { phone: phoneDigits, email } = newPerson('e2e');

  await page.goto('/register');
  await page.getByLabel('Фамилия').fill('Соколова');
  await page.getByLabel('Имя', { exact: true }).fill('Екатерина');
  await page.getByLabel('Отчество').fill('Андреевна');
  await page.getByLabel('Телефон').pressSequentially(phoneDigits);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Организация').fill('МБОУ СОШ № 12');
  await page.getByLabel('Должность').fill('Учитель математики');
  await page.getByLabel('Пароль', { exact: true }).fill('Qwerty-2026!');
  await expect(page.getByText('Заполните все поля в соответствии с требованиями')).toBeVisible();
  await expect(page.getByText('Минимальная длина: 4 символа')).toBeVisible();
  await page.getByLabel('Подтверждение пароля').fill('Qwerty-2026!');
  await expect(page.getByText('Пароли совпадают')).toBeVisible();
  await shot(page, 'register-filled-desktop');
  await page.getByRole('button', { name: 'Зарегистрироваться' }).click();

  await expect(page).toHaveURL(/\/user\/dashboard$/);
  await expect(page.getByText('Вы успешно зарегистрированы в системе!')).toBeVisible();
  await expect(page.getByText('С чего начать?')).toBeVisible();
  await shot(page, 'dashboard-new-user-desktop');

  await logout(page);
  await login(page, maskedPhone(phoneDigits), 'Qwerty-2026!');
});

test('a wrong password shows the 532 text with its link; an unknown e-mail shows the 531 text', async ({ page }) => {
  await submitLogin(page, DEMO_USER, 'not-the-password');
  const wrong = page.getByText('Неверный пароль. Забыли пароль?');
  await expect(wrong).toBeVisible();
  await expect(page.locator('a[href="/password/reset"]').first()).toBeVisible();
  await shot(page, 'login-wrong-password-desktop');

  await submitLogin(page, 'nobody-here@example.com', 'whatever');
  await expect(page.getByText('Пользователь не найден. Пожалуйста, пройдите регистрацию.')).toBeVisible();
  await expect(page.locator('form a[href="/register"]').first()).toBeVisible();
});

test('a user opening /manager/users lands on /user/dashboard', async ({ page }) => {
  await login(page, DEMO_USER, PASSWORD);
  await page.goto('/manager/users');
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  // A link with a badge says it too («Мои заявки к оплате 800 ₽»): the name starts with the item.
  for (const item of ['Главная', 'Мои заявки', 'Услуги', 'Пакеты услуг', 'Мои публикации', 'Профиль']) {
    await expect(page.getByRole('link', { name: new RegExp(`^${item}(\\s|$)`) }).first()).toBeVisible();
  }
});

test('the operator sees the manager sidebar', async ({ page }) => {
  await login(page, DEMO_OPERATOR, PASSWORD);
  await page.goto('/manager/dashboard');
  await expect(page).toHaveURL(/\/manager\/dashboard$/);
  for (const item of [
    'Статистика',
    'Заявки',
    'Публикации',
    'Пользователи',
    'Платежи',
    'ЮKassa',
    'Цены публикаций',
    'Отзывы',
    'Журнал изменений',
    'Запросы API',
  ]) {
    await expect(page.getByRole('link', { name: item }).first()).toBeVisible();
  }
  // 24 items under 7 headings, developer screens last.
  await expect(page.getByTestId('nav-group')).toHaveText(['Работа', 'Каталог', 'Документы', 'Публикации', 'Деньги', 'Настройки', 'Техническое']);
  await shot(page, 'manager-shell-desktop');
});

test('a protected page without a session goes to /login and comes back after login', async ({ page }) => {
  await page.goto('/user/profile');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Телефон или e-mail').fill(DEMO_USER);
  await page.getByLabel('Пароль', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page).toHaveURL(/\/user\/profile$/);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/user\/dashboard$/);
});

test.describe('narrow screen (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('login, registration and the cabinet read well', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible();
    await shot(page, 'login-narrow');
    await page.goto('/register');
    await expect(page.getByText('Заполните все поля в соответствии с требованиями')).toBeVisible();
    await shot(page, 'register-narrow');
    await login(page, DEMO_USER, PASSWORD);
    await shot(page, 'dashboard-narrow');
  });
});
