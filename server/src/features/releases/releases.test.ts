import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { ReleaseMessages } from '@edu/domain/releases/release';
import { publications } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';

let t: TestApp;
let op: Record<string, string>;
let user: Record<string, string>;
let userId: number;
beforeAll(async () => {
  t = await createTestApp();
  op = await t.loginAs(await t.createUser({ role: Role.operator }));
  const u = await t.createUser();
  userId = u.id;
  user = await t.loginAs(u);
});
afterAll(() => t.close());

const call = (method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: unknown, headers = op) =>
  t.inject({ method, url, headers, payload: payload as object });
const JOURNAL = 4;
const INTERNET = 5;

async function create(title: string, subtype = JOURNAL) {
  const res = await call('POST', '/api/publication-release', {
    title,
    dict_service_subtype_id: subtype,
    url: 'https://journal.example/2026-1',
    url_contents: '',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number };
}

describe('releases', () => {
  it('creates and edits a release of a publication subtype', async () => {
    const res = await call('POST', '/api/publication-release', {
      title: 'Выпуск №1 (2026)',
      dict_service_subtype_id: JOURNAL,
      url: 'https://journal.example/1',
      url_contents: 'https://journal.example/1/toc',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: ReleaseMessages.saved,
      data: {
        title: 'Выпуск №1 (2026)',
        dict_service_subtype_id: JOURNAL,
        subtype: { id: JOURNAL, fdv: 'Публикация в журнале' },
        is_hidden: false,
        is_published: false,
        publications_count: 0,
      },
    });
    const id = res.json().data.id;
    const put = await call('PUT', `/api/publication-release/${id}`, { title: 'Выпуск №1', dict_service_subtype_id: 6, url: null, url_contents: '' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ title: 'Выпуск №1', dict_service_subtype_id: 6, url: null, url_contents: null });
    expect((await call('PUT', '/api/publication-release/2147483000', { title: 'x', dict_service_subtype_id: JOURNAL })).statusCode).toBe(404);
  });

  it('refuses an empty title, a subtype that is not a publication and a link without http', async () => {
    const res = await call('POST', '/api/publication-release', { title: ' ', dict_service_subtype_id: JOURNAL, url: 'journal.example' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: Messages.required, errors: { title: [Messages.fieldRequired], url: [ReleaseMessages.urlFormat] } });
    const notPub = await call('POST', '/api/publication-release', { title: 'Курс', dict_service_subtype_id: 1 });
    expect(notPub.statusCode).toBe(422);
    expect(notPub.json().errors).toEqual({ dict_service_subtype_id: [ReleaseMessages.notPublicationSubtype] });
    const noSub = await call('POST', '/api/publication-release', { title: 'Без типа' });
    expect(noSub.statusCode).toBe(422);
    expect(noSub.json().errors.dict_service_subtype_id).toEqual([Messages.fieldRequired]);
  });

  it('hides, publishes only hidden ones once, unpublishes', async () => {
    const { id } = await create('Сборник весна');
    const early = await call('POST', `/api/publication-release/${id}/publish`);
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe(ReleaseMessages.publishOnlyHidden);
    expect((await call('POST', `/api/publication-release/${id}/unpublish`)).json().message).toBe(ReleaseMessages.notPublished);

    const hide = await call('POST', `/api/publication-release/${id}/hide`);
    expect(hide.statusCode).toBe(200);
    expect(hide.json()).toMatchObject({ message: ReleaseMessages.hidden, data: { is_hidden: true, is_published: false } });
    expect((await call('POST', `/api/publication-release/${id}/hide`)).json().message).toBe(ReleaseMessages.alreadyHidden);

    // Two parallel clicks: one publishes, the other is told it is already published.
    const [a, b] = await Promise.all([call('POST', `/api/publication-release/${id}/publish`), call('POST', `/api/publication-release/${id}/publish`)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 422]);
    const ok = a.statusCode === 200 ? a : b;
    expect(ok.json()).toMatchObject({ message: ReleaseMessages.published, data: { is_published: true } });
    expect((a.statusCode === 422 ? a : b).json().message).toBe(ReleaseMessages.alreadyPublished);

    const un = await call('POST', `/api/publication-release/${id}/unpublish`);
    expect(un.json()).toMatchObject({ message: ReleaseMessages.unpublished, data: { is_hidden: true, is_published: false } });
    expect((await call('POST', '/api/publication-release/2147483000/hide')).statusCode).toBe(404);
  });

  it('lists by subtype and hidden flag for operators; users see only visible releases', async () => {
    const visible = await create('Интернет, открыт', INTERNET);
    const hidden = await create('Интернет, закрыт', INTERNET);
    await call('POST', `/api/publication-release/${hidden.id}/hide`);
    const all = (await call('GET', `/api/publication-release?dict_service_subtype_id=${INTERNET}`)).json().data.map((r: { id: number }) => r.id);
    expect(all).toEqual(expect.arrayContaining([visible.id, hidden.id]));
    const onlyHidden = (await call('GET', `/api/publication-release?dict_service_subtype_id=${INTERNET}&is_hidden=1`))
      .json()
      .data.map((r: { id: number }) => r.id);
    expect(onlyHidden).toContain(hidden.id);
    expect(onlyHidden).not.toContain(visible.id);
    const picker = await call('GET', `/api/publication-release?dict_service_subtype_id=${INTERNET}&is_hidden=0`, undefined, user);
    expect(picker.statusCode).toBe(200);
    expect(picker.json().data.map((r: { id: number }) => r.id)).toEqual([visible.id]);
    // A user asking for hidden ones still gets the visible list only.
    const sneaky = await call('GET', `/api/publication-release?dict_service_subtype_id=${INTERNET}&is_hidden=1`, undefined, user);
    expect(sneaky.json().data.map((r: { id: number }) => r.id)).toEqual([visible.id]);
    expect((await call('GET', '/api/publication-release?is_hidden=maybe')).statusCode).toBe(422);
    expect((await t.inject({ method: 'GET', url: '/api/publication-release' })).statusCode).toBe(401);
  });

  it('refuses to delete a release with publications, deletes an empty one', async () => {
    const full = await create('Выпуск с публикациями');
    await t.database.db.insert(publications).values({ title: 'Статья', created_by: userId, release_id: full.id });
    const refused = await call('DELETE', `/api/publication-release/${full.id}`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(ReleaseMessages.hasPublications(1));
    expect(ReleaseMessages.hasPublications(1)).toContain('1 публикация');
    const empty = await create('Пустой выпуск');
    const del = await call('DELETE', `/api/publication-release/${empty.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe(ReleaseMessages.deleted);
    expect((await call('GET', '/api/publication-release')).json().data.map((r: { id: number }) => r.id)).not.toContain(empty.id);
    expect((await call('DELETE', `/api/publication-release/${empty.id}`)).statusCode).toBe(404);
  });

  it('lets users manage nothing', async () => {
    const { id } = await create('Чужой выпуск');
    for (const [method, url] of [
      ['POST', '/api/publication-release'],
      ['PUT', `/api/publication-release/${id}`],
      ['DELETE', `/api/publication-release/${id}`],
      ['POST', `/api/publication-release/${id}/hide`],
      ['POST', `/api/publication-release/${id}/publish`],
      ['POST', `/api/publication-release/${id}/unpublish`],
    ] as const) {
      const res = await call(method, url, { title: 'Взлом', dict_service_subtype_id: JOURNAL }, user);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });
});
