import { expect, test, type Page } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { DEMO_OPERATOR, DEMO_PASSWORD, login } from '../support/session.ts';

// The operator's screens around publications (spec 03 §2): releases, prices, rubrics, reviews.

const notice = (page: Page, text: string) => expect(page.getByText(text, { exact: true }).last()).toBeVisible();

async function confirmYes(page: Page) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Да' }).click();
  await expect(dialog).toBeHidden();
}

async function narrowShot(page: Page, name: string, ready: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId(`${ready}-cards`)).toBeVisible();
  // The sidebar slides away at this width.
  await page.waitForTimeout(500);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId(`${ready}-table`)).toBeVisible();
}

test('releases: create, edit, hide, publish once, unpublish', async ({ page }) => {
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/publication-releases');
  await expect(page.getByRole('link', { name: 'Выпуски журнала' }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Выпуски журнала' })).toBeVisible();
  const table = page.getByTestId('releases-table');
  await expect(table.getByText('Выпуск №1', { exact: false }).first()).toBeVisible();
  await shot(page, 'releases-1280');

  await page.getByRole('button', { name: 'Добавить' }).click();
  const modal = page.getByRole('dialog', { name: 'Выпуск' });
  // The form refuses an empty title before asking the server.
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(modal.getByText('Обязательное поле').first()).toBeVisible();
  await modal.getByLabel('Название').fill('Выпуск №9 (проверка)');
  await modal.getByLabel('Тип публикации').click();
  await page.getByRole('option', { name: 'Публикация в журнале' }).click();
  await modal.getByLabel('Ссылка на сборник').fill('https://example.com/journal/9');
  await shot(page, 'releases-modal-1280');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await notice(page, 'Успешно сохранено!');
  await expect(modal).toBeHidden();

  await page.getByRole('button', { name: 'Редактировать Выпуск №9 (проверка)' }).click();
  await modal.getByLabel('Название').fill('Выпуск №9');
  await modal.getByLabel('Ссылка на содержание').fill('https://example.com/journal/9/contents');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(modal).toBeHidden();
  const row = table.getByTestId('release-row').filter({ hasText: 'Выпуск №9' }).filter({ hasText: 'Содержание' });
  await expect(row).toHaveCount(1);
  // Visible releases offer hide, not publish.
  await expect(row.getByRole('button', { name: 'Опубликовать: Выпуск №9' })).toHaveCount(0);

  await row.getByRole('button', { name: 'Скрыть: Выпуск №9' }).click();
  await confirmYes(page);
  await notice(page, 'Выпуск скрыт');
  await expect(row.getByText('Скрыт', { exact: true })).toBeVisible();
  const publish = row.getByRole('button', { name: 'Опубликовать: Выпуск №9' });
  const unpublish = row.getByRole('button', { name: 'Снять с публикации: Выпуск №9' });
  await expect(unpublish).toBeDisabled();

  await publish.click();
  await confirmYes(page);
  await notice(page, 'Успешно опубликовано!');
  await expect(row.getByText('Опубликован', { exact: true })).toBeVisible();
  await expect(publish).toBeDisabled();
  await shot(page, 'releases-published-1280');

  await unpublish.click();
  await confirmYes(page);
  await notice(page, 'Публикация выпуска снята');
  await expect(publish).toBeEnabled();
  await expect(row.getByText('Опубликован', { exact: true })).toHaveCount(0);

  await narrowShot(page, 'releases', 'releases');

  // An empty release can be deleted.
  await row.getByRole('button', { name: 'Удалить: Выпуск №9' }).click();
  await confirmYes(page);
  await notice(page, 'Успешно удалено!');
  await expect(row).toHaveCount(0);
});

test('prices: edit a price, shown as 1 500 ₽', async ({ page }) => {
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/publication-prices');
  await expect(page.getByRole('heading', { name: 'Цены публикаций' })).toBeVisible();
  const table = page.getByTestId('prices-table');
  await expect(table.getByRole('columnheader', { name: 'Кол-во авторов' })).toBeVisible();
  await shot(page, 'prices-1280');

  await page.getByRole('button', { name: 'Редактировать Интернет-публикация, авторов: 2' }).click();
  const modal = page.getByRole('dialog');
  await modal.getByLabel('Цена').fill('1500');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await notice(page, 'Успешно сохранено!');
  await expect(modal).toBeHidden();
  const row = table
    .getByTestId('price-row')
    .filter({ hasText: 'Интернет-публикация' })
    .filter({ has: page.getByRole('cell', { name: '2', exact: true }) });
  await expect(row.getByText('1 500 ₽')).toBeVisible();

  // A second price for the same type and author count is refused under the field.
  await page.getByRole('button', { name: 'Добавить' }).click();
  await modal.getByLabel('Тип').click();
  await page.getByRole('option', { name: 'Интернет-публикация' }).click();
  await modal.getByLabel('Кол-во авторов').fill('2');
  await modal.getByLabel('Цена').fill('100');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(modal.getByText('Цена для этого типа и количества авторов уже задана')).toBeVisible();
  await shot(page, 'prices-duplicate-1280');
  await modal.getByRole('button', { name: 'Отмена' }).click();

  await narrowShot(page, 'prices', 'prices');
});

test('rubrics: add a rubric with a site category', async ({ page }) => {
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/publication-categories');
  await expect(page.getByRole('heading', { name: 'Рубрики публикаций' })).toBeVisible();
  const table = page.getByTestId('rubrics-table');
  await expect(table.getByText('Дошкольное образование')).toBeVisible();
  await shot(page, 'rubrics-1280');

  await page.getByRole('button', { name: 'Добавить' }).click();
  const modal = page.getByRole('dialog');
  await modal.getByLabel('Название').fill('Музыкальное воспитание');
  await modal.getByLabel('Адрес на сайте').fill('муз');
  await modal.getByLabel('Описание').fill('Сценарии музыкальных занятий и праздников.');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await expect(modal.getByText('Только латинские буквы, цифры и дефис')).toBeVisible();
  await modal.getByLabel('Адрес на сайте').fill('muzykalnoe-vospitanie');
  // The fake site answers: the site's categories are a list.
  await modal.getByLabel('Категория на сайте').click();
  await page.getByRole('option', { name: 'Раздел сайта 3' }).click();
  await shot(page, 'rubrics-modal-1280');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await notice(page, 'Успешно сохранено!');
  await expect(modal).toBeHidden();
  await expect(table.getByTestId('rubric-row').filter({ hasText: 'Музыкальное воспитание' })).toContainText('Сценарии музыкальных занятий');

  await page.getByRole('button', { name: 'Редактировать Музыкальное воспитание' }).click();
  await expect(modal.getByLabel('Категория на сайте')).toHaveValue('Раздел сайта 3');
  await modal.getByRole('button', { name: 'Отмена' }).click();

  await narrowShot(page, 'rubrics', 'rubrics');
});

test('reviews: edit, accept and decline pending ones; publish one for an author', async ({ page }) => {
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/reviews');
  await expect(page.getByRole('heading', { name: 'Отзывы', exact: true })).toBeVisible();
  const table = page.getByTestId('reviews-table');
  const rows = table.getByTestId('review-row');
  // The three seeded pending reviews, and any a client left in an earlier journey.
  await expect(rows.filter({ hasText: 'профилактике выгорания' })).toHaveCount(1);
  const pending = await rows.count();
  expect(pending).toBeGreaterThanOrEqual(3);
  await shot(page, 'reviews-1280');

  // Edit the first pending review.
  const first = rows.filter({ hasText: 'профилактике выгорания' });
  await first.getByRole('button', { name: /^Редактировать/ }).click();
  const modal = page.getByRole('dialog', { name: 'Редактирование отзыва' });
  await modal.getByLabel('Текст отзыва').fill('Очень понравился вебинар о профилактике выгорания. Спасибо!');
  await modal.getByRole('button', { name: 'Сохранить' }).click();
  await notice(page, 'Успешно сохранено!');
  await expect(first).toContainText('вебинар о профилактике выгорания. Спасибо!');

  // Accept it: it leaves the pending list.
  await first.getByRole('button', { name: /^Принять/ }).click();
  await confirmYes(page);
  await notice(page, 'Успешно опубликовано!');
  await expect(rows).toHaveCount(pending - 1);

  // Decline another.
  const second = rows.filter({ hasText: 'Статью опубликовали быстро' });
  await second.getByRole('button', { name: /^Отклонить/ }).click();
  await confirmYes(page);
  await notice(page, 'Успешно удалено!');
  await expect(rows).toHaveCount(pending - 2);

  // Publish a review for an author picked by fio.
  await page.getByRole('button', { name: 'Опубликовать' }).click();
  await expect(page.getByText('Выберите автора из выпадающего списка!')).toBeVisible();
  const author = page.getByRole('combobox', { name: 'Автор' });
  await author.fill('Соколова');
  await page.getByRole('option', { name: /Соколова Елена Андреевна/ }).click();
  await page.getByLabel('Текст отзыва').fill('Спасибо за конкурс: интересные задания и быстрые дипломы.');
  await expect(page.getByText('Выберите автора из выпадающего списка!')).toHaveCount(0);
  await shot(page, 'reviews-publish-1280');
  await page.getByRole('button', { name: 'Опубликовать' }).click();
  await notice(page, 'Успешно опубликовано!');
  await expect(page.getByLabel('Текст отзыва')).toHaveValue('');
  // Published at once, so not among the pending ones.
  await expect(rows).toHaveCount(pending - 2);

  await narrowShot(page, 'reviews', 'reviews');
});
