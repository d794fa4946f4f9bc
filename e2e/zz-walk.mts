// TEMPORARY walker (not committed)
import fs from 'node:fs';
import { chromium } from '@playwright/test';
const OUT = process.env.OUT ?? '/tmp/ru-walk2';
const base = 'http://127.0.0.1:8221';
const manager = (process.env.MROUTES ?? 'dashboard entry payments yookassa contract users logs api-requests service-types profiles regions leadings icons service service-package events mailing macroses templates publication-releases publication-prices publication-categories reviews publication').split(' ').filter(Boolean);
const user = (process.env.UROUTES ?? 'dashboard entry service service-package profile contract notifications settings publication').split(' ').filter(Boolean);
const widths = (process.env.WIDTHS ?? '1280 390').split(' ').map(Number);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
async function run(email: string, prefix: string, routes: string[]) {
  const ctx = await browser.newContext({ locale: 'ru-RU', timezoneId: 'Europe/Moscow', baseURL: base });
  const page = await ctx.newPage();
  await page.goto('/login');
  await page.getByLabel('Телефон или e-mail').fill(email);
  await page.getByLabel('Пароль', { exact: true }).fill('demo1234');
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.waitForURL(/dashboard/);
  for (const w of widths) {
    await page.setViewportSize({ width: w, height: w === 390 ? 844 : 800 });
    for (const r of routes) {
      await page.goto(`/${prefix}/${r}`);
      await page.waitForFunction(() => !document.querySelector('.mantine-Loader-root, .mantine-Skeleton-root') && document.body.innerText.length > 50, null, { timeout: 20000 }).catch(() => console.log('timeout', r));
      await page.waitForTimeout(700);
      const text = await page.evaluate(() => document.body.innerText);
      fs.writeFileSync(`${OUT}/${prefix[0]}-${r}-${w}.txt`, text);
      await page.screenshot({ path: `${OUT}/${prefix[0]}-${r}-${w}.png`, fullPage: true });
    }
  }
  await ctx.close();
}
if (process.env.SKIP_M !== '1') await run('demo-operator@example.com', 'manager', manager);
if (process.env.SKIP_U !== '1') await run('demo-user@example.com', 'user', user);
await browser.close();
