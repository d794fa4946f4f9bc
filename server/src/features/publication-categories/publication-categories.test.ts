import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { RubricMessages } from '@edu/domain/publication-categories/publication-category';
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
const URL = '/api/dictionaries/dict_publication_categories';

describe('publication rubrics', () => {
  it('adds and edits a rubric with alias, description and the site category; everyone reads the list', async () => {
    const res = await call('POST', URL, { fdv: 'Логопедия', alias: 'Logopediya', description: 'Коррекция речи', joomla_category_id: '17' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: RubricMessages.saved,
      data: { fdv: 'Логопедия', alias: 'logopediya', description: 'Коррекция речи', joomla_category_id: 17 },
    });
    const id = res.json().data.id;
    const put = await call('PUT', `${URL}/${id}`, { fdv: 'Логопедия и дефектология', alias: 'logopediya', description: '', joomla_category_id: '' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual({ id, fdv: 'Логопедия и дефектология', alias: 'logopediya', description: null, joomla_category_id: null });
    const list = await call('GET', URL, undefined, user);
    expect(list.json().data.data.find((r: { id: number }) => r.id === id)).toMatchObject({ fdv: 'Логопедия и дефектология' });
    expect((await call('PUT', `${URL}/2147483000`, { fdv: 'x' })).statusCode).toBe(404);
  });

  it('refuses an empty name, a bad alias, a taken alias and a non-numeric site category', async () => {
    const res = await call('POST', URL, { fdv: '', alias: 'пробел и кириллица', joomla_category_id: 'abc' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      message: Messages.required,
      errors: { fdv: [Messages.fieldRequired], alias: [RubricMessages.aliasFormat], joomla_category_id: ['Введите число'] },
    });
    const taken = await call('POST', URL, { fdv: 'Ещё одна', alias: 'nachalnaya-shkola' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual({ alias: [RubricMessages.aliasTaken] });
    // Saving a rubric with its own alias is fine.
    expect((await call('PUT', `${URL}/2`, { fdv: 'Начальная школа', alias: 'nachalnaya-shkola' })).statusCode).toBe(200);
  });

  it('deletes a rubric unless publications name it', async () => {
    await t.database.db.insert(publications).values({ title: 'Статья', created_by: userId, dict_category_id: 1 });
    const refused = await call('DELETE', `${URL}/1`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(RubricMessages.inUse);
    const id = (await call('POST', URL, { fdv: 'Временная' })).json().data.id;
    expect((await call('DELETE', `${URL}/${id}`)).json()).toEqual({ message: RubricMessages.deleted });
    expect((await call('DELETE', `${URL}/${id}`)).statusCode).toBe(404);
  });

  it('lets users save nothing', async () => {
    expect((await call('POST', URL, { fdv: 'Взлом' }, user)).statusCode).toBe(403);
    expect((await call('PUT', `${URL}/1`, { fdv: 'Взлом' }, user)).statusCode).toBe(403);
    expect((await call('DELETE', `${URL}/1`, undefined, user)).statusCode).toBe(403);
  });
});
