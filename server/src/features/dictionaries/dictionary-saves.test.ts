import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { DictionaryMessages } from '@edu/domain/dictionaries/dictionary-saves';
import { serviceLeadings } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';

let t: TestApp;
let op: Record<string, string>;
let user: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  op = await t.loginAs(await t.createUser({ role: Role.operator }));
  user = await t.loginAs(await t.createUser());
});
afterAll(() => t.close());

const call = (method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: unknown, headers = op) =>
  t.inject({ method, url, headers, payload: payload as object });

describe('dictionary saves', () => {
  it('creates and edits a service type with fdv, dv, points, icon, colour, flags and the Joomla category', async () => {
    const body = {
      fdv: 'Мастер-классы',
      dv: 'masterclass',
      points: 7,
      description: 'Практические занятия',
      icon: 'IconBulb',
      color: 'violet',
      is_contract_needed: true,
      is_publication: false,
      joomla_category_id: 42,
    };
    const res = await call('POST', '/api/dictionaries/dict_service_types', body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ message: Messages.saved, data: { ...body, id: expect.any(Number) } });
    const id = res.json().data.id;
    const put = await call('PUT', `/api/dictionaries/dict_service_types/${id}`, { ...body, points: 9, joomla_category_id: '', color: null });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({ points: 9, joomla_category_id: null, color: null });
    const list = (await call('GET', '/api/dictionaries/dict_service_types', undefined, user)).json().data.data;
    expect(list.find((x: { id: number }) => x.id === id)).toMatchObject({ fdv: 'Мастер-классы', points: 9 });
  });

  it('refuses an empty name, an icon outside the set, a colour outside the palette and negative points', async () => {
    const res = await call('POST', '/api/dictionaries/dict_service_types', { fdv: ' ', icon: 'IconHack', color: 'chartreuse', points: -1 });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      message: Messages.required,
      errors: { fdv: [Messages.fieldRequired], icon: [DictionaryMessages.unknownIcon], color: [DictionaryMessages.unknownColor], points: ['Не меньше 0'] },
    });
  });

  it('saves subtypes under a known type only, and profiles with their Joomla tag', async () => {
    const sub = await call('POST', '/api/dictionaries/dict_service_subtypes', {
      fdv: 'Региональные',
      dict_service_type_id: 1,
      points: 3,
      is_spb: 1,
      joomla_tag_id: 7,
    });
    expect(sub.statusCode, sub.body).toBe(201);
    expect(sub.json().data).toMatchObject({ dict_service_type_id: 1, is_spb: 1, joomla_tag_id: 7, is_publication: false });
    // is_spb is a flag like every other (issue 19), empty for "either".
    const asBool = await call('POST', '/api/dictionaries/dict_service_subtypes', { fdv: 'Региональные 2', dict_service_type_id: 1, points: 3, is_spb: false });
    expect(asBool.statusCode, asBool.body).toBe(201);
    expect(asBool.json().data.is_spb).toBe(0);
    const bad = await call('POST', '/api/dictionaries/dict_service_subtypes', { fdv: 'Без типа', dict_service_type_id: 99999 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.dict_service_type_id).toEqual([DictionaryMessages.unknownType]);
    const profile = await call('POST', '/api/dictionaries/dict_profiles', { fdv: 'Логопедия', color: 'cyan', joomla_tag_id: 12 });
    expect(profile.statusCode).toBe(201);
    expect(profile.json().data).toMatchObject({ fdv: 'Логопедия', color: 'cyan', joomla_tag_id: 12 });
  });

  it('keeps regions and the other dictionaries read-only', async () => {
    const res = await call('POST', '/api/dictionaries/dict_regions', { fdv: 'Новый регион' });
    expect(res.statusCode).toBe(422);
    expect((await call('PUT', '/api/dictionaries/dict_regions/1', { fdv: 'x' })).statusCode).toBe(422);
  });

  it('deletes an unused item, refuses one in use, 404 for an unknown one', async () => {
    const created = (await call('POST', '/api/dictionaries/dict_profiles', { fdv: 'Временный' })).json().data;
    expect((await call('DELETE', `/api/dictionaries/dict_profiles/${created.id}`)).json()).toEqual({ message: Messages.deleted });
    const inUse = await call('DELETE', '/api/dictionaries/dict_service_types/1');
    await makeService(t.database.db, { dict_type_id: 1 });
    const again = await call('DELETE', '/api/dictionaries/dict_service_types/1');
    for (const r of [inUse, again]) {
      expect(r.statusCode).toBe(422);
      expect(r.json().message).toBe(DictionaryMessages.inUse);
    }
    expect((await call('DELETE', '/api/dictionaries/dict_profiles/99999')).statusCode).toBe(404);
  });
});

describe('leadings', () => {
  it('everyone reads 100 per page; operators save with fio required and an http(s) link', async () => {
    const empty = await call('POST', '/api/leading', { fio: '', url: 'javascript:alert(1)' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({ fio: [Messages.fieldRequired], url: [DictionaryMessages.urlFormat] });
    const res = await call('POST', '/api/leading', {
      fio: 'Ведущая Анна Павловна',
      description: 'Кандидат педагогических наук',
      url: 'https://example.com/anna',
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id;
    const list = await call('GET', '/api/leading?fio=Ведущая', undefined, user);
    expect(list.statusCode).toBe(200);
    expect(list.json().meta.per_page).toBe(100);
    expect(list.json().data).toEqual([
      { id, fio: 'Ведущая Анна Павловна', description: 'Кандидат педагогических наук', url: 'https://example.com/anna', services_count: 0 },
    ]);
    const put = await call('PUT', `/api/leading/${id}`, { fio: 'Ведущая Анна', url: '' });
    expect(put.json().data).toMatchObject({ fio: 'Ведущая Анна', url: null, description: null });
    // Users read but never write.
    expect((await call('POST', '/api/leading', { fio: 'X' }, user)).statusCode).toBe(403);
  });

  it('a leading person named in a service is not deleted', async () => {
    const id = (await call('POST', '/api/leading', { fio: 'Занятый Ведущий' })).json().data.id;
    const service = await makeService(t.database.db);
    await t.database.db.insert(serviceLeadings).values({ service_id: service.id, leading_id: id });
    const res = await call('DELETE', `/api/leading/${id}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(DictionaryMessages.inUse);
    const free = (await call('POST', '/api/leading', { fio: 'Свободный Ведущий' })).json().data.id;
    expect((await call('DELETE', `/api/leading/${free}`)).statusCode).toBe(200);
  });
});
