import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { PriceMessages } from '@edu/domain/publication-prices/publication-price';
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

describe('publication prices', () => {
  it('saves a price per subtype and author count, edits it, lists it for users by subtype', async () => {
    const res = await call('POST', '/api/publication-price', { dict_service_subtype_id: 6, authors_num: 1, price: '1500' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: PriceMessages.saved,
      data: { dict_service_subtype_id: 6, subtype: { fdv: 'Публикация в сборнике материалов конференции' }, authors_num: 1, price: 1500 },
    });
    const id = res.json().data.id;
    await call('POST', '/api/publication-price', { dict_service_subtype_id: 6, authors_num: 2, price: 2000 });
    const put = await call('PUT', `/api/publication-price/${id}`, { dict_service_subtype_id: 6, authors_num: 1, price: 1700 });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.price).toBe(1700);
    const list = await call('GET', '/api/publication-price?dict_service_subtype_id=6', undefined, user);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((p: { authors_num: number; price: number }) => [p.authors_num, p.price])).toEqual([
      [1, 1700],
      [2, 2000],
    ]);
    expect((await call('PUT', '/api/publication-price/2147483000', { dict_service_subtype_id: 6, authors_num: 5, price: 1 })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: '/api/publication-price' })).statusCode).toBe(401);
  });

  it('refuses missing fields, fewer than one author, negative or fractional prices, non-publication subtypes', async () => {
    const empty = await call('POST', '/api/publication-price', { authors_num: '', price: null });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({
      message: Messages.required,
      errors: { dict_service_subtype_id: [Messages.fieldRequired], authors_num: [Messages.fieldRequired], price: [Messages.fieldRequired] },
    });
    const bad = await call('POST', '/api/publication-price', { dict_service_subtype_id: 4, authors_num: 0, price: -5 });
    expect(bad.json().errors).toEqual({ authors_num: [PriceMessages.authorsMin], price: [PriceMessages.priceMin] });
    const frac = await call('POST', '/api/publication-price', { dict_service_subtype_id: 4, authors_num: 'два', price: 99.5 });
    expect(frac.json().errors).toEqual({ authors_num: ['Введите целое число'], price: [PriceMessages.priceInteger] });
    const notPub = await call('POST', '/api/publication-price', { dict_service_subtype_id: 1, authors_num: 1, price: 100 });
    expect(notPub.statusCode).toBe(422);
    expect(notPub.json().errors).toEqual({ dict_service_subtype_id: [PriceMessages.notPublicationSubtype] });
  });

  it('keeps one price per subtype and author count, also under two parallel saves', async () => {
    const body = { dict_service_subtype_id: 4, authors_num: 3, price: 3000 };
    const [a, b] = await Promise.all([call('POST', '/api/publication-price', body), call('POST', '/api/publication-price', body)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 422]);
    expect((a.statusCode === 422 ? a : b).json().errors).toEqual({ authors_num: [PriceMessages.duplicate] });
    const other = await call('POST', '/api/publication-price', { ...body, authors_num: 4 });
    const clash = await call('PUT', `/api/publication-price/${other.json().data.id}`, body);
    expect(clash.statusCode).toBe(422);
    expect(clash.json().errors).toEqual({ authors_num: [PriceMessages.duplicate] });
  });

  it('deletes a price unless publications name it', async () => {
    const used = (await call('POST', '/api/publication-price', { dict_service_subtype_id: 5, authors_num: 1, price: 900 })).json().data.id;
    await t.database.db.insert(publications).values({ title: 'Статья', created_by: userId, price_id: used });
    const refused = await call('DELETE', `/api/publication-price/${used}`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(PriceMessages.inUse);
    const free = (await call('POST', '/api/publication-price', { dict_service_subtype_id: 5, authors_num: 2, price: 1200 })).json().data.id;
    const del = await call('DELETE', `/api/publication-price/${free}`);
    expect(del.json()).toEqual({ message: PriceMessages.deleted });
    expect((await call('DELETE', `/api/publication-price/${free}`)).statusCode).toBe(404);
  });

  it('lets users manage nothing', async () => {
    const body = { dict_service_subtype_id: 5, authors_num: 9, price: 1 };
    expect((await call('POST', '/api/publication-price', body, user)).statusCode).toBe(403);
    expect((await call('PUT', '/api/publication-price/1', body, user)).statusCode).toBe(403);
    expect((await call('DELETE', '/api/publication-price/1', undefined, user)).statusCode).toBe(403);
  });
});
