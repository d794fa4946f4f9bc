import { expect, test, type Page } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { DEMO_USER, DEMO_PASSWORD as PASSWORD, login, registerClient } from '../support/session.ts';

// The web app works under the security headers (CSP default-src 'self', frame-ancestors 'none'):
// no CSP violation and no script error on login, the cabinet, the public /pay form and the sandbox
// payment page. Then the password change that asks for the current password.

function watchViolations(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    const text = m.text();
    if (/Content Security Policy|Refused to/i.test(text)) problems.push(text);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

test('login, the cabinet, /pay and the sandbox page work with the security headers on', async ({ page }) => {
  const problems = watchViolations(page);
  const answer = await page.goto('/login');
  const headers = answer!.headers();
  expect(headers['content-security-policy']).toContain("default-src 'self'");
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('same-origin');

  await login(page, DEMO_USER, PASSWORD);
  await expect(page.getByRole('link', { name: /^Мои заявки/ }).first()).toBeVisible();
  await page.goto('/user/entry');
  await expect(page.getByRole('heading', { name: 'Мои заявки' })).toBeVisible();
  await page.goto('/user/service');
  await expect(page.getByRole('heading', { name: 'Услуги' })).toBeVisible();
  await shot(page, 'csp-cabinet-desktop');

  await page.getByRole('button', { name: 'Меню пользователя' }).click();
  await page.getByRole('menuitem', { name: /Выйти/ }).click();
  await page.goto('/pay');
  await page.getByLabel('ФИО').fill('Проверкина Ольга');
  await page.getByLabel('Телефон').pressSequentially('9161234567');
  await page.getByLabel('Сумма').fill('150');
  await page.getByRole('button', { name: 'Оплатить' }).click();
  await expect(page).toHaveURL(/\/sandbox\/yookassa\/pay\//);
  await expect(page.getByText('Тестовый режим', { exact: false })).toBeVisible();
  await shot(page, 'csp-sandbox-desktop');
  await page.getByRole('button', { name: 'Отменить' }).click();
  await expect(page).toHaveURL(/\/pay\?paid=\d+/);

  expect(problems).toEqual([]);
});

test('changing the password asks for the current one (desktop and phone)', async ({ page, request }) => {
  const { email } = await registerClient(request, 'settings', { lastName: 'Паролева', firstName: 'Нина', middleName: 'Олеговна', password: 'Old-pass-1' });
  const problems = watchViolations(page);
  await login(page, email, 'Old-pass-1');
  await page.goto('/user/settings');
  const form = page.getByRole('form', { name: 'Смена пароля' });
  await form.getByLabel('Текущий пароль').fill('wrong-one');
  await form.getByLabel('Новый пароль').fill('New-pass-2');
  await form.getByLabel('Подтверждение пароля').fill('New-pass-2');
  await form.getByRole('button', { name: 'Сохранить' }).click();
  await expect(form.getByText('Неверный текущий пароль')).toBeVisible();
  await shot(page, 'settings-wrong-current-desktop');
  await form.getByLabel('Текущий пароль').fill('Old-pass-1');
  await form.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Пароль успешно обновлён!')).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByLabel('Текущий пароль')).toBeVisible();
  await shot(page, 'settings-mobile');
  expect((await request.post('/login', { data: { email, password: 'New-pass-2' } })).status()).toBe(200);
  expect(problems).toEqual([]);
});
