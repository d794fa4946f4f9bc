import { chromium } from '@playwright/test';
const [, , who, width, ...paths] = process.argv;
const base = 'http://127.0.0.1:8700';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
await page.goto(base + '/login');
await page.getByLabel(/E-mail|Логин|Почта/i).first().fill(who === 'op' ? 'demo-operator@example.com' : 'demo-user@example.com');
await page.getByLabel('Пароль').fill('demo1234');
await page.getByRole('button', { name: 'Войти' }).click();
await page.waitForURL(/dashboard/);
for (const p of paths) {
  await page.goto(base + p);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(800);
  const name = `/tmp/shots/${who}-${width}-${p.replace(/[^a-z0-9]+/gi, '_')}.png`;
  await page.screenshot({ path: name, fullPage: true });
  console.log(name, await page.evaluate(() => document.documentElement.scrollHeight));
}
await browser.close();
