import { expect, test, type APIRequestContext } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { png } from '../support/files.ts';
import { applyFor, bearer, DEMO_COURSE_ID, DEMO_OPERATOR, DEMO_PASSWORD, login, operatorHeaders, registerClient, uniqueTag } from '../support/session.ts';

// Acting for someone else (issue 18): a co-author's account is linked only when its owner accepts
// the invitation, and what an operator changes in a "login as user" session is logged with both
// the client and the operator.

/** A client whose name no earlier run has (the logs are filtered by it). */
const newClient = (request: APIRequestContext, lastName: string) =>
  registerClient(request, 'acting', { lastName, firstName: 'Вера', middleName: `Тестовна${uniqueTag()}` });

const longText = (words: string) => `<p>${Array.from({ length: 80 }, (_, i) => `${words} номер ${i + 1}.`).join(' ')}</p>`;

test('a co-author is linked only after accepting the invitation', async ({ page, request }) => {
  const owner = await newClient(request, 'Авторова');
  const invited = await newClient(request, 'Соавторова');
  const services = await request.get('/api/service', { headers: owner.headers, params: { isPublication: 1, per_page: 100 } });
  const internet = ((await services.json()) as { data: Array<{ id: number; dict_subtype_id: number }> }).data.find((s) => s.dict_subtype_id === 5)!;
  const title = `Совместная статья ${Date.now().toString().slice(-5)}`;
  const created = await request.post('/api/publication', {
    headers: owner.headers,
    data: {
      service_id: internet.id,
      dict_category_id: 2,
      type: 1,
      title,
      text: longText('Совместная работа учителей начальной школы над исследовательскими проектами'),
      authors_num: 2,
      authors: [{ user_id: invited.id, fio: 'Соавторова Вера' }],
    },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);

  await login(page, invited.email, invited.password);
  await page.goto('/user/publication');
  const invitations = page.getByTestId('co-author-invitations');
  await expect(invitations).toContainText(`«${title}»`);
  await expect(invitations).toContainText(owner.fio);
  // Not theirs until they accept.
  await expect(page.getByTestId('publication-card').filter({ hasText: title })).toHaveCount(0);
  await shot(page, 'co-author-invitation-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(invitations).toBeVisible();
  await shot(page, 'co-author-invitation-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  await invitations.getByRole('button', { name: 'Принять' }).click();
  await expect(page.getByText('Вы добавлены в соавторы публикации')).toBeVisible();
  await expect(page.getByTestId('co-author-invitations')).toHaveCount(0);
  await expect(page.getByTestId('publication-card').filter({ hasText: title })).toBeVisible();
});

test('what an operator changes while logged in as a client is logged with both names', async ({ page, request }) => {
  const client = await newClient(request, 'Клиентова');
  const op = await operatorHeaders(request);
  const operator = (await (await request.get('/api/get', { headers: op })).json()) as { last_name: string };
  const started = await request.post(`/api/manager/users/${client.id}/login-as`, { headers: op });
  expect(started.ok(), await started.text()).toBeTruthy();
  const asClient = bearer(((await started.json()) as { access_token: string }).access_token);
  expect((await request.post(`/api/user/store-profiles/${client.id}`, { headers: asClient, data: { profiles: [1, 2] } })).ok()).toBeTruthy();
  expect((await request.post('/api/login-as/leave', { headers: asClient })).ok()).toBeTruthy();

  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto(`/manager/logs?type=user&entity_id=${client.id}`);
  const marks = page.getByTestId('log-impersonator');
  await expect(marks).toHaveCount(1);
  await expect(marks).toContainText(`оператор ${operator.last_name}`);
  await expect(marks).toContainText('от имени клиента');
  await expect(page.getByTestId('logs-table')).toContainText(client.fio);
  // The change reads in Russian: profile names, not their ids.
  await expect(page.getByTestId('logs-table')).not.toContainText('[1,2]');
  await expect(page.getByTestId('logs-table')).toContainText(/Профили: — → \S/);
  // Filters: who acted and a Moscow date range, kept in the address bar.
  const today = new Intl.DateTimeFormat('ru-RU', { timeZone: 'Europe/Moscow', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());
  await page.getByLabel('С даты').fill(today);
  await page.getByLabel('Кто изменил').fill(client.fio.split(' ')[0] ?? '');
  await expect(page).toHaveURL(/date_from=/);
  await expect(page).toHaveURL(/fio=/);
  // The client's own registration (their first row) and the change made for them.
  await expect(page.getByTestId('log-row')).toHaveCount(2);
  await page.getByLabel('По дату').fill('01.01.2020');
  // The refused range is said at the field and instead of the list (no rows that ignore it).
  await expect(page.getByText('Дата окончания раньше даты начала').first()).toBeVisible();
  await expect(page.getByTestId('log-row')).toHaveCount(0);
  await page.getByLabel('По дату').fill('');
  await expect(page.getByTestId('log-row')).toHaveCount(2);
  await shot(page, 'logs-impersonated-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(marks).toBeVisible();
  await shot(page, 'logs-impersonated-390');
});

test('personal data an operator changes for a client is logged readably, numbers masked (152-FZ)', async ({ page, request }) => {
  const client = await newClient(request, 'Персональнова');
  await applyFor(request, client, DEMO_COURSE_ID);
  const started = await request.post(`/api/manager/users/${client.id}/login-as`, { headers: await operatorHeaders(request) });
  expect(started.ok(), await started.text()).toBeTruthy();
  const asClient = bearer(((await started.json()) as { access_token: string }).access_token);
  const ok = async (res: Promise<{ ok(): boolean; text(): Promise<string> }>) => {
    const r = await res;
    expect(r.ok(), await r.text()).toBeTruthy();
  };
  await ok(request.put(`/api/user/${client.id}`, { headers: asClient, data: { organization: 'Лицей № 239' } }));
  await ok(
    request.post(`/api/user/${client.id}/profile-extras`, {
      headers: asClient,
      data: { address: 'г. Санкт-Петербург, Невский пр., д. 1', birthday: '1985-04-12', snils: '112-233-445 95' },
    }),
  );
  await ok(request.post('/api/identity-document', { headers: asClient, data: { number: '4010 123456', date: '2015-06-01', issued_by: 'ТП № 1 УФМС' } }));
  await ok(request.post(`/api/user/${client.id}/upload-documents`, { headers: asClient, multipart: { passport: png('passport.png') } }));
  await ok(request.post(`/api/user/${client.id}/upload-avatar`, { headers: asClient, multipart: { file: png('me.png') } }));
  await ok(request.post('/api/login-as/leave', { headers: asClient }));

  await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
  await page.goto(`/manager/logs?type=user&entity_id=${client.id}`);
  const table = page.getByTestId('logs-table');
  await expect(table).toContainText('Организация');
  await expect(table).toContainText('Лицей № 239');
  await expect(table).toContainText('•••-•••-••5 95');
  await expect(table).toContainText('Паспорт: серия и номер');
  await expect(table).toContainText('•••• •••456');
  await expect(table).toContainText('Документы: Паспорт');
  await expect(table).toContainText('passport.png');
  await expect(table).toContainText('Аватар');
  await expect(table).not.toContainText('112-233-445');
  await expect(table).not.toContainText('123456');
  // Every one of the five rows names the operator under the client.
  await expect(page.getByTestId('log-impersonator')).toHaveCount(5);
  await shot(page, 'logs-personal-data-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  // Narrow screens show the rows as cards.
  await expect(page.getByTestId('log-impersonator').first()).toBeVisible();
  await expect(page.getByText('•••• •••456').first()).toBeVisible();
  await shot(page, 'logs-personal-data-390');
});
