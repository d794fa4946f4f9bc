// Large JSON bodies parsed in a worker thread (json-body.ts, issue 29): the same values and the same
// refusals as Fastify's own parser, and the request thread decodes only the small ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { OFF_THREAD_JSON_MIN_BYTES, parseLargeJsonOffThread, type JsonBodyCounts } from './json-body.ts';

let app: FastifyInstance;
let counts: JsonBodyCounts;

beforeAll(async () => {
  app = Fastify({ bodyLimit: 12 * 1024 * 1024 });
  counts = parseLargeJsonOffThread(app);
  app.post('/echo', async (request) => request.body);
  await app.ready();
});
afterAll(() => app.close());

const post = (payload: string) => app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload });
/** A body of about `bytes` bytes of UTF-8: a Russian text (two bytes a letter), as a publication's. */
const russian = (bytes: number) => 'Методическая разработка урока литературы. '.repeat(Math.ceil(bytes / 78));

describe('JSON request bodies', () => {
  it('parses a large body (a 480 000-character Russian text) in the worker, to the same value', async () => {
    const body = { title: 'Статья', text: russian(900_000), authors: [{ fio: 'Иванова Анна' }], n: 2, ok: true, none: null };
    const before = { ...counts };
    const res = await post(JSON.stringify(body));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(body);
    expect(counts.offThread - before.offThread).toBe(1);
    expect(counts.inProcess - before.inProcess).toBe(0);
  });

  it('parses a small body on the request thread', async () => {
    const before = { ...counts };
    const res = await post(JSON.stringify({ title: 'Короткая' }));
    expect(res.json()).toEqual({ title: 'Короткая' });
    expect(Buffer.byteLength(JSON.stringify({ title: 'Короткая' }))).toBeLessThan(OFF_THREAD_JSON_MIN_BYTES);
    expect(counts.inProcess - before.inProcess).toBe(1);
    expect(counts.offThread - before.offThread).toBe(0);
  });

  it('refuses a malformed large body with 400, as Fastify does a small one', async () => {
    const large = await post(`{"text": "${russian(200_000)}"`);
    const small = await post('{"text": "а"');
    expect(large.statusCode).toBe(400);
    expect(large.json().code).toBe('FST_ERR_CTP_INVALID_JSON_BODY');
    expect(small.json().code).toBe('FST_ERR_CTP_INVALID_JSON_BODY');
  });

  it('refuses __proto__ and constructor.prototype in a large body, as in a small one', async () => {
    const text = russian(200_000);
    for (const poisoned of [`{"text": "${text}", "__proto__": {"admin": true}}`, `{"text": "${text}", "constructor": {"prototype": {"admin": true}}}`]) {
      const res = await post(poisoned);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('FST_ERR_CTP_INVALID_JSON_BODY');
    }
    expect((await post('{"__proto__": {"admin": true}}')).statusCode).toBe(400);
  });

  it('answers an empty body with 400 and parses several large bodies at once', async () => {
    expect((await post('')).json().code).toBe('FST_ERR_CTP_EMPTY_JSON_BODY');
    const texts = [1, 2, 3, 4, 5].map((k) => `${k} ${russian(150_000)}`);
    const answers = await Promise.all(texts.map((text) => post(JSON.stringify({ text }))));
    expect(answers.map((r) => r.json().text)).toEqual(texts);
  });
});
