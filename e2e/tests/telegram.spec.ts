import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { applyFor, DEMO_COURSE_ID, DEMO_OPERATOR, DEMO_PASSWORD, login, registerClient } from '../support/session.ts';
import { notice, noticesGone, PHONE, WIDE } from '../support/ui.ts';

// Issue 33, capability 3 (decision 042): a client links Telegram from the settings with a one-time
// deep link to the centre's bot; the person presses «Start» in Telegram (the Bot API stand-in of this
// worker sends `/start <token>` to the app's webhook); the settings say «подключён»; a new
// notification of the bell reaches the chat. An operator also switches on the daily summary.

async function axeBlocking(page: Page, only?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const result = await (only ? builder.include(only) : builder).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.join(' ')}: ${v.help}`));
}

/** A clean full-page shot: no pop-up left, the page from its top. */
async function settingsShot(page: Page, name: string) {
  await noticesGone(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, name);
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** The person writes to the bot in Telegram. */
async function writeToBot(request: APIRequestContext, botUrl: string, chatId: number, text: string, username: string) {
  const res = await request.post(`${botUrl}/__e2e/write`, { data: { chat_id: chatId, text, username } });
  expect(res.ok()).toBeTruthy();
}

const sentTo = async (request: APIRequestContext, botUrl: string, chatId: number) =>
  (await (await request.get(`${botUrl}/__e2e/sent`, { params: { chat_id: String(chatId) } })).json()) as Array<{ text: string }>;

/** Settings → «Подключить Telegram» → the deep link's token, sent by the person as /start <token>; waits for «подключён». */
async function linkFromSettings(page: Page, request: APIRequestContext, botUrl: string, chatId: number, username: string) {
  await page.goto('/user/settings');
  const block = page.getByRole('region', { name: 'Telegram' });
  await block.getByRole('button', { name: 'Подключить Telegram' }).click();
  const open = block.getByRole('link', { name: 'Открыть бота в Telegram' });
  const href = (await open.getAttribute('href'))!;
  expect(href).toMatch(/^https:\/\/t\.me\/edu_centre_e2e_bot\?start=[A-Za-z0-9_-]{43}$/);
  await expect(block.getByText('Ждём подтверждения из Telegram…')).toBeVisible();
  if (username === 'teleg_anna') {
    await settingsShot(page, 'telegram-settings-waiting-1280');
    // The block while it waits (a pop-up of the bell may come and go meanwhile: the page is checked below).
    expect(await axeBlocking(page, 'section[aria-labelledby="telegram-title"]')).toEqual([]);
  }
  await writeToBot(request, botUrl, chatId, `/start ${new URL(href).searchParams.get('start')}`, username);
  await expect(block.getByText('Telegram подключён')).toBeVisible();
  await expect(block.getByText(`@${username}`, { exact: false })).toBeVisible();
  return block;
}

test('a client links Telegram from the settings and gets a notification there', async ({ page, request, app }) => {
  test.setTimeout(240_000);
  const chatId = 5_550_000_000 + Math.floor(Math.random() * 1_000_000);
  const client = await registerClient(request, 'telegram', { lastName: 'Телеграмова' });
  await login(page, client.email, client.password);
  const block = await linkFromSettings(page, request, app.telegram.url, chatId, 'teleg_anna');
  // The bot confirmed in the chat, in Russian.
  await expect
    .poll(async () => (await sentTo(request, app.telegram.url, chatId)).map((m) => m.text))
    .toContainEqual(expect.stringContaining('Готово! Telegram подключён'));

  // The pop-ups of new notifications (the welcome one) close by themselves; the screen is checked without them.
  await noticesGone(page);
  expect(await axeBlocking(page)).toEqual([]);
  await settingsShot(page, 'telegram-settings-linked-1280');
  await page.setViewportSize(PHONE);
  await expect(block.getByText('Telegram подключён')).toBeVisible();
  await expect.poll(() => noSidewaysScroll(page)).toBe(true);
  await noticesGone(page);
  expect(await axeBlocking(page)).toEqual([]);
  await settingsShot(page, 'telegram-settings-linked-390');
  await page.setViewportSize(WIDE);

  // A new entry: the bell notification, and its copy in Telegram with the link into the cabinet.
  const entry = await applyFor(request, client, DEMO_COURSE_ID);
  await expect
    .poll(async () => (await sentTo(request, app.telegram.url, chatId)).find((m) => m.text.includes(entry.number))?.text, { timeout: 60_000 })
    .toContain(`<a href="${app.url}/user/entry`);
  await page.goto('/user/notifications');
  await expect(page.getByText(entry.number, { exact: false }).first()).toBeVisible();

  // «Отключить»: the block offers to connect again.
  await page.goto('/user/settings');
  await block.getByRole('button', { name: 'Отключить' }).click();
  await notice(page, 'Telegram отключён');
  await expect(block.getByRole('button', { name: 'Подключить Telegram' })).toBeVisible();
  await noticesGone(page);
  expect(await axeBlocking(page)).toEqual([]);
});

test('an operator links Telegram and switches on the daily summary', async ({ page, request, app }) => {
  test.setTimeout(240_000);
  const chatId = 5_560_000_000 + Math.floor(Math.random() * 1_000_000);
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  const block = await linkFromSettings(page, request, app.telegram.url, chatId, 'teleg_operator');
  const toggle = block.getByRole('switch', { name: 'Ежедневная сводка в Telegram' });
  await expect(toggle).not.toBeChecked();
  await toggle.click({ force: true });
  await notice(page, 'Сводка включена');
  await expect(toggle).toBeChecked();
  await noticesGone(page);
  expect(await axeBlocking(page)).toEqual([]);
  await settingsShot(page, 'telegram-settings-operator-1280');
  await page.setViewportSize(PHONE);
  await expect.poll(() => noSidewaysScroll(page)).toBe(true);
  await settingsShot(page, 'telegram-settings-operator-390');
});
