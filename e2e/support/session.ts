import { expect, type Page } from '@playwright/test';

export const DEMO_USER = 'demo-user@example.com';
export const DEMO_OPERATOR = 'demo-operator@example.com';
export const DEMO_PASSWORD = 'demo1234';

/** Signs in through the login form and waits for the dashboard. */
export async function login(page: Page, loginValue: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Телефон или e-mail').fill(loginValue);
  await page.getByLabel('Пароль', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page).toHaveURL(/\/user\/dashboard$/);
}
