import { expect, test, type APIRequestContext } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { articleText } from '../support/texts.ts';
import { DEMO_OPERATOR, DEMO_PASSWORD, login, operatorHeaders, registerClient, uniqueTag } from '../support/session.ts';
import { pick } from '../support/ui.ts';

// Where publications meet the rest (issue 19, decision 025): a package's publication gets its
// article without a second charge, and the operator's entry menu opens the entry's publication and
// contract; a rejected publication leaves nothing owed, and the match names the copied publication.

const PACKAGE = 'Пакет «Учитель начальных классов»';
const INTERNET_SERVICE = 'Публикация в сетевом издании «Педагогический вестник»';

/** A client whose name no earlier run has. */
const newClient = (request: APIRequestContext, lastName: string) =>
  registerClient(request, 'together', { lastName, firstName: 'Ольга', middleName: `Тестовна${uniqueTag()}` });

type Owed = { left_sum: number; entries_unpaid_num: number };
async function owed(request: APIRequestContext, headers: Record<string, string>): Promise<Owed> {
  const me = (await (await request.get('/api/get', { headers })).json()) as Owed;
  return { left_sum: me.left_sum, entries_unpaid_num: me.entries_unpaid_num };
}

async function entryCount(request: APIRequestContext, headers: Record<string, string>): Promise<number> {
  return ((await (await request.get('/api/entry', { headers, params: { per_page: 100 } })).json()) as { meta: { total: number } }).meta.total;
}

test('a package publication gets its article without a second charge; the operator opens its publication and the course contract from the entry menu', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const op = await operatorHeaders(request);
  const client = await newClient(request, 'Пакетова');

  // Enrolled in the seeded package (first section of each service with sections) and paid at the office.
  const packages = (await (await request.get('/api/service-package', { headers: client.headers })).json()) as {
    data: Array<{ id: number; title: string; price: number; services: Array<{ id: number; title: string; price: number; sections: Array<{ id: number }> }> }>;
  };
  const pkg = packages.data.find((p) => p.title === PACKAGE)!;
  // The package window prices its publication by the publication prices (one author).
  const prices = (await (await request.get('/api/publication-price', { headers: op, params: { dict_service_subtype_id: 5 } })).json()) as {
    data: Array<{ authors_num: number; price: number }>;
  };
  expect(pkg.services.find((s) => s.title === INTERNET_SERVICE)!.price).toBe(prices.data.find((p) => p.authors_num === 1)!.price);
  const chosen = Object.fromEntries(pkg.services.map((s) => [String(s.id), s.sections?.[0]?.id ?? null]));
  const enrolled = await request.post(`/api/service-package/${pkg.id}/enroll`, { headers: client.headers, data: { services: chosen } });
  expect(enrolled.status(), await enrolled.text()).toBe(201);
  const entries = ((await enrolled.json()) as { data: { entries: Array<{ id: number; number: string; service: { title: string } }> } }).data.entries;
  const publicationEntry = entries.find((e) => e.service.title === INTERNET_SERVICE)!;
  const paid = await request.post(`/api/entry/${publicationEntry.id}/pay`, { headers: op, data: { pay_type: 1 } });
  expect(paid.ok(), await paid.text()).toBeTruthy();
  expect(await owed(request, client.headers)).toEqual({ left_sum: 0, entries_unpaid_num: 0 });
  const before = await entryCount(request, client.headers);

  // «Мои заявки»: the paid publication entry offers to add its article.
  await login(page, client.email, client.password);
  await page.goto('/user/entry');
  const row = page.getByTestId('entry-row').filter({ hasText: publicationEntry.number });
  // The first list of a fresh session can take a while on a loaded machine.
  await expect(row.getByTestId('add-article')).toBeVisible({ timeout: 45_000 });
  await shot(page, 'together-entry-add-article-desktop');
  await row.getByTestId('add-article').click();
  await expect(page).toHaveURL(new RegExp(`/user/publication\\?entry=${publicationEntry.id}$`));

  // The form names the entry's service (fixed) and says it is paid; no price to pay.
  const modal = page.getByRole('dialog', { name: 'Новая публикация' });
  await expect(modal.getByTestId('publication-service')).toHaveValue(INTERNET_SERVICE);
  await expect(modal.getByTestId('publication-service')).toBeDisabled();
  await expect(modal.getByTestId('publication-entry-paid')).toContainText(`Оплачена по заявке № ${publicationEntry.number}`);
  await expect(modal.getByTestId('publication-price')).toHaveCount(0);
  await pick(page, modal, 'Рубрика', 'Начальная школа');
  await pick(page, modal, 'Тип', 'Статья');
  const title = `Статья по пакету ${Date.now().toString().slice(-5)}`;
  await modal.getByLabel('Название').fill(title);
  await modal.getByRole('textbox', { name: 'Текст публикации' }).click();
  await page.keyboard.insertText(articleText(11, 3400));
  await shot(page, 'together-article-form-desktop');
  await modal.getByRole('button', { name: 'Отправить' }).click();
  await expect(page.getByText('Успешно сохранено!')).toBeVisible();
  await expect(page).toHaveURL(/\/user\/publication$/);

  // The card is the package's paid entry: nothing to pay, no new entry, nothing owed.
  const card = page.getByTestId('publication-card').filter({ hasText: title });
  await expect(card).toContainText(publicationEntry.number);
  await expect(card.getByRole('button', { name: /Оплатить/ })).toHaveCount(0);
  await shot(page, 'together-article-card-desktop');
  expect(await entryCount(request, client.headers)).toBe(before);
  expect(await owed(request, client.headers)).toEqual({ left_sum: 0, entries_unpaid_num: 0 });
  await page.goto('/user/entry');
  await expect(row).toBeVisible();
  await expect(row.getByTestId('add-article')).toHaveCount(0);
  // The entry is told apart by its article.
  await expect(row.getByTestId('entry-article')).toHaveText(`Статья: «${title}»`);

  // The operator's entry menu: «Публикация» opens the article, «Договор» the course's contract.
  const operatorContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const opPage = await operatorContext.newPage();
  await login(opPage, DEMO_OPERATOR, DEMO_PASSWORD);
  await opPage.goto(`/manager/entry?number=${publicationEntry.number}`);
  const opRow = opPage.getByTestId('entry-row').filter({ hasText: publicationEntry.number });
  await opRow.getByRole('button', { name: `Действия с заявкой ${publicationEntry.number}` }).click();
  await opPage.getByRole('menuitem', { name: 'Публикация' }).click();
  const view = opPage.getByRole('dialog', { name: 'Публикация' });
  await expect(view.getByLabel('Название')).toHaveValue(title);
  await shot(opPage, 'together-entry-publication-modal-desktop');
  await view.getByRole('button', { name: 'Одобрить' }).click();
  await expect(opPage.getByText('Публикация одобрена!')).toBeVisible();
  await opPage.keyboard.press('Escape');

  const course = entries.find((e) => e.service.title !== INTERNET_SERVICE && e.service.title.startsWith('Курс'));
  if (course) {
    await opPage.goto(`/manager/entry?number=${course.number}`);
    const courseRow = opPage.getByTestId('entry-row').filter({ hasText: course.number });
    await courseRow.getByRole('button', { name: `Действия с заявкой ${course.number}` }).click();
    // «Открыть договор» opens the contract card; «Печать договора» prints it (issue 30).
    await opPage.getByRole('menuitem', { name: 'Открыть договор' }).click();
    const contract = opPage.getByRole('dialog', { name: `Договор по заявке № ${course.number}` });
    await expect(contract.getByTestId('entry-contract-status')).toHaveText('Ожидает проверки');
    await expect(contract.getByTestId('no-scan')).toHaveText('Скан не загружен');
    await shot(opPage, 'together-entry-contract-modal-desktop');
  }
  await operatorContext.close();

  // A phone: the same entries and the form at 390 px.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/user/entry');
  await expect(page.getByText(publicationEntry.number).first()).toBeVisible({ timeout: 45_000 });
  await shot(page, 'together-entries-mobile');
});

test('a rejected publication leaves nothing owed; its match names the publication it was copied from', async ({ page, request, browser, baseURL }) => {
  test.setTimeout(480_000);
  const op = await operatorHeaders(request);
  const services = (await (await request.get('/api/service', { headers: op, params: { isPublication: 1, per_page: 100 } })).json()) as {
    data: Array<{ id: number; dict_subtype_id: number }>;
  };
  const internetId = services.data.find((s) => s.dict_subtype_id === 5)!.id;
  const original = await newClient(request, 'Первоисточникова');
  const client = await newClient(request, 'Отклонова');
  const borrowed = articleText(21, 3400);
  const body = (title: string) => ({ service_id: internetId, dict_category_id: 2, type: 1, title, text: `<p>${borrowed}</p>`, authors_num: 1 });
  const source = await request.post('/api/publication', { headers: original.headers, data: body('Оригинальная статья о проектах') });
  expect(source.ok(), await source.text()).toBeTruthy();
  const sourceData = ((await source.json()) as { data: { id: number; entry: { number: string } } }).data;
  expect((await request.post(`/api/publication/${sourceData.id}/check-uniqueness`, { headers: op })).status()).toBeLessThan(300);
  // The source is stored for comparison once its own check has run (it may wait in the queue).
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/publication/${sourceData.id}`, { headers: op })).json()) as {
            data: { uniqueness: number | null; uniqueness_state: string | null };
          }
        ).data,
      { timeout: 90_000 },
    )
    .toMatchObject({ uniqueness: expect.any(Number), uniqueness_state: null });
  const title = `Заимствованная статья ${Date.now().toString().slice(-5)}`;
  const created = await request.post('/api/publication', { headers: client.headers, data: body(title) });
  expect(created.ok(), await created.text()).toBeTruthy();
  const publication = ((await created.json()) as { data: { id: number; entry: { number: string; price: number } } }).data;
  const due = await owed(request, client.headers);
  expect(due).toEqual({ left_sum: publication.entry.price, entries_unpaid_num: 1 });

  // The client sees what is owed.
  await login(page, client.email, client.password);
  await page.goto('/user/entry');
  const row = page.getByTestId('entry-row').filter({ hasText: publication.entry.number });
  // The first list of a fresh session can take a while on a loaded machine.
  await expect(row.getByTestId('entry-status')).toContainText('Не оплачена', { timeout: 45_000 });

  // The operator checks: the match names the copied publication and opens it; then rejects.
  const operatorContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const opPage = await operatorContext.newPage();
  await login(opPage, DEMO_OPERATOR, DEMO_PASSWORD);
  await opPage.goto('/manager/publication');
  await expect(opPage.getByTestId('publication-row').first()).toBeVisible({ timeout: 45_000 });
  await opPage.getByLabel('Название').fill(title);
  const opRow = opPage.getByTestId('publication-row').filter({ hasText: title });
  await expect(opRow).toHaveCount(1);
  await opRow.getByTestId('publication-open').click();
  const view = opPage.getByRole('dialog', { name: 'Публикация' }).first();
  const match = view.getByTestId('uniqueness-source').first();
  // The source counts once its own check has indexed it (a worker job): check again until it does.
  await expect(async () => {
    await view.getByRole('button', { name: 'Проверить' }).click();
    await expect(match).toHaveText(`Публикация № ${sourceData.entry.number} «Оригинальная статья о проектах», ${original.fio}`, { timeout: 15_000 });
  }).toPass({ timeout: 120_000 });
  await shot(opPage, 'together-match-source-desktop');
  await match.click();
  const sourceView = opPage.getByRole('dialog', { name: 'Публикация' }).nth(1);
  await expect(sourceView.getByLabel('Название')).toHaveValue('Оригинальная статья о проектах');
  await shot(opPage, 'together-match-source-opened-desktop');
  await opPage.keyboard.press('Escape');
  await expect(opPage.getByRole('dialog', { name: 'Публикация' })).toHaveCount(1);
  await view.getByLabel('Комментарий').fill('Текст совпадает с опубликованной статьёй.');
  await view.getByRole('button', { name: 'Отклонить', exact: true }).click();
  await expect(opPage.getByText('Статус публикации успешно изменён!')).toBeVisible();
  await operatorContext.close();

  // Nothing is owed: no unpaid entry in «Мои заявки», no pay button on the rejected card.
  expect(await owed(request, client.headers)).toEqual({ left_sum: 0, entries_unpaid_num: 0 });
  await page.goto('/user/entry');
  await expect(page.getByTestId('entries-empty')).toBeVisible();
  await page.goto('/user/publication');
  const card = page.getByTestId('publication-card').filter({ hasText: title });
  await expect(card.getByTestId('publication-status')).toHaveText('Отклонена');
  await expect(card.getByRole('button', { name: /Оплатить/ })).toHaveCount(0);
  await shot(page, 'together-rejected-desktop');
  // Deleting the rejected card changes nothing owed either.
  await card.getByRole('button', { name: /Удалить/ }).click();
  await page.getByRole('dialog', { name: 'Удаление' }).getByRole('button', { name: 'Да', exact: true }).click();
  await expect(card).toHaveCount(0);
  expect(await owed(request, client.headers)).toEqual({ left_sum: 0, entries_unpaid_num: 0 });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/user/entry');
  await expect(page.getByTestId('entries-empty')).toBeVisible();
  await shot(page, 'together-rejected-mobile');
});
