import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'domain', include: ['domain/src/**/*.test.ts'] } },
      // The web's shared pieces (list parameters, draft filters, form helpers, the HTML cleaner) in a DOM.
      { test: { name: 'web', include: ['web/src/**/*.test.{ts,tsx}'], environment: 'jsdom', setupFiles: ['web/src/test/jsdom-setup.ts'] } },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'],
          globalSetup: ['server/test/global-setup.ts'],
          // Generous: CI shares 2 cores; a fresh PGlite boot and migration took over 60 s at load 20.
          testTimeout: 60_000,
          hookTimeout: 180_000,
          pool: 'forks',
          env: { NODE_ENV: 'test' },
        },
      },
    ],
  },
});
