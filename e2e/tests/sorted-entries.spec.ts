import { expect, test, type APIRequestContext, type Page } from '../support/test.ts';
import path from 'node:path';
import { downloadedSheet } from '../support/files.ts';
import { outputDir, shot } from '../support/screens.ts';
import { clientWithEntry, DEMO_OPERATOR, DEMO_PASSWORD, login, newWebinar, operatorHeaders } from '../support/session.ts';

// Issue 22: the operators' entry list sorted by a column (kept in the address bar, kept by a
// reload, the arrow and aria-sort on the header), exported exactly in that order with its totals
// row; and compact rows (15 entries fit a screen or two at 1280 px, cards with a sort choice at 390).

const run = `${Date.now()}`.slice(-6);
/** A surname only this run's clients have (letters only: the name filter matches words). */
const surname = `Сортова${'абвгдежзик'
  .split('')
  .filter((_, i) => run.includes(String(i)))
  .join('')}`;

/** A client of this run with one entry on the run's webinar; the operator then sets its price. */
async function entryPriced(request: APIRequestContext, operator: { Authorization: string }, serviceId: number, firstName: string, price: number) {
  const { entry, fio } = await clientWithEntry(request, 'sorted', { lastName: surname, firstName, middleName: 'Сергеевна' }, { serviceId });
  const priced = await request.put(`/api/entry/${entry.id}`, { headers: operator, data: { price } });
  expect(priced.status(), await priced.text()).toBe(200);
  return { ...entry, price, fio };
}

/** The entry numbers in the order the list shows them (table rows or cards). */
const shownNumbers = async (page: Page, testId: 'entry-row' | 'entry-card') =>
  (await page.getByTestId(testId).allInnerTexts()).map((text) => /\d{4}-\d{4,}/.exec(text)?.[0] ?? text);

test('an operator sorts the entries by price, the address bar and a reload keep it, and the export follows the same order with its totals', async ({
  page,
  request,
}) => {
  const operator = await operatorHeaders(request);
  // A webinar of this run's own: the demo course's seats are shared by many journeys.
  const serviceId = await newWebinar(request, operator, { title: `Вебинар «Сортировка заявок» ${run}`, price: 4900, daysAhead: 40 });
  const made = [
    await entryPriced(request, operator, serviceId, 'Вера', 2500),
    await entryPriced(request, operator, serviceId, 'Анна', 700),
    await entryPriced(request, operator, serviceId, 'Галина', 4100),
    await entryPriced(request, operator, serviceId, 'Дарья', 700),
    await entryPriced(request, operator, serviceId, 'Белла', 1300),
  ];
  const byPrice = (desc: boolean) =>
    [...made].sort((a, b) => (a.price !== b.price ? (a.price - b.price) * (desc ? -1 : 1) : (a.id - b.id) * (desc ? -1 : 1))).map((e) => e.number);

  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto(`/manager/entry?fio=${encodeURIComponent(surname)}`);
  await expect(page.getByTestId('entry-row')).toHaveCount(5);
  // Newest first by default: the «Создана» header says so.
  const created = page.getByRole('columnheader', { name: 'Создана' });
  await expect(created).toHaveAttribute('aria-sort', 'descending');
  expect(await shownNumbers(page, 'entry-row')).toEqual([...made].reverse().map((e) => e.number));

  const price = page.getByRole('columnheader', { name: 'Цена' });
  await price.getByRole('button', { name: 'Цена' }).click();
  await expect(page).toHaveURL(/[?&]sort=price(&|$)/);
  await expect(price).toHaveAttribute('aria-sort', 'ascending');
  await expect(created).not.toHaveAttribute('aria-sort', /.+/);
  await expect.poll(() => shownNumbers(page, 'entry-row')).toEqual(byPrice(false));

  await price.getByRole('button', { name: 'Цена' }).click();
  await expect(page).toHaveURL(/[?&]sort=-price(&|$)/);
  await expect(price).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => shownNumbers(page, 'entry-row')).toEqual(byPrice(true));
  await shot(page, 'sorted-entries-desktop');

  // A reload keeps the sort and the filter.
  await page.reload();
  await expect(page.getByRole('columnheader', { name: 'Цена' })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByTestId('entry-row')).toHaveCount(5);
  expect(await shownNumbers(page, 'entry-row')).toEqual(byPrice(true));

  // The export: exactly these entries in this order, and the totals row.
  const sheet = await downloadedSheet(page, page.getByRole('button', { name: 'Скачать Excel' }), 'Заявки');
  expect(sheet.rowCount).toBe(7);
  const numbers = [2, 3, 4, 5, 6].map((r) => sheet.getRow(r).getCell(2).value);
  expect(numbers).toEqual(byPrice(true));
  const prices = [2, 3, 4, 5, 6].map((r) => sheet.getRow(r).getCell(11).value);
  expect(prices).toEqual([4100, 2500, 1300, 700, 700]);
  expect([2, 3, 4, 5, 6].map((r) => sheet.getRow(r).getCell(4).value)).toEqual(byPrice(true).map((n) => made.find((e) => e.number === n)!.fio));
  const totals = sheet.getRow(7);
  expect(totals.getCell(2).value).toBe('Итого');
  expect(totals.getCell(3).value).toBe('Заявок: 5');
  expect(totals.getCell(11).value).toBe(9300);
  // Nothing is paid yet.
  expect(totals.getCell(9).value).toBe('Оплачено: 0\u00a0₽');

  // Sorted by client: the names in alphabetical order; the third click returns to the default order.
  const client = page.getByRole('columnheader', { name: 'Клиент' });
  await client.getByRole('button', { name: 'Клиент' }).click();
  await expect(page).toHaveURL(/[?&]sort=fio(&|$)/);
  await expect.poll(() => shownNumbers(page, 'entry-row')).toEqual([...made].sort((a, b) => a.fio.localeCompare(b.fio, 'ru')).map((e) => e.number));
  await client.getByRole('button', { name: 'Клиент' }).click();
  await client.getByRole('button', { name: 'Клиент' }).click();
  await expect(page).not.toHaveURL(/sort=/);
  await expect(created).toHaveAttribute('aria-sort', 'descending');
});

test('the operators’ entry rows are compact at 1280 px, and the cards at 390 px sort by a choice', async ({ page }) => {
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/entry');
  await expect(page.getByTestId('entry-row').first()).toBeVisible();
  // 15 entries on the first page (the journeys before this one made more than that).
  await expect(page.getByTestId('entry-row')).toHaveCount(15);
  const table = await page.getByTestId('entries-table').boundingBox();
  const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  console.log(`15 entries at 1280 px: table ${Math.round(table!.height)} px, page ${pageHeight} px`);
  // The page was 2 231 px with 15 entries; two lines per entry now (a third for a publication's article).
  expect(table!.height).toBeLessThan(1000);
  // No cell pushes the table past the screen.
  const scroll = await page.evaluate(() => {
    const box = document.querySelector('[data-testid="entries-table"]')!.parentElement!;
    return box.scrollWidth - box.clientWidth;
  });
  expect(scroll).toBeLessThanOrEqual(1);
  await shot(page, 'compact-entries-desktop');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('entry-card').first()).toBeVisible();
  await page.getByTestId('sort-select').click();
  await page.getByRole('option', { name: 'Номер ↑' }).click();
  await expect(page).toHaveURL(/[?&]sort=number(&|$)/);
  await expect
    .poll(async () => {
      const numbers = await shownNumbers(page, 'entry-card');
      return numbers.length > 1 && numbers.every((n, i) => i === 0 || (numbers[i - 1] ?? n) <= n);
    })
    .toBe(true);
  await shot(page, 'compact-entries-mobile');
  // The first screen as a phone shows it (the full page is long to look at).
  await page.screenshot({ path: path.join(outputDir, 'compact-entries-mobile-screen.png') });
  console.log(`15 entries at 390 px: page ${await page.evaluate(() => document.documentElement.scrollHeight)} px`);
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
});
