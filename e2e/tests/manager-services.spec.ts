import { expect, test, type APIRequestContext } from '../support/test.ts';
import type { AppServer } from '../support/app-server.ts';
import { dayAhead } from '../support/days.ts';
import { downloadedSheet } from '../support/files.ts';
import { shot } from '../support/screens.ts';
import { DEMO_OPERATOR, DEMO_PASSWORD, DEMO_USER, login, logout } from '../support/session.ts';

/** Articles on the fake Joomla site whose title contains the text (GET /content/articles?filter[search]=). */
async function siteArticles(request: APIRequestContext, site: AppServer['joomla'], text: string) {
  const res = await request.get(`${site.url}/api/index.php/v1/content/articles?filter[search]=${encodeURIComponent(text)}`, {
    headers: { Accept: 'application/vnd.api+json', 'X-Joomla-Token': site.token },
  });
  expect(res.status()).toBe(200);
  // As Joomla's JSON:API view renders an article: the category is a relationship, not an attribute.
  return (
    (await res.json()) as { data: Array<{ id: string; attributes: { title: string; state: number }; relationships: { category: { data: { id: string } } } }> }
  ).data;
}

test('an operator creates a webinar with sections, it is published to the site and a user finds it in the catalogue', async ({ page, request, app }) => {
  const title = `Вебинар «Цифровая грамотность» ${Date.now() % 100000}`;
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/service');
  await expect(page.getByText('Выберите тип услуги')).toBeVisible();
  await page.getByRole('radio', { name: /Вебинары/ }).click();
  await page.getByText(/^Тематический вебинар/).click();
  await expect(page.getByTestId('services-table')).toBeVisible();
  await shot(page, 'manager-services-desktop');

  await page.getByRole('button', { name: 'Добавить услугу' }).click();
  const modal = page.getByRole('dialog', { name: 'Новая услуга' });
  await modal.getByLabel('Название').fill(title);
  await modal.getByLabel('Цена, ₽').fill('1200');
  await modal.getByLabel('Дата начала').fill(dayAhead(20).iso);
  // The end follows the start: the same day, an hour and a half later.
  await expect(modal.getByLabel('Дата окончания')).toHaveValue(dayAhead(20).iso);
  await expect(modal.locator('input[aria-label="Время окончания"]')).toHaveValue('11:30');
  const addSection = modal.getByRole('button', { name: 'Добавить секцию' });
  await expect(addSection).toBeDisabled();
  await modal.getByLabel('Новая секция').fill('Секция для учителей');
  await addSection.click();
  await modal.getByLabel('Новая секция').fill('Секция для методистов');
  await addSection.click();
  await expect(modal.getByLabel('Секция 2')).toHaveValue('Секция для методистов');
  await shot(page, 'manager-service-modal-desktop');
  await modal.getByRole('button', { name: 'Сохранить' }).click();

  await expect(page.getByText('Успешно сохранено!')).toBeVisible();
  await expect(page.getByText('Услуга опубликована на сайте')).toBeVisible();
  await page.getByLabel('Поиск по названию').fill(title);
  const row = page.getByTestId('service-row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('1 200 ₽');
  await expect(row).toContainText('0 / 54');

  const articles = await siteArticles(request, app.joomla, title);
  expect(articles).toHaveLength(1);
  expect(articles[0]?.attributes).toMatchObject({ title, state: 1 });
  expect(articles[0]?.relationships.category.data.id).toBe('102');
  await row.getByRole('button', { name: `Действия с услугой ${title}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Открыть на сайте' })).toHaveAttribute('href', new RegExp(`id=${articles[0]?.id}`));
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('services-cards')).toBeVisible();
  await shot(page, 'manager-services-mobile');
  await page.setViewportSize({ width: 1280, height: 800 });

  await logout(page);
  await login(page, DEMO_USER, DEMO_PASSWORD);
  await page.goto('/user/service');
  await page.getByPlaceholder(/Поиск/).first().fill(title);
  await expect(page.getByText(title).first()).toBeVisible();
  await shot(page, 'user-catalogue-new-service');
});

test('a link to a deleted service says "Услуга не найдена :("', async ({ page }) => {
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/service/999999');
  await expect(page.getByRole('dialog', { name: 'Услуга не найдена :(' })).toBeVisible();
  await expect(page.getByText('Услуга скрыта или удалена.')).toBeVisible();
});

test('an operator adds a new guest to a service from its entries modal', async ({ page }) => {
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/service?dict_type_id=1&dict_subtype_id=1');
  const row = page.getByTestId('service-row').first();
  await row.getByRole('button', { name: /Заявки услуги/ }).click();
  const modal = page.getByTestId('service-entries-modal');
  await expect(modal.getByText('Гости')).toBeVisible();
  await modal.getByRole('button', { name: 'Новый гость' }).click();
  const fio = `Гостева Алла ${Date.now() % 10000}`;
  await modal.getByRole('textbox', { name: /^ФИО/ }).fill(fio);
  await modal.getByLabel('Организация').fill('Гимназия № 3');
  // A service with sections: the section may be left empty; the guest then goes where the fewest participants are (spec 02 §4).
  await modal.getByRole('button', { name: 'Создать и добавить' }).click();
  await expect(page.getByText('Гость создан и добавлен в услугу')).toBeVisible();
  const entry = modal.getByTestId('service-entry-row').filter({ hasText: fio });
  await expect(entry).toContainText('Завершена');
  await expect(entry.getByTestId('guest-badge')).toHaveText('Гость');
  await expect(entry).toContainText('0 ₽');
  await shot(page, 'manager-service-entries-desktop');
  // The journal of the service as Excel (spec 01 §6, 02 §6): the new guest's row is in it.
  const sheet = await downloadedSheet(page, modal.getByRole('button', { name: 'Журнал в Excel' }), 'Журнал');
  expect(sheet.getRow(1).getCell(3).value).toBe('ФИО');
  const fios = sheet.getColumn(3).values.slice(2);
  expect(fios).toContain(fio);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(modal.getByTestId('service-entries-cards')).toBeVisible();
  await shot(page, 'manager-service-entries-mobile');
});
