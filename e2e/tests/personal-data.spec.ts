import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import PizZip from 'pizzip';
import { expect, test, type Page } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { DEMO_OPERATOR, DEMO_PASSWORD, login, registerClient, submitLogin, uniqueTag } from '../support/session.ts';
import { notice, noticesGone, PHONE, WIDE } from '../support/ui.ts';
import { PersonalDataMessages } from '@edu/domain/personal-data/personal-data';

// Issue 33, capability 4 (decision 041): «Мои данные» in the settings: the client asks for an archive
// of everything the centre holds about them, watches it being prepared and downloads the zip; the
// operator prepares the same archive for a client and erases a client's personal data on request.

async function axeBlocking(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.join(' ')}: ${v.help}`));
}

/** After a resize the page lays itself out again (media queries, the menu): waits until it fits. */
const noSidewaysScroll = (page: Page) => expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

test('a client asks for «Мои данные» and downloads the archive: summary, workbook, and a link that expires', async ({ page, request }) => {
  const client = await registerClient(request, 'mydata', { lastName: 'Архивова', firstName: 'Анна', middleName: `Тестовна${uniqueTag()}` });
  await login(page, client.email, client.password);
  await page.goto('/user/settings');
  const panel = page.getByRole('region', { name: 'Мои данные' });
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(panel).toContainText('сертификаты с кодами проверки');

  await panel.getByRole('button', { name: 'Запросить архив' }).click();
  await notice(page, PersonalDataMessages.requested);
  // The durable job prepares it; the panel asks again until the link is there.
  const link = panel.getByRole('link', { name: /Скачать архив/ });
  await expect(link).toBeVisible({ timeout: 120_000 });
  await expect(panel).toContainText('ссылка действует до');
  await expect(panel.getByText('Готов', { exact: true })).toBeVisible();
  await noticesGone(page);
  expect(await axeBlocking(page)).toEqual([]);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'personal-data-client-1280');

  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toMatch(/\.zip$/);
  const zip = new PizZip(fs.readFileSync(await download.path()));
  expect(Object.keys(zip.files)).toEqual(expect.arrayContaining(['Мои данные.html', 'Мои данные.xlsx']));
  const html = zip.file('Мои данные.html')!.asText();
  expect(html).toContain(`Архивова Анна ${client.middleName}`);
  expect(html).toContain('<h2>Согласия</h2>');
  expect(html).toContain(client.email);

  // The link itself is served with the user-file headers.
  const href = (await link.getAttribute('href'))!;
  const served = await request.get(href);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-security-policy']).toBe("default-src 'none'; sandbox");
  expect(served.headers()['content-disposition']).toMatch(/^attachment;/);

  await page.setViewportSize(PHONE);
  await expect(link).toBeVisible();
  await noSidewaysScroll(page);
  expect(await axeBlocking(page)).toEqual([]);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'personal-data-client-390');
  await page.setViewportSize(WIDE);
});

test('the operator prepares a client’s archive on request, then erases the client’s personal data; money records stay', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const tag = uniqueTag();
  const client = await registerClient(request, 'erase', { lastName: 'Стёркина', firstName: 'Елена', middleName: `Тестовна${tag}` });

  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto(`/manager/users?email=${encodeURIComponent(client.email)}`);
  const row = page.getByTestId('user-row');
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await row.getByRole('button', { name: /^Редактировать/ }).click();
  const card = page.getByRole('dialog');
  const block = card.getByTestId('client-personal-data');
  await expect(block).toContainText('Персональные данные (152-ФЗ)');

  await block.getByRole('button', { name: 'Подготовить архив данных' }).click();
  await notice(page, PersonalDataMessages.requested);
  await expect(block.getByRole('link', { name: /Скачать архив/ })).toBeVisible({ timeout: 120_000 });
  await expect(block).toContainText('оператором по вашему заявлению');

  // Erasure: the reason is required.
  await block.getByRole('button', { name: 'Удалить данные клиента' }).click();
  const confirm = page.getByRole('dialog', { name: 'Удалить данные клиента' });
  await expect(confirm).toContainText('останутся для бухгалтерского учёта');
  await confirm.getByRole('button', { name: 'Удалить данные' }).click();
  await expect(confirm.getByText('Укажите основание удаления')).toBeVisible();
  await confirm.getByLabel('Основание').fill(`Заявление клиента № ${tag} от 29.11.2026`);
  await expect(confirm).toHaveCSS('opacity', '1');
  await noticesGone(page);
  expect(await axeBlocking(page)).toEqual([]);
  await shot(page, 'personal-data-erase-confirm-1280');
  await confirm.getByRole('button', { name: 'Удалить данные' }).click();
  await notice(page, PersonalDataMessages.erased);
  await expect(confirm).toBeHidden();
  await expect(block.getByText('Данные клиента удалены')).toBeVisible();
  await expect(card.getByLabel('Фамилия')).toHaveValue('Удалённый пользователь');
  // The erased card is read-only: no field to type in, no «Сохранить» (the server would refuse).
  await expect(card.getByText(PersonalDataMessages.alreadyErased)).toBeVisible();
  await expect(card.getByLabel('Фамилия')).toBeDisabled();
  await expect(card.getByLabel('Новый пароль')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Сохранить' })).toHaveCount(0);
  await expect(card.getByText('Закрыть', { exact: true })).toBeVisible();
  await noticesGone(page);
  expect(await axeBlocking(page)).toEqual([]);
  await shot(page, 'personal-data-erased-card-1280');

  await page.setViewportSize(PHONE);
  await expect(block.getByText('Данные клиента удалены')).toBeVisible();
  await block.scrollIntoViewIfNeeded();
  await noSidewaysScroll(page);
  await shot(page, 'personal-data-erased-card-390');
  await page.setViewportSize(WIDE);

  // The change log names the operator and the reason.
  await page.goto('/manager/logs');
  await expect(page.getByText(`Заявление клиента № ${tag} от 29.11.2026`).first()).toBeVisible({ timeout: 30_000 });

  // The client can no longer sign in with the old e-mail and password.
  const other = await browser.newContext({ baseURL });
  const p2 = await other.newPage();
  await p2.goto('/login');
  await submitLogin(p2, client.email, client.password);
  await expect(p2.getByRole('button', { name: /Меню пользователя/ })).toHaveCount(0);
  await expect(p2).toHaveURL(/\/login/);
  await other.close();
});
