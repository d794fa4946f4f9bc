import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DICTIONARY_NAMES } from '@edu/domain/dictionaries/dictionaries';
import { createTestApp, type TestApp } from '../../../test/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/dictionaries/{name}', () => {
  it('needs a session', async () => {
    expect((await t.inject({ method: 'GET', url: '/api/dictionaries/dict_regions' })).statusCode).toBe(401);
  });

  it('answers every dictionary as {data: {data: [...]}} sorted by id', async () => {
    const headers = await t.loginAs(await t.createUser());
    for (const name of DICTIONARY_NAMES) {
      const res = await t.inject({ method: 'GET', url: `/api/dictionaries/${name}`, headers });
      expect(res.statusCode, name).toBe(200);
      const list = res.json().data.data as Array<{ id: number; fdv: string }>;
      expect(list.length, name).toBeGreaterThan(0);
      expect(list.map((i) => i.id)).toEqual([...list.map((i) => i.id)].sort((a, b) => a - b));
      expect(typeof list[0].fdv).toBe('string');
    }
  });

  it('gives e-mail bodies of events to operators only', async () => {
    const user = await t.loginAs(await t.createUser());
    const operator = await t.loginAs(await t.createUser({ role: 1 }));
    const forUser = (await t.inject({ method: 'GET', url: '/api/dictionaries/dict_events', headers: user })).json().data.data;
    const forOperator = (await t.inject({ method: 'GET', url: '/api/dictionaries/dict_events', headers: operator })).json().data.data;
    expect(forUser[0]).not.toHaveProperty('content');
    expect(forOperator[0].content).toContain('{user.fio}');
  });

  it('refuses an unknown name', async () => {
    const headers = await t.loginAs(await t.createUser());
    expect((await t.inject({ method: 'GET', url: '/api/dictionaries/users', headers })).statusCode).toBe(422);
  });
});
