import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Locator, type Page } from '../support/test.ts';
import { openScreen, SCREENS, WIDTHS, type Who } from '../support/app-screens.ts';
import { outputDir } from '../support/screens.ts';
import { clientWithEntry, DEMO_OPERATOR, DEMO_PASSWORD, DEMO_USER, login } from '../support/session.ts';

// Every screen of each role at 1280 and 390 px, and the main windows (an entry's edit form, the
// mark-paid window, the refund form, the new-publication form, the import of people), checked by axe-core against the
// WCAG 2.1 A and AA rules. A serious or critical finding fails the journey with its rule, element
// and summary; every finding (all impacts) is written to e2e/output/axe-<who>-<width>.json for the
// figures in docs/decisions/035-accessibility.md.

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);

interface Finding {
  where: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
  summary: string;
}

/** The findings of axe on the page as it is now, all impacts, one per rule and element. */
async function findings(page: Page, where: string, include?: string): Promise<Finding[]> {
  let builder = new AxeBuilder({ page }).withTags(TAGS);
  if (include) builder = builder.include(include);
  const result = await builder.analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((node) => ({
      where,
      rule: v.id,
      impact: node.impact ?? v.impact ?? 'unknown',
      help: v.help,
      targets: node.target.map(String),
      summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
    })),
  );
}

/** Keeps every finding for the record and fails listing the serious and critical ones. */
function judge(file: string, found: Finding[]): void {
  fs.mkdirSync(outputDir, { recursive: true });
  fs.writeFileSync(path.join(outputDir, file), JSON.stringify(found, null, 2));
  const blocking = found.filter((f) => BLOCKING.has(f.impact));
  const listed = blocking.map((f) => `${f.where}: [${f.impact}] ${f.rule} at ${f.targets.join(' ')} — ${f.help}. ${f.summary}`);
  expect(listed, listed.join('\n')).toEqual([]);
}

const ACCOUNTS: Record<Exclude<Who, 'guest'>, string> = { user: DEMO_USER, operator: DEMO_OPERATOR };

for (const who of ['guest', 'user', 'operator'] as const) {
  for (const size of WIDTHS) {
    test(`axe finds nothing serious on ${who} screens at ${size.width} px`, async ({ page }) => {
      test.setTimeout(480_000);
      await page.setViewportSize(size);
      if (who !== 'guest') await login(page, ACCOUNTS[who], DEMO_PASSWORD);
      const found: Finding[] = [];
      for (const screen of SCREENS.filter((s) => s.who === who)) {
        await openScreen(page, screen);
        found.push(...(await findings(page, `${screen.path} at ${size.width} px`)));
      }
      judge(`axe-${who}-${size.width}.json`, found);
    });
  }
}

/** A client's entry paid online through the sandbox: the operator can refund it; answers the payment's id. */
async function paidOnline(request: APIRequestContext): Promise<string> {
  const { headers, entry } = await clientWithEntry(request, 'axe', { lastName: 'Доступнова' }, { serviceId: 4 });
  const started = await request.post(`/api/entry/${entry.id}/pay`, { headers });
  expect(started.ok()).toBeTruthy();
  const { id, confirmation } = (await started.json()) as { id: string; confirmation: { confirmation_url: string } };
  const confirmed = await request.post(confirmation.confirmation_url, { form: { action: 'pay' }, maxRedirects: 0 });
  expect(confirmed.status()).toBe(303);
  await expect(async () => {
    const list = (await (await request.get(`/api/payment?uuid=${id}`, { headers })).json()) as { data: unknown[] };
    expect(list.data).toHaveLength(1);
  }).toPass({ timeout: 120_000, intervals: [300, 1000] });
  return id;
}

/** Checks the open window (with the page behind it) and closes it by Escape. */
async function checkWindow(page: Page, window: Locator, where: string, found: Finding[]): Promise<void> {
  await expect(window).toBeVisible();
  // Mantine's opening transition is over.
  await expect(window).toHaveCSS('opacity', '1');
  found.push(...(await findings(page, where, '[role="dialog"]')));
  await page.keyboard.press('Escape');
  await expect(window).toHaveCount(0);
}

for (const size of WIDTHS) {
  test(`axe finds nothing serious in the main windows at ${size.width} px`, async ({ page, request }) => {
    await page.setViewportSize(size);
    const payment = await paidOnline(request);
    const { entry } = await clientWithEntry(request, 'axe-entry', { lastName: 'Окнова' });
    const found: Finding[] = [];

    await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
    await page.goto(`/manager/entry?number=${entry.number}`);
    // A table row on a wide screen, a card on a phone.
    const row = page.locator('[data-testid="entry-row"], [data-testid="entry-card"]').filter({ hasText: entry.number });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: `Изменить заявку ${entry.number}` }).click();
    await checkWindow(page, page.getByTestId('operator-entry-modal').getByRole('dialog'), `entry edit window at ${size.width} px`, found);

    await row.getByRole('button', { name: `Действия с заявкой ${entry.number}` }).click();
    await page.getByRole('menuitem', { name: 'Отметить оплату' }).click();
    await checkWindow(page, page.getByRole('dialog', { name: 'Отметить заявку оплаченной' }), `mark-paid window at ${size.width} px`, found);

    await page.goto(`/manager/payments?uuid=${payment}`);
    await page.getByTestId('refund-button').click();
    await checkWindow(page, page.getByRole('dialog', { name: 'Возврат платежа' }), `refund window at ${size.width} px`, found);

    await page.goto('/user/publication');
    await page.getByRole('button', { name: 'Добавить публикацию' }).click();
    await checkWindow(page, page.getByRole('dialog', { name: 'Новая публикация' }), `new publication window at ${size.width} px`, found);

    await page.goto('/manager/users');
    await page.getByRole('button', { name: 'Импорт', exact: true }).click();
    await checkWindow(page, page.getByRole('dialog', { name: 'Импорт из старого кабинета' }), `user import window at ${size.width} px`, found);

    judge(`axe-windows-${size.width}.json`, found);
  });
}
