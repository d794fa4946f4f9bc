import os from 'node:os';
import { defineConfig } from '@playwright/test';

// Browser journeys against the real server on a fresh embedded database with demo data: one server
// per worker (support/app-server.ts), so the journeys run in parallel workers (issue 32).
// Chromium comes from Debian (/usr/bin/chromium); Playwright never downloads a browser here.
export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  // Files run in parallel, each file's journeys in order in one worker with its own server. A worker
  // with its server, converters and browsers keeps about two cores busy: two workers on 2 cores took
  // 37.7 min for 94 journeys against 20.7 min for 93 with one (issue 32), so one worker per two cores.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? Math.max(1, Math.floor(os.availableParallelism() / 2))),
  // One retry on CI: a journey that fails twice is red; one that passes on its retry is listed as
  // flaky in the report (the machine is 2 shared cores), and a flaky journey is a bug to chase.
  retries: process.env.CI ? 1 : 0,
  // Limits stop a hang; they are generous because two workers share 2 cores with their servers,
  // databases and browsers, and the machine may be busy with other work too.
  timeout: 240_000,
  expect: { timeout: 45_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    locale: 'ru-RU',
    timezoneId: 'Europe/Moscow',
    // No unbounded waits: a click or a navigation that cannot happen fails with its reason.
    actionTimeout: 45_000,
    navigationTimeout: 60_000,
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
});
