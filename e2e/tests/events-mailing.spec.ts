import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '../support/test.ts';
import type { AppServer } from '../support/app-server.ts';
import { simpleParser, type ParsedMail } from 'mailparser';
import { MailingMessages } from '@edu/domain/mailing/mailing';
import { outputDir, shot } from '../support/screens.ts';
import { clientWithEntry, DEMO_OPERATOR, DEMO_PASSWORD, login, registerInForm, uniqueTag } from '../support/session.ts';

/** The worker's app's mail outbox (the server writes .eml files there when no SMTP is set). */
const outbox = (app: AppServer) => path.join(app.dataDir, 'mail');

/** Letters in the outbox folder. */
async function letters(app: AppServer): Promise<ParsedMail[]> {
  if (!fs.existsSync(outbox(app))) return [];
  const files = fs.readdirSync(outbox(app)).filter((f) => f.endsWith('.eml'));
  return Promise.all(files.map(async (f) => simpleParser(fs.readFileSync(path.join(outbox(app), f)))));
}

async function waitForLetter(app: AppServer, pred: (m: ParsedMail) => boolean): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect(async () => {
    found = (await letters(app)).find(pred);
    expect(found).toBeDefined();
  }).toPass({ timeout: 20_000, intervals: [500, 1000] });
  return found!;
}

const to = (m: ParsedMail) => JSON.stringify(m.to ?? '');
const MailingSubject = 'Тема письма';

async function openWelcomeTemplate(page: Page) {
  await page.goto('/manager/events');
  await expect(page.getByRole('heading', { name: 'События' })).toBeVisible();
  await page.getByRole('button', { name: 'Шаблон: Регистрация пользователя' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
}

test('the operator edits the welcome template with a macro; a new user registers and the letter in the outbox has it filled', async ({
  page,
  browser,
  app,
}) => {
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await openWelcomeTemplate(page);
  await expect(page.getByTestId('macro-panel').getByText('${user.first_name}')).toBeVisible();
  await shot(page, 'events-template-modal-desktop');

  // Unknown macros are refused by the server and shown under the field.
  const subject = page.getByLabel('Тема письма');
  await subject.fill('Привет, ${user.nickname}!');
  await page.getByRole('button', { name: 'Сохранить' }).click();
  // Under the field and as the headline (nothing is empty, so the field's own message leads).
  await expect(page.locator('.mantine-InputWrapper-error', { hasText: 'Неизвестные макросы: ${user.nickname}' })).toBeVisible();
  await expect(page.locator('.mantine-Notification-description', { hasText: 'Неизвестные макросы: ${user.nickname}' })).toBeVisible();
  await shot(page, 'events-template-unknown-macro-desktop');

  // Clicking a macro copies it.
  await page.getByPlaceholder('Поиск по названию или описанию').fill('организац');
  await page.getByRole('button', { name: 'Скопировать ${user.organization}' }).click();
  await expect(page.getByText('Скопировано в буфер обмена')).toBeVisible();

  await subject.fill('Добро пожаловать, ${user.first_name}!');
  const body = page.getByRole('textbox', { name: 'Текст письма' });
  await body.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Ваша организация: ${user.organization}.');
  await page.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Успешно сохранено!')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('event-1')).toContainText('Добро пожаловать, ${user.first_name}!');
  await shot(page, 'events-desktop');

  // A new visitor registers.
  const visitor = await browser.newPage();
  const { email } = await registerInForm(visitor, 'welcome', {
    lastName: 'Воронцова',
    firstName: 'Дарья',
    middleName: 'Игоревна',
    organization: 'Лицей № 239',
    jobTitle: 'Учитель физики',
  });

  const letter = await waitForLetter(app, (m) => to(m).includes(email));
  expect(letter.subject).toBe('Добро пожаловать, Дарья!');
  expect(letter.html).toContain('Ваша организация: Лицей № 239.');
  expect(letter.html).toContain('Здравствуйте, Воронцова Дарья Игоревна!');
  expect(letter.text).toContain('Ваша организация: Лицей № 239.');
  // The welcome notification from its template reaches the bell.
  await expect(visitor.getByText('Добро пожаловать в личный кабинет, Дарья!').first()).toBeVisible({ timeout: 15_000 });
  await visitor.close();
});

test('the operator sends a mailing and watches its progress; a reader unsubscribes by the link without logging in', async ({ page, browser, app }) => {
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/mailing');
  // The title follows the audience (issue 28): everyone, counted.
  await expect(page.getByTestId('mailing-title')).toHaveText(/^Рассылка: \d+ получател(ь|я|ей)$/);
  await expect(page).toHaveTitle(/^Рассылка: \d+ получател/);
  // No made-up subject: the field starts empty and is asked for.
  const subject = page.getByLabel(MailingSubject);
  await expect(subject).toHaveValue('');
  await page.getByRole('button', { name: 'Отправить', exact: true }).click();
  await expect(page.getByText('Введите текст письма')).toBeVisible();
  await expect(page.getByText('Введите тему письма')).toBeVisible();
  // The macro panel of the event templates, with only what a mass letter can fill.
  const macros = page.getByTestId('macro-panel');
  await expect(macros.getByText('${user.first_name}')).toBeVisible();
  await expect(macros.getByText('${org.name}')).toBeVisible();
  await expect(macros.getByText('${entry.number}')).toHaveCount(0);
  await expect(macros.getByText('${password}')).toHaveCount(0);

  const marker = `Весенний форум ${Date.now().toString().slice(-5)}`;
  // An unknown macro is refused by the server, named under its field.
  await subject.fill('Приглашение для ${user.nickname}');
  const editor = page.getByRole('textbox', { name: 'Текст письма' });
  await editor.click();
  await page.keyboard.type(`Здравствуйте, \${user.first_name}! Приглашаем на ${marker}!`);
  await page.keyboard.press('Enter');
  await page.keyboard.type('Регистрация открыта в личном кабинете.');
  await page.getByRole('button', { name: 'Предпросмотр' }).click();
  await expect(page.locator('.mantine-InputWrapper-error', { hasText: 'Неизвестные макросы: ${user.nickname}' })).toBeVisible();
  await subject.fill('Приглашение для ${user.first_name}');
  await shot(page, 'mailing-filled-desktop');
  await page.getByRole('button', { name: 'Отправить', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Отправить', exact: true }).click();
  await expect(page.getByText('Письмо успешно отправлено всем пользователем!')).toBeVisible();

  const card = page.locator('[data-testid^="mailing-"]').filter({ hasText: marker });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('mailing-status')).toHaveText('Завершена', { timeout: 20_000 });
  await expect(card).toContainText('Осталось');
  await shot(page, 'mailing-progress-desktop');

  // Leaving and coming back: the progress is still there.
  await page.goto('/manager/events');
  await page.goto('/manager/mailing');
  await expect(page.locator('[data-testid^="mailing-"]').filter({ hasText: marker }).getByTestId('mailing-status')).toHaveText('Завершена');

  const letter = await waitForLetter(app, (m) => to(m).includes('demo-user@example.com') && String(m.html).includes(marker));
  // Each reader's own name, never the macro.
  expect(letter.subject).toBe('Приглашение для Мария');
  expect(letter.text).toContain(`Здравствуйте, Мария! Приглашаем на ${marker}!`);
  expect(letter.html).not.toContain('${');
  const link = /\/unsubscribe\/([0-9a-f-]{36})/.exec(String(letter.html))![0];

  const reader = await browser.newPage();
  await reader.goto(link);
  await expect(reader.getByTestId('unsubscribed')).toContainText('Вы отписались от рассылки учебного центра.');
  await shot(reader, 'unsubscribe-desktop');
  await reader.close();

  // The reader's settings show the switch off.
  const user = await browser.newPage();
  await login(user, 'demo-user@example.com', DEMO_PASSWORD);
  await user.goto('/user/settings');
  const toggle = user.getByLabel('Получать рассылку учебного центра');
  await expect(toggle).not.toBeChecked();
  await toggle.click({ force: true });
  await expect(toggle).toBeChecked();
  await expect(user.getByText('Данные сохранены!')).toBeVisible();
  await shot(user, 'settings-mailing-desktop');
  await user.close();
});

test('a mailing to a filtered audience: the count before sending, a preview, a test letter to the operator, then only the audience gets it', async ({
  page,
  request,
  app,
}) => {
  // A client with an unpaid entry of demo service 5 (a course), and the demo user without one.
  const { email } = await clientWithEntry(request, 'audience', { lastName: 'Адресатова', firstName: 'Вера', middleName: 'Ильинична' });
  const second = await clientWithEntry(request, 'audience2', { lastName: 'Получателева', firstName: 'Нина', middleName: 'Олеговна' });

  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/mailing');
  const recipients = page.getByTestId('mailing-recipients');
  await expect(recipients).toContainText(/Получателей: \d+/);
  const everyone = Number(/Получателей: ([\d\s\u00a0]+)/.exec((await recipients.textContent()) ?? '')?.[1]?.replace(/\D/g, ''));
  await page.getByLabel(MailingSubject).fill('${user.first_name}, напоминаем об оплате курса');
  // Services: search by title and choose; entry status: not paid.
  const audience = page.getByTestId('mailing-audience');
  await audience.getByRole('combobox', { name: 'Услуги', exact: true }).fill('ФГОС ООО');
  await page.getByRole('option', { name: /ФГОС ООО: проектирование/ }).click();
  await audience.getByRole('combobox', { name: 'Статус заявки', exact: true }).click();
  await page.getByRole('option', { name: 'Не оплачена' }).click();
  await page.keyboard.press('Escape');
  await expect(recipients).toContainText('Статус заявки: Не оплачена');
  const counted = Number(/Получателей: ([\d\s\u00a0]+)/.exec((await recipients.textContent()) ?? '')?.[1]?.replace(/\D/g, ''));
  expect(counted).toBeGreaterThanOrEqual(1);
  expect(counted).toBeLessThan(everyone);
  await expect(page.getByTestId('mailing-title')).toHaveText(MailingMessages.titleFor(counted));

  const marker = `Оплата курса ${uniqueTag()}`;
  await page.getByRole('textbox', { name: 'Текст письма' }).click();
  await page.keyboard.type(`Здравствуйте, \${user.fio}! ${marker}: заявка ждёт оплаты.`);
  await page.getByRole('button', { name: 'Предпросмотр' }).click();
  // With the first recipient's values; then the client's, chosen from the audience.
  const preview = page.getByRole('dialog', { name: 'Предпросмотр' });
  await expect(preview.getByTestId('mailing-preview-subject')).toContainText('напоминаем об оплате курса');
  await expect(preview.getByTestId('mailing-preview-subject')).not.toContainText('${');
  await preview.getByRole('combobox', { name: 'Данные получателя' }).click();
  await page.getByRole('option', { name: `Получателева Нина Олеговна (${second.email})` }).click();
  await expect(preview.getByTestId('mailing-preview-subject')).toContainText('Нина, напоминаем об оплате курса');
  await expect(preview.frameLocator('[data-testid="mailing-preview"]').locator('body')).toContainText(`Здравствуйте, Получателева Нина Олеговна! ${marker}`);
  await shot(page, 'mailing-preview-desktop');
  await page.keyboard.press('Escape');

  // The test letter has the same recipient's values and goes to the operator.
  await page.getByRole('button', { name: 'Отправить тестовое письмо себе' }).click();
  await expect(page.getByText(`Тестовое письмо отправлено на ${DEMO_OPERATOR}`)).toBeVisible();
  const test = await waitForLetter(app, (m) => to(m).includes(DEMO_OPERATOR) && String(m.html).includes(marker));
  expect(test.subject).toBe('[Тест] Нина, напоминаем об оплате курса');
  expect(test.html).toContain('Здравствуйте, Получателева Нина Олеговна!');
  await shot(page, 'mailing-audience-desktop');

  await page.getByRole('button', { name: 'Отправить', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: MailingMessages.titleFor(counted) });
  await expect(confirm).toContainText(`Отправить письмо ${counted}`);
  await confirm.getByRole('button', { name: 'Отправить', exact: true }).click();
  const card = page.locator('[data-testid^="mailing-"]').filter({ hasText: marker });
  await expect(card.getByTestId('mailing-status')).toHaveText('Завершена', { timeout: 20_000 });
  await expect(card.getByTestId('mailing-audience-label')).toContainText('Статус заявки: Не оплачена');
  const got = await waitForLetter(app, (m) => to(m).includes(email) && String(m.html).includes(marker));
  expect(got.subject).toBe('Вера, напоминаем об оплате курса');
  expect(got.html).toContain('Здравствуйте, Адресатова Вера Ильинична!');
  const toSecond = await waitForLetter(app, (m) => to(m).includes(second.email) && String(m.html).includes(marker));
  expect(toSecond.subject).toBe('Нина, напоминаем об оплате курса');
  expect(toSecond.html).toContain('Здравствуйте, Получателева Нина Олеговна!');
  // Exactly the counted audience got it (the test letter aside).
  const sent = (await letters(app)).filter((m) => String(m.html).includes(marker) && !String(m.subject).startsWith('[Тест]'));
  expect(sent).toHaveLength(counted);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'mailing-audience-narrow');
});

test('events and mailing at 390 px: cards and a full-screen template', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto('/manager/events');
  await expect(page.getByTestId('event-1')).toBeVisible();
  await expect(page.locator('table')).toHaveCount(0);
  await shot(page, 'events-narrow');
  await page.screenshot({ path: path.join(outputDir, 'events-narrow-top.png') });
  await page.getByRole('button', { name: 'Шаблон: Заявка оплачена' }).click();
  await expect(page.getByLabel('Тема письма')).toHaveValue('Оплата заявки № ${entry.number} получена');
  await page.screenshot({ path: path.join(outputDir, 'events-template-narrow.png') });
  await page.keyboard.press('Escape');
  await page.goto('/manager/mailing');
  await expect(page.getByTestId('mailing-title')).toHaveText(/^Рассылка: \d+ получател/);
  await expect(page.getByTestId('macro-panel').getByText('${user.first_name}')).toBeVisible();
  await page.screenshot({ path: path.join(outputDir, 'mailing-narrow.png') });
  await shot(page, 'mailing-narrow-full');
  await page.getByLabel(MailingSubject).fill('Новости для ${user.first_name}');
  await page.getByRole('textbox', { name: 'Текст письма' }).click();
  await page.keyboard.type('Здравствуйте, ${user.fio}!');
  await page.getByRole('button', { name: 'Предпросмотр' }).click();
  await expect(page.getByRole('dialog', { name: 'Предпросмотр' }).getByTestId('mailing-preview-subject')).not.toContainText('${');
  await page.screenshot({ path: path.join(outputDir, 'mailing-preview-narrow.png') });
});
