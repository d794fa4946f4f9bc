import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { Role } from '@edu/domain/common/codes';
import { SiteLinkMessages } from '@edu/domain/settings/site-links';
import { rows } from '../../platform/db.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';

let t: TestApp;
let operator: Record<string, string>;
let operatorId: number;

beforeAll(async () => {
  t = await createTestApp();
  const op = await t.createUser({ role: Role.operator });
  operatorId = op.id;
  operator = await t.loginAs(op);
});
afterAll(() => t.close());

const save = (payload: unknown, headers = operator) => t.inject({ method: 'PUT', url: '/api/settings/site-links', headers, payload: payload as object });
const links = async () => (await t.inject({ method: 'GET', url: '/api/site-links' })).json().data;
const logRows = () =>
  rows<{ entity_id: number; user_id: number; diff: Record<string, { old: unknown; new: unknown }> }>(
    t.database.db,
    sql`select entity_id, user_id, diff from change_logs where type = 'settings' order by id`,
  );

describe('site links (top-bar shortcuts, the footer requisites page)', () => {
  it('a fresh install has none, and anybody may read them', async () => {
    expect(await links()).toEqual({ requisites_url: null, shortcuts: [] });
  });

  it('operators set them; each change is logged with its diff', async () => {
    const body = {
      requisites_url: 'https://centre.example/requisites',
      shortcuts: [
        { label: 'Сайт центра', href: 'https://centre.example' },
        { label: 'Электронный журнал', href: 'http://journal.centre.example/' },
      ],
    };
    const res = await save(body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: body, message: SiteLinkMessages.saved });
    expect(await links()).toEqual(body);
    await save({ requisites_url: '', shortcuts: body.shortcuts.slice(0, 1) });
    expect(await links()).toEqual({ requisites_url: null, shortcuts: body.shortcuts.slice(0, 1) });
    const log = await logRows();
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ entity_id: 2, user_id: operatorId, diff: { requisites_url: { old: null, new: body.requisites_url } } });
    expect(log[1].diff.requisites_url).toEqual({ old: body.requisites_url, new: null });
    expect(log[1].diff.shortcuts).toEqual({ old: body.shortcuts, new: body.shortcuts.slice(0, 1) });
    // Saving the same links again changes nothing and logs nothing.
    await save({ requisites_url: '', shortcuts: body.shortcuts.slice(0, 1) });
    expect(await logRows()).toHaveLength(2);
  });

  it('refuses links that are not http(s) and empty labels, in Russian, field by field', async () => {
    const before = await links();
    const res = await save({
      requisites_url: 'javascript:alert(1)',
      shortcuts: [
        { label: '', href: 'https://ok.example' },
        { label: 'Файл', href: 'ftp://files.example' },
      ],
    });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    expect(errors.requisites_url).toEqual([SiteLinkMessages.urlFormat]);
    // Errors are keyed by the field's own name (the project's convention); the form checks each row itself first.
    expect(errors.label).toEqual([SiteLinkMessages.labelRequired]);
    expect(errors.href).toEqual([SiteLinkMessages.urlFormat]);
    const many = await save({ shortcuts: Array.from({ length: 9 }, (_, i) => ({ label: `Ссылка ${i}`, href: 'https://a.example' })) });
    expect(many.statusCode).toBe(422);
    expect(many.json().errors.shortcuts).toEqual([SiteLinkMessages.tooMany]);
    expect(await links()).toEqual(before);
  });

  it('only operators change them', async () => {
    expect((await save({ shortcuts: [] }, {})).statusCode).toBe(401);
    const client = await t.loginAs(await t.createUser());
    expect((await save({ shortcuts: [] }, client)).statusCode).toBe(403);
  });

  it('a change of the centre requisites is logged too', async () => {
    const res = await t.inject({ method: 'PUT', url: '/api/settings/requisites', headers: operator, payload: { inn: '7801234567' } });
    expect(res.statusCode).toBe(200);
    const log = (await logRows()).filter((r) => r.entity_id === 1);
    expect(log).toHaveLength(1);
    expect(log[0].diff).toEqual({ inn: { old: null, new: '7801234567' } });
  });
});
