import net from 'node:net';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from './helper.ts';
import { makeService } from './fixtures.ts';
import { apiRoutes, fillPath, objectShape, pathParams, routeKey } from './route-walk.ts';

// Property-based test over the app's own route table: generated bodies, queries and path
// parameters, sent to every route as every role. No answer may be a 5xx, and every 4xx of the API
// carries a Russian message (field errors too). Runs per route are bounded to keep it fast.

const RUNS_PER_ROUTE = Number(process.env.PROPERTY_RUNS ?? 6);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261123);

// The app listens on 127.0.0.1 so that its sandbox provider answers the payment calls for real.
const port = await new Promise<number>((resolve) => {
  const probe = net.createServer().listen(0, '127.0.0.1', () => {
    const p = (probe.address() as net.AddressInfo).port;
    probe.close(() => resolve(p));
  });
});
const appUrl = `http://127.0.0.1:${port}`;
const t = await createTestApp({
  appUrl,
  jobsIntervalMs: 0,
  yookassa: { enabled: true, sandbox: true, apiUrl: `${appUrl}/sandbox/yookassa/v3`, shopId: '', secretKey: '', vatCode: 1, receipt: true },
});
await t.app.listen({ port, host: '127.0.0.1' });
afterAll(() => t.close());

const operator = await t.createUser({ role: 1 });
const user = await t.createUser();
const service = await makeService(t.database.db, { price: 700, sections: ['Секция 1'] });
await t.inject({
  method: 'POST',
  url: '/api/entry',
  headers: await t.loginAs(user),
  payload: { service_id: service.id, pay_type: 3, section_id: service.sectionIds[0] },
});

const LONG_LIST = Array.from({ length: 70_000 }, (_, i) => i + 1);

/** Values known to break careless code, then arbitrary JSON-ish values. */
const nasty = fc.constantFrom<unknown>(
  2 ** 31,
  2 ** 40,
  -1,
  0,
  1,
  2 ** 53 + 2,
  1e308,
  '99999999999999999999',
  '4294967296',
  '..',
  '../../etc/passwd',
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '31.02.2024',
  '2024-02-31',
  '2024-13-01 25:61:61',
  'null',
  'undefined',
  'true',
  'Ю'.repeat(300),
  'x'.repeat(5000),
  'NaN',
  'Infinity',
  '1e400',
  '-0',
  '1,2,3',
  '1,,x,99999999999',
  "' or 1=1 --",
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  LONG_LIST,
  { $gt: '' },
  [null],
  [[1]],
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nasty },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.integer(), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), { maxKeys: 3 }) },
);

const asText = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
/** A query string value: a string, or a repeated parameter. */
const asQuery = (v: unknown): string | string[] => (Array.isArray(v) ? v.slice(0, 2000).map(asText) : asText(v));
const queryValue = anyValue.map(asQuery);

/** Objects using the schema's own field names (nested ones filled the same way), plus strangers. */
function objectFor(shape: Record<string, unknown> | null, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(shape ?? {});
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const k of keys) {
    const nested = depth < 3 ? objectShape(shape![k]) : null;
    fields[k] = nested ? fc.oneof(objectFor(nested, depth + 1), anyValue) : anyValue;
  }
  return fc
    .tuple(
      fc.record(fields, { requiredKeys: [] }),
      fc.dictionary(fc.constantFrom('id', 'user_id', 'role', '__proto__', 'constructor', 'data', 'x'), anyValue, { maxKeys: 2 }),
    )
    .map(([known, extra]) => ({ ...extra, ...known }));
}

const ROLES = ['anonymous', 'user', 'operator'] as const;

/** Every route also gets these first, in each position (all path params, all query fields, all body fields). */
const DANGEROUS: unknown[] = [
  2 ** 31,
  2 ** 40,
  '99999999999999999999',
  -1,
  '..',
  'a\u0000b',
  '31.02.2024',
  'Я'.repeat(5000),
  LONG_LIST,
  'not-a-number',
  { nested: true },
];

type Case = [role: (typeof ROLES)[number], params: Record<string, string>, query: Record<string, string | string[]>, body: unknown];
function examplesFor(params: string[], queryKeys: string[], bodyKeys: string[]): Case[] {
  const out: Case[] = [];
  const fill = <T>(keys: string[], v: T) => Object.fromEntries(keys.map((k) => [k, v]));
  for (const v of DANGEROUS) {
    if (params.length) {
      out.push(['operator', fill(params, asText(v)), {}, {}]);
      out.push(['user', fill(params, asText(v)), {}, {}]);
    }
    if (queryKeys.length) out.push(['operator', {}, fill(queryKeys, asQuery(v)), {}]);
    // Bodies as an operator: the role that passes the most guards and reaches the most code.
    if (bodyKeys.length) out.push(['operator', {}, {}, fill(bodyKeys, v)]);
  }
  return out;
}

const routes = apiRoutes(t.app);
const hasCyrillic = (s: unknown) => typeof s === 'string' && /[А-Яа-яЁё]/.test(s);

describe('property: generated input to every route as every role', () => {
  it('walks a real route table', () => {
    expect(routes.length).toBeGreaterThan(30);
  });

  it.each(routes.map((r) => [routeKey(r), r] as const))('%s', async (_key, route) => {
    const params = pathParams(route.url);
    const examples = examplesFor(params, Object.keys(objectShape(route.schema?.querystring) ?? {}), Object.keys(objectShape(route.schema?.body) ?? {}));
    const paramArb = fc.dictionary(fc.constantFrom(...(params.length ? params : ['_'])), anyValue.map(asText), { maxKeys: params.length || 1 });
    const queryArb = fc.oneof(
      objectFor(objectShape(route.schema?.querystring)).map((o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, asQuery(v)]))),
      fc.dictionary(fc.string({ maxLength: 6 }), queryValue, { maxKeys: 2 }),
    );
    const bodyArb = fc.oneof({ weight: 5, arbitrary: objectFor(objectShape(route.schema?.body)) as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: anyValue });
    const hasBody = route.method !== 'GET' && route.method !== 'DELETE';

    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROLES), paramArb, queryArb, bodyArb, async (role, p, query, body) => {
        const headers: Record<string, string> = role === 'anonymous' ? {} : await t.loginAs(role === 'user' ? user : operator);
        const res = await t.inject({
          method: route.method as 'GET',
          url: fillPath(route.url, p),
          query: query as Record<string, string>,
          headers,
          ...(hasBody ? { payload: body === undefined ? {} : (body as object) } : {}),
        });
        const where = `${route.method} ${route.url} as ${role}: ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, where).toBeLessThan(500);
        const isJson = String(res.headers['content-type'] ?? '').includes('json');
        // The sandbox plays the provider: its API, and any path under it that is not a page, answers
        // YooKassa's error object ({type: 'error', code, description}) as the real API does.
        const providerError = route.url.startsWith('/sandbox/yookassa/') && isJson && (res.json() as { type?: unknown }).type === 'error';
        if (res.statusCode >= 400 && isJson && !route.url.startsWith('/sandbox/yookassa/v3') && !providerError) {
          const answer = res.json() as { message?: unknown; errors?: Record<string, unknown> };
          expect(hasCyrillic(answer.message), where).toBe(true);
          for (const [field, list] of Object.entries(answer.errors ?? {})) {
            for (const text of [list].flat()) expect(hasCyrillic(text), `${where} field ${field}`).toBe(true);
          }
        }
      }),
      { numRuns: RUNS_PER_ROUTE + examples.length, seed: SEED, endOnFailure: true, examples },
    );
  });
});
