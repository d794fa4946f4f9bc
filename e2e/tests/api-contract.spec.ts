import { expect, type Locator, type Page } from '@playwright/test';
import { test } from '../support/app-server.ts';
import { recordApiAnswers, servedContract, writeChecked } from '../support/api-contract.ts';
import { openScreen, SCREENS, type Who } from '../support/app-screens.ts';
import { clientWithEntry, DEMO_OPERATOR, DEMO_PASSWORD, DEMO_USER, login, logout, submitLogin } from '../support/session.ts';

// The API document is a contract the web app can trust (issue 31, decision 034): each role (a guest,
// the demo user, the demo operator) signs in through the form (a guest is refused it), walks every
// screen at 1280 px and signs out, and the operator opens the main windows that fetch data; every
// answer the page gets from the app's own API must have a status its operation declares and a JSON
// body that matches that status's schema. A mismatch fails the journey with its method, path, status
// and the validator's errors; what was checked (answers per operation and status) is written under
// the role (and 'windows') in e2e/output/api-contract.json.

const ACCOUNTS: Record<Exclude<Who, 'guest'>, string> = { user: DEMO_USER, operator: DEMO_OPERATOR };

/** Records the page's API answers while `walk` runs, then keeps the record and fails on any mismatch. */
async function holdToContract(page: Page, origin: string, key: string, walk: () => Promise<void>): Promise<void> {
  const recorder = recordApiAnswers(page, await servedContract(page.request), origin);
  await walk();
  const record = await recorder.done();
  writeChecked(key, record);
  expect(record.checked, 'answers checked').toBeGreaterThan(0);
  expect(record.problems, record.problems.join('\n')).toEqual([]);
}

/** The window is open and shows its data: no loader, no skeleton. */
async function loaded(window: Locator): Promise<void> {
  await expect(window).toBeVisible();
  await expect(window.getByRole('status', { name: 'Загрузка' })).toHaveCount(0);
  await expect(window.locator('.mantine-Skeleton-root[data-visible="true"]')).toHaveCount(0);
}

for (const who of ['guest', 'user', 'operator'] as const) {
  test(`the ${who}'s screens get answers the API document declares`, async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await holdToContract(page, new URL(baseURL!).origin, who, async () => {
      if (who === 'guest') {
        // The refusals of the login too: a wrong password, an unknown e-mail.
        await submitLogin(page, DEMO_USER, 'not-the-password');
        await expect(page.getByText('Неверный пароль. Забыли пароль?')).toBeVisible();
        await submitLogin(page, 'nobody-here@example.com', 'whatever');
        await expect(page.getByText('Пользователь не найден. Пожалуйста, пройдите регистрацию.')).toBeVisible();
      } else await login(page, ACCOUNTS[who], DEMO_PASSWORD);
      for (const screen of SCREENS.filter((s) => s.who === who)) await openScreen(page, screen);
      if (who !== 'guest') await logout(page);
    });
  });
}

test('the main windows get answers the API document declares', async ({ page, request, baseURL }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const { entry } = await clientWithEntry(request, 'contract', { lastName: 'Договорова' });
  await holdToContract(page, new URL(baseURL!).origin, 'windows', async () => {
    await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
    await page.goto(`/manager/entry?number=${entry.number}`);
    const row = page.getByTestId('entry-row').filter({ hasText: entry.number });
    await expect(row).toHaveCount(1);
    // The operator's edit window of an entry loads the entry, its history and the choices.
    await row.getByRole('button', { name: `Изменить заявку ${entry.number}` }).click();
    const editWindow = page.getByTestId('operator-entry-modal').getByRole('dialog');
    await loaded(editWindow);
    await page.keyboard.press('Escape');
    await expect(editWindow).toHaveCount(0);

    // The entry's history.
    await row.getByRole('button', { name: `История заявки ${entry.number}` }).click();
    const history = page.getByTestId('entry-history-modal').getByRole('dialog');
    await expect(history.getByTestId('entry-history').or(history.getByText('Изменений нет'))).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(history).toHaveCount(0);

    await row.getByRole('button', { name: `Действия с заявкой ${entry.number}` }).click();
    await page.getByRole('menuitem', { name: 'Отметить оплату' }).click();
    const markPaid = page.getByRole('dialog', { name: 'Отметить заявку оплаченной' });
    await loaded(markPaid);
    await page.keyboard.press('Escape');
    await expect(markPaid).toHaveCount(0);

    // The new-publication window loads the rubrics, the releases and the prices.
    await page.goto('/user/publication');
    await page.getByRole('button', { name: 'Добавить публикацию' }).click();
    const newPublication = page.getByRole('dialog', { name: 'Новая публикация' });
    await loaded(newPublication);
    await page.keyboard.press('Escape');
    await expect(newPublication).toHaveCount(0);
  });
});

test('the check refuses what the document does not say', async ({ request }) => {
  const contract = await servedContract(request);
  // The router's choice: a literal path first, a parameter where the literal path lacks the method.
  expect(contract.templateOf('/api/service/facets', 'GET')).toBe('/api/service/facets');
  expect(contract.templateOf('/api/service/5', 'GET')).toBe('/api/service/{id}');
  expect(contract.templateOf('/api/dictionaries/dict_publication_categories', 'GET')).toBe('/api/dictionaries/{name}');
  // A real answer passes; the same with a field too many, or its token missing, does not.
  const signedIn = await request.post('/login', { data: { email: DEMO_USER, password: DEMO_PASSWORD } });
  expect(signedIn.status()).toBe(200);
  const body = (await signedIn.json()) as Record<string, unknown>;
  const answer = { method: 'POST', path: '/login', status: 200, contentType: 'application/json' };
  expect(contract.problems({ ...answer, body })).toEqual([]);
  expect(contract.problems({ ...answer, body: { ...body, extra: 1 } })).toHaveLength(1);
  expect(contract.problems({ ...answer, body: { ...body, access_token: undefined } })).toHaveLength(1);
  // An undeclared status, content type or operation.
  expect(contract.problems({ method: 'GET', path: '/api/get', status: 418, contentType: 'application/json', body: {} })).toHaveLength(1);
  expect(contract.problems({ ...answer, contentType: 'text/html', body: undefined })).toHaveLength(1);
  expect(contract.problems({ method: 'DELETE', path: '/api/public-config', status: 200, contentType: 'application/json', body: {} })).toHaveLength(1);
  expect(contract.problems({ method: 'GET', path: '/api/nowhere/at/all', status: 200, contentType: 'application/json', body: {} })).toHaveLength(1);
});
