import { test as base } from './app-server.ts';
import { recordApiAnswers, servedContract, type ApiContract } from './api-contract.ts';

// Every journey holds the app to its API document (issue 31, decision 034): the answers its page gets
// from the app's own API (fetch and XHR, success and error) are checked against the served document
// while it runs, and any undeclared status or body that does not match fails the journey with the
// list. Journeys import `test` and `expect` from here instead of @playwright/test; `app` (the
// worker's own server, support/app-server.ts) and `baseURL` come with it.
export * from '@playwright/test';

/** The served document, read once per worker (it does not change while the server runs). */
let contract: Promise<ApiContract> | null = null;

export const test = base.extend<{ apiContract: void }>({
  apiContract: [
    async ({ page, baseURL }, use) => {
      contract ??= servedContract(page.request);
      const recorder = recordApiAnswers(page, await contract, new URL(baseURL!).origin);
      await use();
      const { problems } = await recorder.done();
      if (problems.length > 0) throw new Error(`Answers the API document does not declare:\n${problems.join('\n')}`);
    },
    { auto: true },
  ],
});
