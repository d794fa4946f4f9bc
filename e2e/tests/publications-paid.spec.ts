import { expect, test, type APIRequestContext } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { articleText } from '../support/texts.ts';
import { DEMO_OPERATOR, DEMO_PASSWORD, login, operatorHeaders, registerClient, uniqueTag } from '../support/session.ts';
import { noticesGone, PHONE, pick, rub, WIDE } from '../support/ui.ts';

// Books that balance (issue 28): a client whose package bought a publication adds an article from
// «Мои публикации» and is not charged again (more authors than the package covers: a new entry, and
// the form says why); the operator sees the payment in the list and the window, is asked before
// approving an unpaid publication, and reads the server's words when an approval fails.

const PACKAGE = 'Пакет «Учитель начальных классов»';
const INTERNET_SERVICE = 'Публикация в сетевом издании «Педагогический вестник»';
const CO_AUTHOR = 'Соколова Елена Андреевна';

async function entryCount(request: APIRequestContext, headers: Record<string, string>): Promise<number> {
  return ((await (await request.get('/api/entry', { headers, params: { per_page: 100 } })).json()) as { meta: { total: number } }).meta.total;
}

test('a package publication is used from «Добавить публикацию»; the operator sees unpaid ones and confirms before approving', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const op = await operatorHeaders(request);
  const client = await registerClient(request, 'paid', { lastName: 'Слотова', firstName: 'Ольга', middleName: `Тестовна${uniqueTag()}` });

  // The package bought and paid at the office.
  const packages = (await (await request.get('/api/service-package', { headers: client.headers })).json()) as {
    data: Array<{ id: number; title: string; services: Array<{ id: number; title: string; sections: Array<{ id: number }> }> }>;
  };
  const pkg = packages.data.find((p) => p.title === PACKAGE)!;
  const chosen = Object.fromEntries(pkg.services.map((s) => [String(s.id), s.sections?.[0]?.id ?? null]));
  const enrolled = await request.post(`/api/service-package/${pkg.id}/enroll`, { headers: client.headers, data: { services: chosen } });
  expect(enrolled.status(), await enrolled.text()).toBe(201);
  const entries = ((await enrolled.json()) as { data: { entries: Array<{ id: number; number: string; service: { title: string } }> } }).data.entries;
  const slotEntry = entries.find((e) => e.service.title === INTERNET_SERVICE)!;
  expect((await request.post(`/api/entry/${slotEntry.id}/pay`, { headers: op, data: { pay_type: 1 } })).ok()).toBeTruthy();
  const before = await entryCount(request, client.headers);

  // «Мои публикации → Добавить публикацию»: the paid publication is offered first, with its authors.
  await page.setViewportSize(WIDE);
  await login(page, client.email, client.password);
  await page.goto('/user/publication');
  await page.getByRole('button', { name: 'Добавить публикацию' }).click();
  const modal = page.getByRole('dialog', { name: 'Новая публикация' });
  await expect(modal.getByTestId('publication-service')).toHaveValue(INTERNET_SERVICE);
  const slot = modal.getByTestId('publication-slot');
  await expect(slot).toContainText(`Заявка № ${slotEntry.number} (${PACKAGE}) включает публикацию 1 автора без доплаты`);
  await expect(modal.getByTestId('publication-price')).toHaveCount(0);
  await pick(page, modal, 'Рубрика', 'Начальная школа');
  await pick(page, modal, 'Тип', 'Статья');
  const title = `Статья по оплаченному пакету ${Date.now().toString().slice(-5)}`;
  await modal.getByLabel('Название').fill(title);
  await modal.getByRole('textbox', { name: 'Текст публикации' }).click();
  await page.keyboard.insertText(articleText(31, 3400));
  await slot.scrollIntoViewIfNeeded();
  await shot(page, 'paid-slot-form-desktop');

  // A co-author: more than the package covers, so a new entry with its price, and the form says why.
  await modal.getByRole('combobox', { name: 'Добавить автора' }).fill('Соколова Елена');
  await page.getByRole('option', { name: CO_AUTHOR }).click();
  await modal.getByRole('button', { name: 'Добавить', exact: true }).click();
  await expect(modal.getByTestId('publication-author')).toHaveCount(2);
  const extra = modal.getByTestId('publication-slot-extra');
  await expect(extra).toContainText('а авторов 2: поэтому будет создана новая заявка по цене для 2 авторов, её нужно будет оплатить');
  await expect(modal.getByTestId('publication-slot')).toHaveCount(0);
  const prices = (await (await request.get('/api/publication-price', { headers: op, params: { dict_service_subtype_id: 5 } })).json()) as {
    data: Array<{ authors_num: number; price: number }>;
  };
  await expect(modal.getByTestId('publication-price')).toHaveText(rub(prices.data.find((p) => p.authors_num === 2)!.price));
  await extra.scrollIntoViewIfNeeded();
  await shot(page, 'paid-slot-form-two-authors-desktop');
  await page.setViewportSize(PHONE);
  await expect(extra).toBeVisible();
  // The form itself never scrolls sideways at 390 px (the page behind it holds other journeys' data).
  const form = await modal.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(form.scroll).toBeLessThanOrEqual(form.client + 1);
  expect((await modal.boundingBox())!.width).toBeLessThanOrEqual(391);
  await shot(page, 'paid-slot-form-two-authors-mobile');
  // Back to one author: the package's publication again.
  await modal.getByRole('button', { name: `Убрать автора ${CO_AUTHOR}` }).click();
  await expect(modal.getByTestId('publication-slot')).toBeVisible();
  await modal.getByTestId('publication-slot').scrollIntoViewIfNeeded();
  await shot(page, 'paid-slot-form-mobile');
  await page.setViewportSize(WIDE);
  await modal.getByRole('button', { name: 'Отправить' }).click();
  await expect(page.getByText('Успешно сохранено!')).toBeVisible();
  await expect(page.getByText(`Заявка № ${slotEntry.number} (${PACKAGE}) включает публикацию 1 автора без доплаты. Новая заявка не создана`)).toBeVisible();
  const card = page.getByTestId('publication-card').filter({ hasText: title });
  await expect(card).toContainText(slotEntry.number);
  await expect(card.getByRole('button', { name: /Оплатить/ })).toHaveCount(0);
  expect(await entryCount(request, client.headers)).toBe(before);

  // A second article costs money (the slot is used): unpaid.
  const services = (await (await request.get('/api/service', { headers: client.headers, params: { isPublication: 1, per_page: 100 } })).json()) as {
    data: Array<{ id: number; dict_subtype_id: number }>;
  };
  const internetId = services.data.find((s) => s.dict_subtype_id === 5)!.id;
  const unpaidTitle = `Неоплаченная статья ${Date.now().toString().slice(-5)}`;
  const second = await request.post('/api/publication', {
    headers: client.headers,
    data: { service_id: internetId, dict_category_id: 2, type: 1, title: unpaidTitle, text: `<p>${articleText(32, 3400)}</p>`, authors_num: 1 },
  });
  expect(second.ok(), await second.text()).toBeTruthy();
  expect(((await second.json()) as { data: { is_paid: boolean } }).data.is_paid).toBe(false);

  // The operator's list: the payment column and the filter.
  const operatorContext = await browser.newContext({ baseURL, viewport: WIDE });
  const opPage = await operatorContext.newPage();
  await login(opPage, DEMO_OPERATOR, DEMO_PASSWORD);
  await opPage.goto(`/manager/publication?fio=${encodeURIComponent(client.middleName)}`);
  const paidRow = opPage.getByTestId('publication-row').filter({ hasText: title.slice(0, 30) });
  const unpaidRow = opPage.getByTestId('publication-row').filter({ hasText: unpaidTitle.slice(0, 30) });
  await expect(paidRow.getByTestId('publication-payment')).toHaveText('Оплачена', { timeout: 45_000 });
  await expect(unpaidRow.getByTestId('publication-payment')).toHaveText('Не оплачена');
  await pick(opPage, opPage.locator('body'), 'Оплата', 'Не оплачена');
  await expect(paidRow).toHaveCount(0);
  await expect(unpaidRow).toHaveCount(1);
  await expect(opPage).toHaveURL(/isPaid=0/);
  await noticesGone(opPage);
  await shot(opPage, 'paid-manager-list-unpaid-filter-desktop');
  await opPage.goto(`/manager/publication?fio=${encodeURIComponent(client.middleName)}`);
  await expect(paidRow).toHaveCount(1);
  await shot(opPage, 'paid-manager-list-desktop');

  // The unpaid one: the window says so, «Одобрить» asks first; «Отмена» changes nothing.
  await unpaidRow.getByTestId('publication-open').click();
  const view = opPage.getByRole('dialog', { name: 'Публикация' });
  await expect(view.getByTestId('publication-payment')).toHaveText('Не оплачена');
  await expect(view.getByTestId('publication-unpaid')).toContainText('не оплачена');
  await shot(opPage, 'paid-manager-view-unpaid-desktop');
  await view.getByRole('button', { name: 'Одобрить' }).click();
  const ask = opPage.getByRole('dialog', { name: 'Одобрение без оплаты' });
  await expect(ask).toContainText('Публикация не оплачена. Подтвердите одобрение без оплаты.');
  await shot(opPage, 'paid-manager-approve-unpaid-desktop');
  await ask.getByRole('button', { name: 'Отмена' }).click();
  await expect(ask).toHaveCount(0);
  await expect(unpaidRow.getByTestId('publication-status')).toHaveText('Ожидает проверки');
  await view.getByRole('button', { name: 'Одобрить' }).click();
  await ask.getByRole('button', { name: 'Одобрить без оплаты' }).click();
  await expect(opPage.getByText('Публикация одобрена!')).toBeVisible();
  await expect(unpaidRow.getByTestId('publication-status')).toHaveText('Одобрена');

  // The paid one approved elsewhere meanwhile: «Одобрить» in this (stale) window shows the server's refusal, not a success.
  await paidRow.getByTestId('publication-open').click();
  await expect(view.getByTestId('publication-payment')).toHaveText('Оплачена');
  await expect(view.getByRole('button', { name: 'Одобрить' })).toBeEnabled();
  const listed = (await (await request.get('/api/publication', { headers: op, params: { title } })).json()) as { data: Array<{ id: number }> };
  const paidId = listed.data[0]!.id;
  expect((await request.post(`/api/publication/${paidId}/accept`, { headers: op, data: {} })).ok()).toBeTruthy();
  await view.getByRole('button', { name: 'Одобрить' }).click();
  await expect(opPage.getByText('Действие недоступно для публикации в статусе «Одобрена»')).toBeVisible();
  await expect(opPage.getByText('Публикация одобрена!')).toHaveCount(0);
  await expect(view).toBeVisible();
  await shot(opPage, 'paid-manager-approve-refused-desktop');
  await opPage.keyboard.press('Escape');

  // Narrow screens: the payment on the cards and in the window.
  await opPage.setViewportSize(PHONE);
  await opPage.goto(`/manager/publication?fio=${encodeURIComponent(client.middleName)}`);
  await expect(opPage.getByTestId('publications-cards')).toBeVisible();
  await expect(opPage.getByTestId('publication-card').first().getByTestId('publication-payment')).toBeVisible();
  expect(await opPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
  await shot(opPage, 'paid-manager-list-mobile');
  await opPage
    .getByTestId('publication-card')
    .filter({ hasText: unpaidTitle.slice(0, 20) })
    .getByTestId('publication-open')
    .click();
  await expect(view.getByTestId('publication-unpaid')).toBeVisible();
  await shot(opPage, 'paid-manager-view-unpaid-mobile');
  await operatorContext.close();
});
