// Print timing from the click to the file (issue 30), with the shipped templates.
//   npx tsx bench/src/print-clicks.ts [--port 8297] [--label run]
// It starts the server as `npm start` does (tsx server/src/main.ts on a fresh embedded database with
// the demo seed and the shipped templates, the warm LibreOffice converters when LibreOffice is
// installed) and opens the cabinet in Chromium as the demo operator. A print is what a click on a
// print menu item does: it opens the print tab `/entry/{id}/print/{kind}`; the time runs from opening
// the tab until the document's last byte has arrived (the PDF shown in the tab, or the Word file
// downloaded). For each kind of document the demo entries offer, three prints:
//   first   the first document of its kind since the server started (converters started, nothing cached);
//   warm    the same kind for another entry (a different document: rendered, not cached);
//   cached  the first entry's document again (the stored file).
// Prints a table (ms) and writes JSON to bench/results/print-clicks-<label>-*.json.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Page } from '@playwright/test';
import { PRINT_KINDS, type PrintKind } from '@edu/domain/documents/print';
import { parseArgs } from './lib/args.ts';
import { printTable, writeResult } from './lib/results.ts';
import { waitFor } from './lib/wait-for.ts';

const args = parseArgs();
const port = args.number('port', 8297);
const label = args.string('label', 'run');
const base = `http://127.0.0.1:${port}`;
const OPERATOR = 'demo-operator@example.com';
const PASSWORD = 'demo1234';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edu-print-clicks-'));
const server: ChildProcess = spawn('npx', ['tsx', 'server/src/main.ts'], {
  env: { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO_PASSWORD: PASSWORD, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
  // Its own process group: the end of the run stops npx and the server under it.
  detached: true,
});

/**
 * Opens the print tab and waits for the document's last byte (the PDF the tab shows or the file it
 * downloads); null when the print is refused (a contract without the client's passport data).
 */
async function clickToFile(page: Page, entryId: number, kind: PrintKind): Promise<{ ms: number; asked: number; bytes: number } | null> {
  const started = performance.now();
  const printed = page.waitForResponse((r) => r.url().includes(`/api/entry/${entryId}/print/${kind}`), { timeout: 120_000 });
  const file = page.waitForResponse((r) => r.url().includes('/api/file/') && r.request().method() === 'GET', { timeout: 120_000 });
  const download = page.waitForEvent('download', { timeout: 120_000 });
  file.catch(() => null);
  download.catch(() => null);
  await page.goto(`${base}/entry/${entryId}/print/${kind}`, { waitUntil: 'commit' });
  const printAnswer = await printed;
  if (printAnswer.status() !== 200) return null;
  // When the tab (the app started in it) asked for the print: what the tab itself costs.
  const asked = Math.round(printAnswer.request().timing().startTime - started - performance.timeOrigin);
  const answer = await file;
  if (answer.status() !== 200) throw new Error(`${kind} of entry ${entryId}: the file answered ${answer.status()}`);
  // The last byte: the response finished (a PDF shown in the tab) or the download saved (a Word file).
  await Promise.race([answer.finished(), download.then((d) => d.path())]);
  const bytes = Number(answer.headers()['content-length'] ?? 0);
  return { ms: Math.round(performance.now() - started), asked, bytes };
}

try {
  await waitFor(`${base}/api/health`, 180_000);
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: OPERATOR, password: PASSWORD }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const list = await fetch(`${base}/api/entry?per_page=100`, { headers: { authorization: `Bearer ${access_token}` } });
  const entries = ((await list.json()) as { data: Array<{ id: number; printable: PrintKind[] }> }).data;

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  if (process.env.DEBUG_PRINT) page.on('response', (r) => console.log(r.status(), r.url()));
  await page.goto(`${base}/login`);
  await page
    .getByLabel(/E-mail/i)
    .first()
    .fill(OPERATOR);
  await page.getByLabel('Пароль').fill(PASSWORD);
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.waitForURL(/dashboard/);

  const rows: Array<[string, number, number, number, number, number]> = [];
  for (const kind of PRINT_KINDS) {
    // The first two entries whose print is not refused.
    const done: Array<{ id: number; ms: number; asked: number; bytes: number }> = [];
    for (const e of entries.filter((x) => x.printable.includes(kind))) {
      const t = await clickToFile(page, e.id, kind);
      if (t) done.push({ id: e.id, ...t });
      if (done.length === 2) break;
    }
    if (done.length < 2) continue;
    const cached = await clickToFile(page, done[0].id, kind);
    rows.push([kind, done[0].ms, done[1].ms, cached?.ms ?? -1, done[1].asked, Math.round(done[1].bytes / 1024)]);
  }
  await browser.close();
  const load = fs.readFileSync('/proc/loadavg', 'utf8').trim();
  console.log(`print from the click to the file, ms (load average ${load})`);
  printTable(['document', 'first', 'warm', 'cached', 'warm: tab asked at', 'size, kB'], rows);
  writeResult(`print-clicks-${label}`, { load, rows });
} finally {
  process.kill(-server.pid!, 'SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
