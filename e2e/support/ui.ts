import { expect, type Locator, type Page } from '@playwright/test';

// Small moves on the app's screens that several journeys make.

export const WIDE = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Chooses an option of the select labelled `label` inside `scope`. */
export async function pick(page: Page, scope: Locator, label: string, option: string | RegExp): Promise<void> {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

/** A notice (or any text) with exactly this wording is on screen. */
export async function notice(page: Page, text: string): Promise<void> {
  await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
}

/** Waits until the ordinary notices (5000 ms) are gone, for a clean screenshot. */
export async function noticesGone(page: Page): Promise<void> {
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 15_000 });
}

/**
 * A sum as the app prints it. Prices are printed by Intl (ru-RU), whose group separator is a no-break
 * space: a number gives its printed form with «₽»; a text is taken as written, any space matching.
 */
export function rub(sum: number | string): RegExp {
  const text = typeof sum === 'number' ? `${new Intl.NumberFormat('ru-RU').format(sum)} ₽` : sum;
  return new RegExp(text.replace(/\s/g, '\\s'));
}

type Files = Parameters<Locator['setInputFiles']>[0];

/** Step 1 of the contract wizard: the personal data, the passport and the documents' scans (not saved yet). */
export async function fillContractData(page: Page, scans: { passport: Files; education: Files; snils: Files }): Promise<void> {
  await page.getByLabel('Адрес регистрации').fill('г. Санкт-Петербург, ул. Садовая, д. 5, кв. 12');
  await page.getByLabel('Дата рождения').pressSequentially('12041985');
  await page.getByRole('textbox', { name: 'СНИЛС' }).pressSequentially('11223344595');
  await page.getByLabel('Серия и номер').pressSequentially('4010123456');
  await page.getByLabel('Дата выдачи').pressSequentially('01062015');
  await page.getByLabel('Кем выдан').fill('ТП № 1 УФМС России по г. Санкт-Петербургу');
  await page.getByTestId('doc-passport').locator('input[type=file]').setInputFiles(scans.passport);
  await page.getByTestId('doc-education').locator('input[type=file]').setInputFiles(scans.education);
  await page.getByTestId('doc-snils').locator('input[type=file]').setInputFiles(scans.snils);
}
