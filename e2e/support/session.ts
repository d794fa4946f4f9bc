import { expect, type APIRequestContext, type Page } from '@playwright/test';

// Who a journey acts as: the seeded demo accounts, and fresh clients made through the API or the
// registration form. One helper per job; a journey never writes its own.

export const DEMO_USER = 'demo-user@example.com';
export const DEMO_OPERATOR = 'demo-operator@example.com';
export const DEMO_PASSWORD = 'demo1234';
/** Demo service 5: the qualification course «ФГОС ООО: проектирование рабочей программы» (4 900 ₽, remote; its type needs a contract). */
export const DEMO_COURSE_ID = 5;

/** Fills the login form and presses «Войти» (where it leads is the caller's to check). */
export async function submitLogin(page: Page, loginValue: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Телефон или e-mail').fill(loginValue);
  await page.getByLabel('Пароль', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Войти' }).click();
}

/** Signs in through the login form and waits for the dashboard. */
export async function login(page: Page, loginValue: string, password: string): Promise<void> {
  await submitLogin(page, loginValue, password);
  await expect(page).toHaveURL(/\/user\/dashboard$/);
}

/**
 * Signs out through the user menu and waits for the login page. The sign-out request is the event
 * waited for: a click lost to a re-render of the header (the viewport just changed, a notification
 * popped up) sent nothing, and the menu is opened again; a request sent must be answered 204.
 */
export async function logout(page: Page): Promise<void> {
  await expect(async () => {
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Меню пользователя' }).click();
    const sent = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/logout', { timeout: 5_000 });
    await page.getByRole('menuitem', { name: 'Выйти' }).click({ timeout: 5_000 });
    expect((await sent).status()).toBe(204);
  }).toPass({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/login$/);
}

/** A bearer token through POST /login. */
export async function tokenOf(request: APIRequestContext, email: string, password: string): Promise<string> {
  const answer = await request.post('/login', { data: { email, password } });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { access_token: string }).access_token;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The operator's bearer headers. */
export async function operatorHeaders(request: APIRequestContext): Promise<{ Authorization: string }> {
  return bearer(await tokenOf(request, DEMO_OPERATOR, DEMO_PASSWORD));
}

/** What the registration form asks; `phone` is the ten digits after +7. */
export interface Person {
  lastName: string;
  firstName: string;
  /** Empty: none (the form's «Нет отчества»). */
  middleName: string;
  email: string;
  phone: string;
  organization: string;
  jobTitle: string;
  password: string;
}

let made = 0;

/** Nine digits no other person of this run has: the clock, a counter and chance. */
function uniqueDigits(): string {
  made += 1;
  return `${Date.now() % 1_000_000}`.padStart(6, '0') + `${made % 10}` + `${Math.floor(Math.random() * 100)}`.padStart(2, '0');
}

/** A new person; `tag` starts the e-mail (which journey made it), the rest may be given. */
export function newPerson(tag: string, given: Partial<Person> = {}): Person {
  const digits = uniqueDigits();
  return {
    lastName: 'Тестова',
    firstName: 'Анна',
    middleName: 'Викторовна',
    email: `${tag}-${digits}@example.com`,
    phone: `9${digits}`,
    organization: 'Школа № 7',
    jobTitle: 'Учитель',
    password: 'Client-2026!',
    ...given,
  };
}

/** Seven digits to make a name unique in this run (e.g. a middle name a list is filtered by). */
export const uniqueTag = () => uniqueDigits().slice(-7);

export const fioOf = (p: Pick<Person, 'lastName' | 'firstName' | 'middleName'>) => [p.lastName, p.firstName, p.middleName].filter(Boolean).join(' ');

/** The phone as the app stores and shows it: +7 (999) 999-99-99. */
export const maskedPhone = (digits: string) => `+7 (${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6, 8)}-${digits.slice(8, 10)}`;

export interface Client extends Person {
  id: number;
  fio: string;
  token: string;
  headers: { Authorization: string };
}

/** A fresh client through POST /register (a JSON:API document, spec 01 §7). */
export async function registerClient(request: APIRequestContext, tag: string, given: Partial<Person> = {}): Promise<Client> {
  const person = newPerson(tag, given);
  const attributes = {
    last_name: person.lastName,
    first_name: person.firstName,
    middle_name: person.middleName,
    phone: maskedPhone(person.phone),
    email: person.email,
    organization: person.organization,
    job_title: person.jobTitle,
    password: person.password,
    password_confirmation: person.password,
  };
  const registered = await request.post('/register', {
    headers: { 'Content-Type': 'application/vnd.api+json' },
    data: JSON.stringify({ data: { type: 'token', attributes } }),
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const token = ((await registered.json()) as { access_token: string }).access_token;
  const me = await request.get('/api/get', { headers: bearer(token) });
  expect(me.status()).toBe(200);
  const { id } = (await me.json()) as { id: number };
  return { ...person, id, fio: fioOf(person), token, headers: bearer(token) };
}

export interface NewEntry {
  id: number;
  number: string;
  status: number;
}

/** The client applies for a service through POST /api/entry (pay type 3, online, unless given). */
export async function applyFor(request: APIRequestContext, client: Pick<Client, 'headers'>, serviceId: number, payType = 3): Promise<NewEntry> {
  const entry = await request.post('/api/entry', { headers: client.headers, data: { service_id: serviceId, pay_type: payType, is_extramural: 1 } });
  expect(entry.status(), await entry.text()).toBe(201);
  return ((await entry.json()) as { data: NewEntry }).data;
}

/** Fills the registration form (on /register already) with the person; leaves the button unpressed. */
export async function fillRegistration(page: Page, person: Person): Promise<void> {
  await page.getByLabel('Фамилия').fill(person.lastName);
  await page.getByLabel('Имя', { exact: true }).fill(person.firstName);
  if (person.middleName) await page.getByLabel('Отчество').fill(person.middleName);
  await page.getByLabel('Телефон').pressSequentially(person.phone);
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByLabel('Организация').fill(person.organization);
  await page.getByLabel('Должность').fill(person.jobTitle);
  await page.getByLabel('Пароль', { exact: true }).fill(person.password);
  await page.getByLabel('Подтверждение пароля').fill(person.password);
}

/** A new person registers through the form and lands on the dashboard. */
export async function registerInForm(page: Page, tag: string, given: Partial<Person> = {}): Promise<Person> {
  const person = newPerson(tag, given);
  await page.goto('/register');
  await fillRegistration(page, person);
  await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  return person;
}

/** A fresh client with one entry on a service (the demo course unless given), unpaid unless the service is free. */
export async function clientWithEntry(
  request: APIRequestContext,
  tag: string,
  given: Partial<Person> = {},
  o: { serviceId?: number; payType?: number } = {},
): Promise<Client & { entry: NewEntry }> {
  const client = await registerClient(request, tag, given);
  return { ...client, entry: await applyFor(request, client, o.serviceId ?? DEMO_COURSE_ID, o.payType) };
}

/** An operator's new dated webinar (10:00–11:30, `daysAhead` from today, in person or remote): its id. */
export async function newWebinar(
  request: APIRequestContext,
  operator: { Authorization: string },
  o: { title: string; price: number; daysAhead: number },
): Promise<number> {
  const day = new Date(Date.now() + o.daysAhead * 86_400_000).toISOString().slice(0, 10);
  const created = await request.post('/api/service', {
    headers: operator,
    data: {
      title: o.title,
      price: o.price,
      dict_type_id: 2,
      dict_subtype_id: 8,
      participation_type: 1,
      date_type: 1,
      begda: `${day} 10:00:00`,
      endda: `${day} 11:30:00`,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { data: { id: number } }).data.id;
}
