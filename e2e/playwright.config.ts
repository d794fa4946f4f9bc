import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8181);
// Kept in the environment so the test workers (which load this file again) see the same folder,
// e.g. to read the mail outbox (DATA_DIR/mail/*.eml).
const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `edu-e2e-${process.pid}-${Date.now()}`);
process.env.E2E_DATA_DIR = dataDir;
export const baseURL = `http://127.0.0.1:${port}`;
/** The fake Joomla site (server/test/fake-joomla.ts): the app publishes services to it, and publications (as the journal's site). */
export const fakeJoomla = { url: `http://127.0.0.1:${port + 1}`, token: 'e2e-joomla-token' };

// Browser journeys against the real server on a fresh embedded database with demo data.
// Chromium comes from Debian (/usr/bin/chromium); Playwright never downloads a browser here.
export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  // One retry on CI: a journey that fails twice is red; one that passes on its retry is listed as
  // flaky in the report (the machine is 2 shared cores), and a flaky journey is a bug to chase.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  // Generous: CI shares 2 cores with the server, the database and Chromium.
  expect: { timeout: 20_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    locale: 'ru-RU',
    timezoneId: 'Europe/Moscow',
    // No unbounded waits: a click or a navigation that cannot happen fails with its reason.
    actionTimeout: 20_000,
    navigationTimeout: 30_000,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'desktop', use: { viewport: { width: 1280, height: 800 } } }],
  webServer: [
    {
      command: 'npx tsx support/fake-joomla-server.ts',
      url: `${fakeJoomla.url}/api/index.php/v1/tags`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { FAKE_JOOMLA_PORT: String(port + 1), FAKE_JOOMLA_TOKEN: fakeJoomla.token },
    },
    {
      command: 'npx tsx ../server/src/main.ts',
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        APP_URL: baseURL,
        DEMO_PASSWORD: 'demo1234',
        LOG_LEVEL: 'warn',
        REGISTER_LIMIT_PER_IP: '500',
        CMS_URL: fakeJoomla.url,
        CMS_TOKEN: fakeJoomla.token,
        CMS_JOURNAL_URL: fakeJoomla.url,
        CMS_JOURNAL_TOKEN: fakeJoomla.token,
      },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  ],
});
