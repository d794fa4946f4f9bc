import { expect, test } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { registerInForm } from '../support/session.ts';
import { noticesGone, rub } from '../support/ui.ts';

// A service of the demo catalogue with sections, theses and a price (server/src/db/seed/demo-data.ts).
const SERVICE = 'Всероссийская конференция «Современное образование: традиции и инновации»';
const SECTION = 'Основная и средняя школа';
const PACKAGE = 'Пакет «Активный педагог»';
const PRICE = /^500\s₽$/;

test('a new user fills the profile, applies for a conference with theses, pays later and sees it everywhere', async ({ page }) => {
  await registerInForm(page, 'cabinet', { lastName: 'Лебедева', firstName: 'Ольга', middleName: 'Сергеевна', jobTitle: 'Учитель русского языка' });

  // No work profiles yet: the dashboard asks for them.
  const fillProfiles = page.getByTestId('fill-profiles');
  await expect(fillProfiles).toContainText('Заполните профили!');
  await fillProfiles.getByRole('link').click();
  await expect(page).toHaveURL(/\/user\/profile$/);
  await expect(page.getByLabel('Фамилия')).toBeDisabled();
  await expect(page.getByLabel('Фамилия')).toHaveValue('Лебедева');
  await page.getByRole('combobox', { name: 'Профили' }).click();
  await page.getByRole('option', { name: 'Русский язык и литература' }).click();
  await page.keyboard.press('Escape');
  await page.getByLabel('Узнали о нас').fill('От коллег');
  await page.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Успешно сохранено!')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await noticesGone(page);
  await shot(page, 'cabinet-profile');

  // Catalogue: choose the type, open the conference.
  await page.getByRole('link', { name: 'Услуги', exact: true }).first().click();
  await expect(page).toHaveURL(/\/user\/service$/);
  await page.getByRole('radio', { name: /^Конференции/ }).click();
  await expect(page.getByTestId('service-list')).toBeVisible();
  await expect(page.getByTestId('service-card').filter({ hasText: SERVICE })).toBeVisible();
  await shot(page, 'cabinet-catalogue');
  await page.getByTestId('service-card').filter({ hasText: SERVICE }).click();
  await expect(page).toHaveURL(/\/user\/service\/\d+\?type=\d+$/);

  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(SERVICE)).toBeVisible();
  const submit = dialog.getByRole('button', { name: 'Отправить заявку' });
  // Untouched, the form says nothing; the button looks disabled until a section is chosen.
  await expect(dialog.getByText('Выберите секцию!')).toHaveCount(0);
  await expect(submit).toBeDisabled();
  await dialog.getByRole('radio', { name: SECTION }).check();
  await expect(submit).toBeEnabled();
  await shot(page, 'cabinet-entry-modal');
  await submit.click();
  await expect(page.getByText('Заявка успешно отправлена!').first()).toBeVisible();

  // Theses step: 1600 characters.
  await expect(dialog.getByTestId('thesis-counter')).toHaveText('0 / больше 1500 и меньше 10000');
  await expect(dialog.getByTestId('thesis-problem')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Сохранить' })).toBeDisabled();
  await dialog.getByLabel('Тезисы').fill('Коротко.');
  await expect(dialog.getByText('Допишите ваши тезисы, сейчас они слишком короткие (минимум 1500 символов)')).toBeVisible();
  const theses = 'Формирующее оценивание помогает ученику видеть свой прогресс. '.repeat(30).slice(0, 1600);
  await dialog.getByLabel('Тезисы').fill(theses);
  await expect(dialog.getByTestId('thesis-counter')).toHaveText('1600 / больше 1500 и меньше 10000');
  await shot(page, 'cabinet-theses-step');
  await dialog.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Успешно сохранено!').first()).toBeVisible();

  // Pay step: later.
  await expect(dialog.getByTestId('pay-step')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Оплатить сейчас' })).toBeVisible();
  // From here on, the page must not reload: the notification has to arrive by polling.
  await page.evaluate(() => ((window as unknown as { e2eMarker: boolean }).e2eMarker = true));
  await dialog.getByRole('button', { name: 'Оплатить позже' }).click();
  await expect(page).toHaveURL(/\/user\/entry$/);

  // My entries: the row, its status and price; no theses banner (theses are there).
  const row = page.getByTestId('entry-row').filter({ hasText: SERVICE });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('entry-status')).toHaveText('Не оплачена');
  await expect(row.getByTestId('entry-price')).toHaveText(PRICE);
  await expect(row.getByText(SECTION)).toBeVisible();
  await expect(row.getByRole('button', { name: rub('Оплатить 500 ₽') })).toBeVisible();
  await expect(page.getByTestId('theses-banner')).toHaveCount(0);
  await noticesGone(page);
  await shot(page, 'cabinet-entries-table');

  // The tag button reopens the saved theses.
  await row.getByRole('button', { name: /^Тезисы заявки/ }).click();
  const thesisDialog = page.getByRole('dialog');
  await expect(thesisDialog.getByTestId('thesis-counter')).toHaveText('1600 / больше 1500 и меньше 10000');
  await thesisDialog.getByRole('button', { name: 'Отмена' }).click();
  await expect(thesisDialog).toHaveCount(0);

  // The sidebar badge carries the remaining sum.
  const entriesLink = page.getByRole('link', { name: /^Мои заявки/ });
  await expect(entriesLink.locator('.mantine-Badge-root')).toHaveText(PRICE);

  // The bell gets the entry-created notification by polling, without a reload (the welcome one came at registration).
  const bell = page.getByRole('button', { name: /Уведомления/ }).first();
  await expect(page.getByTestId('bell-indicator').locator('.mantine-Indicator-indicator')).toHaveText('2', { timeout: 10_000 });
  await bell.click();
  await expect(page.getByTestId('bell-dropdown').getByTestId('notification-item').first()).toContainText('создана', { timeout: 10_000 });
  await shot(page, 'cabinet-bell');
  await page.keyboard.press('Escape');
  expect(await page.evaluate(() => (window as unknown as { e2eMarker?: boolean }).e2eMarker)).toBe(true);

  // Dashboard widgets.
  await page.getByRole('link', { name: 'Главная', exact: true }).first().click();
  await expect(page.getByTestId('widget-entries')).toContainText('1');
  await expect(page.getByTestId('widget-entries')).toContainText('Баллов будет начислено: 0');
  await expect(page.getByTestId('widget-left-sum')).toContainText('500');
  await expect(page.getByTestId('unpaid-block')).toContainText('Оплатить');
  await expect(page.getByTestId('fill-profiles')).toHaveCount(0);
  await shot(page, 'cabinet-dashboard');

  // Search modal from the top bar.
  await page.getByRole('banner').getByRole('textbox', { name: 'Поиск услуг' }).fill('КОНФЕРЕНЦИЯ');
  const searchDialog = page.getByRole('dialog');
  await expect(searchDialog.getByText(/^Найдено записей: \d$/)).toBeVisible();
  await expect(searchDialog.getByTestId('search-result').first().locator('mark').first()).toHaveText(/конференция/i);
  await shot(page, 'cabinet-search-modal');
  await searchDialog.getByRole('textbox', { name: 'Поиск услуг' }).fill('');
  await expect(searchDialog).toHaveCount(0);
  // A picked result opens the enrol modal over the current page.
  await page.getByRole('banner').getByRole('textbox', { name: 'Поиск услуг' }).fill('лучший урок');
  await page.getByRole('dialog').getByTestId('search-result').first().click();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Отправить заявку' })).toBeVisible();
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Notifications page.
  await page.goto('/user/notifications');
  await expect(page.getByRole('heading', { name: 'Новых уведомлений: 2' })).toBeVisible();
  await expect(page.getByTestId('notification-item').first()).toContainText('создана');
  await expect(page.getByTestId('notification-item').nth(1)).toContainText('Добро пожаловать');
  await shot(page, 'cabinet-notifications');
  await page.getByRole('button', { name: 'Очистить' }).click();
  await expect(page.getByRole('heading', { name: 'Новых уведомлений: 0' })).toBeVisible();

  // Package modal: pay is enabled only when every service with sections has one, and never for a
  // package holding a service already applied for (this user applied for its conference).
  await page.getByRole('link', { name: 'Пакеты услуг', exact: true }).first().click();
  await expect(page.getByTestId('package-card')).toHaveCount(2);
  await shot(page, 'cabinet-packages');
  await page.getByTestId('package-card').filter({ hasText: PACKAGE }).getByRole('button', { name: 'Записаться' }).click();
  const packageDialog = page.getByRole('dialog');
  const payPackage = packageDialog.getByRole('button', { name: rub('Оплатить 1 900 ₽') });
  await expect(payPackage).toBeDisabled();
  const sections = packageDialog.getByRole('combobox', { name: 'Секция' });
  const count = await sections.count();
  for (let i = 0; i < count; i++) {
    await sections.nth(i).click();
    await page.getByRole('option').last().click();
  }
  await expect(packageDialog.getByTestId('package-applied')).toContainText(SERVICE);
  await expect(payPackage).toBeDisabled();
  await shot(page, 'cabinet-package-modal');
  await page.keyboard.press('Escape');

  // A narrow screen lists entries as cards.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/user/entry');
  await expect(page.getByTestId('entry-card').filter({ hasText: SERVICE })).toBeVisible();
  await expect(page.getByTestId('entries-table')).toHaveCount(0);
  await shot(page, 'cabinet-entries-cards-narrow');
  await page.goto('/user/service');
  await expect(page.getByTestId('service-card').first()).toBeVisible();
  await shot(page, 'cabinet-catalogue-narrow');
});

test('the demo user sees a lived-in dashboard; a link to an unknown service says it is not found', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Телефон или e-mail').fill('demo-user@example.com');
  await page.getByLabel('Пароль', { exact: true }).fill('demo1234');
  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  // A lived-in cabinet: unpaid entries to pay, a paid package as one item, a free entry as 'Бесплатно'.
  const block = page.getByTestId('unpaid-block');
  await expect(block.getByRole('button', { name: /Оплатить/ }).first()).toBeVisible();
  await expect(page.getByTestId('pinned-package')).toHaveCount(0);
  await shot(page, 'cabinet-dashboard-lived-in');

  // The review modal from the avatar menu.
  await page.getByRole('button', { name: 'Меню пользователя' }).click();
  await page.getByRole('menuitem', { name: 'Оставить отзыв' }).click();
  const review = page.getByRole('dialog');
  await expect(review.getByText('Отзыв будет опубликован на сайте сразу после проверки оператором')).toBeVisible();
  await expect(review.getByRole('button', { name: 'Сохранить' })).toBeDisabled();
  await review.getByLabel('Отзыв').fill('Спасибо за понятный кабинет и быстрые ответы!');
  await review.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Заявка успешно отправлена!')).toBeVisible();
  await expect(review).toHaveCount(0);

  // Settings: the form itself says when the passwords differ.
  await page.goto('/user/settings');
  await page.getByLabel('Новый пароль').fill('abcd1234');
  await page.getByLabel('Подтверждение пароля').fill('abcd12345');
  await expect(page.getByText('Пароли не совпадают!')).toBeVisible();

  await page.goto('/user/service/999999');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Услуга не найдена :(')).toBeVisible();
  await dialog.getByRole('button', { name: 'К услугам' }).click();
  await expect(page).toHaveURL(/\/user\/service$/);
});
