import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from './helper.ts';
import { Contract, type ApiDocument } from './contract.ts';
import { apiRoutes, fillPath, pathParams } from './route-walk.ts';

// The document at GET /api/docs is a contract a client team generates from (decision 034): every
// operation describes its answers, success and error, its security, an operationId and a summary;
// redocly's recommended rules find no error in it; real answers match it under ajv; and a client
// generated from it with openapi-typescript compiles with openapi-fetch.

const t = await createTestApp();
afterAll(() => t.close());

const served = await t.inject({ method: 'GET', url: '/api/docs' });
const doc = served.json() as ApiDocument & {
  info: { license?: unknown };
  servers?: unknown[];
  components?: { securitySchemes?: Record<string, { type: string; scheme?: string }> };
};

interface Operation {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  requestBody?: { content: Record<string, { schema?: unknown }> };
}

const operations = Object.entries(doc.paths).flatMap(([p, methods]) =>
  Object.entries(methods as Record<string, Operation>).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, method, path: p, op })),
);

/** Redocly warnings the decision record keeps, with the number of each (decision 034). */
const KEPT_WARNINGS: Record<string, number> = {
  // `/api/file/{id}/link` beside `/api/file/link/{token}` and the like: the web's URLs (spec 01).
  'no-ambiguous-paths': 13,
  // Public reads without input that cannot refuse: /api/public-config, /api/site-links, the csrf-cookie call;
  // /api/ready, which answers 503 when the database does not (no 4xx).
  'operation-4xx-response': 4,
};

/** Every node of a JSON value, with its pointer. */
function* nodes(value: unknown, pointer = ''): Generator<[string, Record<string, unknown>]> {
  if (!value || typeof value !== 'object') return;
  if (!Array.isArray(value)) yield [pointer, value as Record<string, unknown>];
  for (const [k, v] of Object.entries(value)) yield* nodes(v, `${pointer}/${k}`);
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with info, license, servers and the Bearer scheme', () => {
    expect(served.statusCode).toBe(200);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.license).toBeTruthy();
    expect(doc.servers?.length).toBeGreaterThan(0);
    expect(doc.components?.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes the answer of every operation', () => {
    // A 2xx answer with its content, or a declared body-less one (204, a redirect).
    const undescribed = operations.filter(
      ({ op }) => !Object.entries(op.responses ?? {}).some(([code, r]) => (/^2/.test(code) && r.content) || code === '204' || /^3/.test(code)),
    );
    expect(operations.length).toBeGreaterThan(150);
    expect(undescribed.map((u) => u.key)).toEqual([]);
  });

  it('gives every operation a unique camelCase operationId, a summary and its security', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.filter((id) => !id || !/^[a-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(operations.filter(({ op }) => !op.summary).map((o) => o.key)).toEqual([]);
    expect(operations.filter(({ op }) => !Array.isArray(op.security)).map((o) => o.key)).toEqual([]);
    // Public operations say so; the rest ask for the Bearer session.
    const publicOnes = operations.filter(({ op }) => op.security!.length === 0).map((o) => o.key);
    expect(publicOnes).toContain('POST /login');
    expect(publicOnes).not.toContain('GET /api/get');
  });

  it('gives every operation its own one-line Russian summary, not one made from the method and the path', () => {
    // Written on the route (`schema.summary`, what the call does for the caller): nothing generates one,
    // so a new route without it, or with a path in it (the old «Получить: /api/entry/{id}»), fails here.
    const written = (s: string | undefined) => !!s && /^[A-ZА-ЯЁ]/.test(s) && /[А-ЯЁа-яё]/.test(s) && !/[/{}\n]|\.$/.test(s) && s.length <= 80;
    expect(operations.filter(({ op }) => !written(op.summary)).map((o) => `${o.key}: ${o.op.summary}`)).toEqual([]);
    // Two operations under one summary would read as one call in a generated client's docs.
    const summaries = operations.map(({ op }) => op.summary);
    expect(operations.filter(({ op }, i) => summaries.indexOf(op.summary) !== i).map((o) => `${o.key}: ${o.op.summary}`)).toEqual([]);
  });

  it('declares the error answers a route can give, from its declaration', () => {
    const op = (key: string) => operations.find((o) => o.key === key)!.op;
    // Operator routes: no session, not an operator, a path id, input.
    expect(Object.keys(op('PUT /api/manager/users/{id}').responses!)).toEqual(expect.arrayContaining(['401', '403', '404', '422', '400']));
    // Login: refused with a code, limited, the password queue full.
    expect(Object.keys(op('POST /login').responses!)).toEqual(expect.arrayContaining(['401', '422', '429', '503']));
    // Uploads: multipart with their file part, limited.
    const upload = op('POST /api/user/{id}/upload-avatar');
    expect(Object.keys(upload.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(upload.responses!)).toContain('429');
    const withoutErrors = operations.filter(({ op }) => !Object.keys(op.responses ?? {}).some((c) => /^4/.test(c))).map((o) => o.key);
    expect(withoutErrors.length).toBe(KEPT_WARNINGS['operation-4xx-response']);
  });

  it('states what the server checks: page sizes, required fields, no `nullable` without a type', () => {
    const list = operations.find((o) => o.key === 'GET /api/publication')!.op as { parameters?: { name: string; schema: { enum?: number[] } }[] };
    expect(list.parameters!.find((p) => p.name === 'per_page')!.schema.enum).toEqual([15, 30, 100]);
    const body = operations.find((o) => o.key === 'PUT /api/manager/users/{id}')!.op.requestBody!.content['application/json'].schema as {
      required?: string[];
    };
    expect(body.required).toEqual(['last_name', 'first_name']);
    // OpenAPI 3.1: nullability is a type array or an anyOf with {type: 'null'}; an enum that takes null lists it.
    const nullable = [...nodes(doc)].filter(([, n]) => 'nullable' in n && typeof n.nullable === 'boolean').map(([p]) => p);
    expect(nullable).toEqual([]);
  });

  it('passes redocly’s recommended rules with no error, keeping only the listed warnings', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: served.body, absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} ${p.location[0]?.pointer ?? ''}`);
    expect(errors).toEqual([]);
    const warnings: Record<string, number> = {};
    for (const p of problems.filter((p) => p.severity === 'warn')) warnings[p.ruleId] = (warnings[p.ruleId] ?? 0) + 1;
    expect(warnings).toEqual(KEPT_WARNINGS);
  });

  it('matches real answers, success and error, under ajv', async () => {
    const contract = new Contract(doc);
    const operator = await t.loginAs(await t.createUser({ role: 1 }));
    const user = await t.loginAs(await t.createUser());
    // Every read without path parameters, as an operator and as a user (success bodies and 403s),
    // and anonymously (401s); then refusals of input.
    const reads = apiRoutes(t.app).filter((r) => r.method === 'GET' && pathParams(r.url).length === 0 && !r.schema?.hide && contract.operation(r));
    expect(reads.length).toBeGreaterThan(40);
    for (const route of reads) for (const headers of [operator, user, {}]) contract.check(route, await t.inject({ method: 'GET', url: route.url, headers }));
    // Reads of one record, as an operator, on the first ids (the seeded dictionaries, the users above): answers or 404s.
    const oneReads = apiRoutes(t.app).filter((r) => r.method === 'GET' && pathParams(r.url).length > 0 && !r.schema?.hide && contract.operation(r));
    for (const route of oneReads)
      for (const id of ['1', '2'])
        contract.check(
          route,
          await t.inject({
            method: 'GET',
            url: fillPath(route.url, { id, name: 'dict_profiles', kind: 'certificate', a: 'ab', b: `${'0'.repeat(32)}.jpg` }),
            headers: operator,
          }),
        );
    const refusals: [string, string, Record<string, string>, unknown][] = [
      ['POST', '/login', {}, { email: 'nobody@example.com', password: 'wrong-password' }],
      ['POST', '/login', {}, {}],
      ['POST', '/register', {}, { data: { attributes: {} } }],
      ['PUT', '/api/manager/users/:id', operator, {}],
      ['GET', '/api/publication', user, { per_page: 7 }],
      ['POST', '/api/publication', user, { title: '' }],
      ['POST', '/api/template', operator, {}],
      ['POST', '/api/dictionaries/:name', operator, {}],
      ['POST', '/api/yookassa-entry/pay', {}, {}],
    ];
    for (const [method, url, headers, body] of refusals) {
      const filled = url.replace(':id', '2147483000').replace(':name', 'dict_profiles');
      const res =
        method === 'GET'
          ? await t.inject({ method, url: filled, headers, query: body as Record<string, string> })
          : await t.inject({ method: method as 'POST', url: filled, headers, payload: body as object });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeGreaterThanOrEqual(400);
      contract.check({ method, url }, res);
    }
    expect(contract.mismatches).toEqual([]);
    expect(contract.checked).toBeGreaterThan(200);
    // The check itself refuses what the document does not say: a body without its message, a status not declared.
    const fake = (statusCode: number, body: unknown) =>
      ({ statusCode, headers: { 'content-type': 'application/json; charset=utf-8' }, json: () => body }) as unknown as Parameters<Contract['check']>[1];
    expect(contract.check({ method: 'POST', url: '/login' }, fake(422, { errors: { email: 'не массив' } }))).toHaveLength(1);
    expect(contract.check({ method: 'POST', url: '/login' }, fake(200, { access_token: 'x', token_type: 'Bearer', expires_at: 'x', extra: 1 }))).toHaveLength(
      1,
    );
    expect(contract.check({ method: 'GET', url: '/api/get' }, fake(418, {}))).toHaveLength(1);
  });

  it('generates a client (openapi-typescript) that compiles with openapi-fetch', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'api-client-'));
    try {
      await fs.writeFile(path.join(dir, 'api.d.ts'), astToString(await openapiTS(served.body)));
      await fs.writeFile(
        path.join(dir, 'use.ts'),
        [
          "import createClient from 'openapi-fetch';",
          "import type { paths } from './api.d.ts';",
          "const client = createClient<paths>({ baseUrl: 'http://localhost' });",
          'export async function demo(token: string) {',
          "  const login = await client.POST('/login', { body: { email: 'a@example.com', password: 'secret' } });",
          '  if (login.error) return login.error.message;',
          '  const headers = { authorization: `Bearer ${login.data.access_token}` };',
          "  const list = await client.GET('/api/publication', { params: { query: { per_page: 30 } }, headers });",
          '  const first: number | undefined = list.data?.data[0]?.id;',
          "  const refused = await client.PUT('/api/manager/users/{id}', { params: { path: { id: 1 } }, body: { last_name: 'И', first_name: 'И' }, headers: { authorization: token } });",
          "  const fields: Record<string, string[]> | undefined = refused.error && 'errors' in refused.error ? refused.error.errors : undefined;",
          '  return [first, fields];',
          '}',
        ].join('\n'),
      );
      const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
      const program = ts.createProgram([path.join(dir, 'use.ts')], {
        strict: true,
        noEmit: true,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        target: ts.ScriptTarget.ES2022,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        typeRoots: [],
        types: [],
        baseUrl: root,
        paths: { 'openapi-fetch': [path.join(root, 'node_modules/openapi-fetch')] },
      });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
