// One app per Playwright worker (issue 32): each worker starts its own server on its own port, with
// its own data folder (a fresh embedded database with the demo data, its own mail outbox and files)
// and its own stand-in of the Joomla site, so journeys run in parallel workers without meeting each
// other's records, and a worker that restarts after a failure starts on a fresh install.
// Journeys import `test` from './test.ts', which builds on this one.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';

export interface AppServer {
  /** http://127.0.0.1:<port> of this worker's app. */
  url: string;
  /** Its DATA_DIR: the database, the files and the mail outbox (`mail/*.eml`). */
  dataDir: string;
  /** Its stand-in of the Joomla site (e2e/support/fake-joomla-server.ts). */
  joomla: { url: string; token: string };
  /** Its stand-in of the Telegram Bot API (e2e/support/fake-telegram-server.ts, with /__e2e/write and /__e2e/sent). */
  telegram: { url: string; token: string };
}

const here = path.dirname(new URL(import.meta.url).pathname);
const e2eDir = path.resolve(here, '..');
const JOOMLA_TOKEN = 'e2e-joomla-token';
const TELEGRAM_TOKEN = '7000000001:e2e-telegram-token';
/** The first worker's port; worker N takes basePort + 10 N (the app), + 1 (its Joomla stand-in) and + 2 (its Telegram stand-in). */
const basePort = Number(process.env.E2E_PORT ?? 8181);

/** Starts `node --import tsx <file>` in its own process group, its output in `log`. */
function startProcess(file: string, env: Record<string, string>, log: string): ChildProcess {
  const out = fs.openSync(log, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: e2eDir,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  return child;
}

/** Resolves when `url` answers 200; rejects as soon as the process exits or after `limitMs` (a hang). */
async function answering(url: string, child: ChildProcess, log: string, limitMs: number, headers: Record<string, string> = {}): Promise<void> {
  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `exited (${code ?? signal})`));
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (exited) throw new Error(`${url}: the process ${exited}; its log ${log}:\n${tail(log)}`);
    try {
      const answer = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
      if (answer.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer in ${limitMs / 1000} s; log ${log}:\n${tail(log)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function tail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-40).join('\n');
  } catch {
    return '(no log)';
  }
}

/** SIGTERM to the process group (the server ends its converters and pools), SIGKILL if it hangs. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-child.pid, 'SIGTERM');
  const hung = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 60_000);
  await exited;
  clearTimeout(hung);
}

export const test = base.extend<object, { app: AppServer }>({
  app: [
    // Playwright reads the fixtures a fixture needs from this first parameter: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const port = basePort + 10 * workerInfo.parallelIndex;
      const url = `http://127.0.0.1:${port}`;
      const joomla = { url: `http://127.0.0.1:${port + 1}`, token: JOOMLA_TOKEN };
      const telegram = { url: `http://127.0.0.1:${port + 2}`, token: TELEGRAM_TOKEN };
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `edu-e2e-w${workerInfo.parallelIndex}-`));
      const log = path.join(dataDir, 'server.log');
      const site = startProcess(path.join(here, 'fake-joomla-server.ts'), { FAKE_JOOMLA_PORT: String(port + 1), FAKE_JOOMLA_TOKEN: JOOMLA_TOKEN }, log);
      const bot = startProcess(path.join(here, 'fake-telegram-server.ts'), { FAKE_TELEGRAM_PORT: String(port + 2), FAKE_TELEGRAM_TOKEN: TELEGRAM_TOKEN }, log);
      const server = startProcess(
        path.resolve(e2eDir, '../server/src/main.ts'),
        {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          APP_URL: url,
          DEMO_PASSWORD: 'demo1234',
          LOG_LEVEL: 'warn',
          REGISTER_LIMIT_PER_IP: '500',
          CMS_URL: joomla.url,
          CMS_TOKEN: JOOMLA_TOKEN,
          CMS_JOURNAL_URL: joomla.url,
          CMS_JOURNAL_TOKEN: JOOMLA_TOKEN,
          TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
          TELEGRAM_API_URL: telegram.url,
        },
        log,
      );
      try {
        await answering(`${joomla.url}/api/index.php/v1/tags`, site, log, 60_000, { 'X-Joomla-Token': JOOMLA_TOKEN });
        await answering(`${telegram.url}/bot${TELEGRAM_TOKEN}/getMe`, bot, log, 60_000);
        await answering(`${url}/api/health`, server, log, 180_000);
        await use({ url, dataDir, joomla, telegram });
      } finally {
        await Promise.all([stop(server), stop(site), stop(bot)]);
        // The server logs only warnings and errors: kept beside the failures' traces when there are any.
        if (fs.existsSync(log) && fs.statSync(log).size > 0) {
          fs.mkdirSync(workerInfo.project.outputDir, { recursive: true });
          fs.copyFileSync(log, path.join(workerInfo.project.outputDir, `server-${workerInfo.parallelIndex}-${workerInfo.workerIndex}.log`));
        }
        if (!process.env.E2E_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    // Starting takes the migrations and the demo seed on a fresh database: long on a busy machine.
    { scope: 'worker', timeout: 300_000 },
  ],
  baseURL: async ({ app }, use) => use(app.url),
});
