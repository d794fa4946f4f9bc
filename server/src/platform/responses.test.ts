import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEV_CHECK_MAX_CHARS, ResponseShapeError, responseSerializerCompiler, type ResponseCheck } from './responses.ts';

const answer = z.object({ data: z.object({ id: z.number(), created_at: z.string() }) });

async function appWith(check: ResponseCheck, body: unknown) {
  const app = Fastify();
  app.setSerializerCompiler(responseSerializerCompiler(check));
  app.get('/x', { schema: { response: { 200: answer } } }, async () => body);
  await app.ready();
  return app;
}

describe('response schemas', () => {
  it('write the answer as JSON.stringify does, Dates as ISO strings, nothing stripped', async () => {
    const at = new Date('2026-11-26T12:00:00Z');
    const app = await appWith('throw', { data: { id: 1, created_at: at, extra: 'kept' } });
    const res = await app.inject('/x');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(JSON.stringify({ data: { id: 1, created_at: at, extra: 'kept' } }));
    await app.close();
  });

  it('under tests an answer its schema does not describe fails loudly', async () => {
    const app = await appWith('throw', { data: { id: '1', created_at: null } });
    const res = await app.inject('/x');
    expect(res.statusCode).toBe(500);
    const serialize = responseSerializerCompiler('throw')({ schema: answer, method: 'GET', url: '/x', httpStatus: '200' });
    expect(() => serialize({ data: { id: '1' } })).toThrow(ResponseShapeError);
    expect(() => serialize({ data: { id: '1' } })).toThrow(/data\.id/);
    await app.close();
  });

  it('in development a mismatch is logged and the answer goes out; in production nothing is checked', async () => {
    const warned: string[] = [];
    const serialize = (check: ResponseCheck) =>
      responseSerializerCompiler(check, (e) => warned.push(e.message))({ schema: answer, method: 'GET', url: '/x', httpStatus: '200' });
    expect(serialize('warn')({ data: { id: '1' } })).toBe('{"data":{"id":"1"}}');
    expect(warned).toEqual([expect.stringMatching(/^The answer of \/x does not match its response schema: data\.id/)]);
    expect(serialize('off')({ data: { id: '1' } })).toBe('{"data":{"id":"1"}}');
    expect(warned).toHaveLength(1);
    // A long answer (a publication's text) goes out unchecked in development, and is checked under tests.
    const long = { data: { id: 'я'.repeat(DEV_CHECK_MAX_CHARS) } };
    expect(serialize('warn')(long)).toBe(JSON.stringify(long));
    expect(warned).toHaveLength(1);
    expect(() => serialize('throw')(long)).toThrow(ResponseShapeError);
    const app = await appWith('off', { data: { id: '1' } });
    const res = await app.inject('/x');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { id: '1' } });
    await app.close();
  });
});
