import type { RouteOptions } from 'fastify';
import type { z } from 'zod';
import { authErrorAnswer, errorAnswer, refusalAnswer } from '@edu/domain/common/answers';
import type { Access } from './access.ts';
import { XLSX_TYPE } from './responses.ts';

// The API document (GET /api/docs) is a contract a client can be generated from (decision 034): every
// operation names its error answers, its security, an operationId and a summary. All but the summary
// are derived here, once, from what the route already declares (its access, its path parameters, its
// body and query, its multipart form) plus `config.refuses` for what the declaration cannot tell (a rate
// limit, a converter that can be missing). The summary is the route's own `schema.summary`, one Russian
// line saying what the call does; nothing is generated in its place, so a route without one fails
// server/test/openapi.test.ts. The error answers join the route's `schema.response`, so under
// tests every error body is checked against its schema like the success ones (platform/responses.ts).

/** Error statuses a route may name in `config.refuses`, beyond what its declaration implies. */
export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 422 | 429 | 502 | 503;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Error answers the route gives that its declaration does not imply: 429 (a rate limit or a full
     * queue), 503 (a converter, the mail server or the payment provider missing), 403 on a `user`
     * route, 401 on a public one (the login), 422 on a route without input, 502 (the CMS failing).
     */
    refuses?: readonly RefusalStatus[];
  }
}

const DESCRIPTIONS: Record<RefusalStatus, string> = {
  400: 'Некорректный запрос (тело не разобрать)',
  401: 'Нужна сессия: заголовок Authorization: Bearer <access_token из POST /login>',
  403: 'Недостаточно прав',
  404: 'Запись не найдена (или недоступна)',
  409: 'Конфликт с текущим состоянием записи',
  422: 'Отказ: данные не прошли проверку',
  429: 'Слишком много запросов, повторите позже',
  502: 'Внешняя система ответила ошибкой',
  503: 'Сервис временно недоступен (конвертер, почта или платёжная система)',
};

const SCHEMAS: Record<RefusalStatus, z.ZodType> = {
  400: refusalAnswer,
  401: authErrorAnswer,
  403: errorAnswer,
  404: errorAnswer,
  409: errorAnswer,
  422: refusalAnswer,
  429: refusalAnswer,
  502: errorAnswer,
  503: errorAnswer,
};

/** The described error answer of a status (as a content-typed response, so the document shows its description). */
export const errorResponse = (status: RefusalStatus) => ({
  description: DESCRIPTIONS[status],
  content: { 'application/json': { schema: SCHEMAS[status] } },
});

interface RouteSchema {
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
  form?: { types: readonly string[] };
  response?: Record<string, unknown>;
  hide?: boolean;
  operationId?: string;
  summary?: string;
  security?: unknown;
}

/** The error statuses a route can answer, from its declaration. */
export function refusalsOf(access: Access, schema: RouteSchema, refuses: readonly RefusalStatus[] = []): RefusalStatus[] {
  const out = new Set<RefusalStatus>(refuses);
  const signedIn = access !== 'public' && access !== 'shop';
  if (signedIn) out.add(401);
  if (access === 'operator' || access === 'session' || typeof access === 'object') out.add(403);
  if (typeof access === 'object' || schema.params) out.add(404);
  if (schema.params || schema.querystring || schema.body || schema.form) out.add(422);
  if (schema.body || schema.form) out.add(400);
  // One .xlsx export streams per account at a time (platform/xlsx-reply.ts).
  if (Object.values(schema.response ?? {}).some((r) => (r as { content?: Record<string, unknown> })?.content?.[XLSX_TYPE])) out.add(429);
  // Uploads are rate-limited per user (platform/uploads.ts).
  if (schema.form?.types.includes('multipart/form-data')) out.add(429);
  return [...out].sort();
}

const VERBS: Record<string, string> = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' };

const camel = (word: string) => word.replace(/[-_.]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
const pascal = (word: string) => {
  const c = camel(word);
  return c.charAt(0).toUpperCase() + c.slice(1);
};

/**
 * A stable camelCase operationId from the method and the path: `GET /api/manager/users/:id` is
 * `getManagerUsersById`, `POST /api/entry/:id/pay` is `postEntryByIdPay`. It changes only when the
 * path does.
 */
export function operationIdOf(method: string, url: string): string {
  const parts = url
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .map((p) => (p.startsWith(':') ? `By${pascal(p.slice(1))}` : pascal(p)));
  return `${VERBS[method] ?? method.toLowerCase()}${parts.join('') || 'Root'}`;
}

/** The security requirement of an access: the Bearer session, or none (`[]`) for public routes. */
export const securityOf = (access: Access) => (access === 'public' || access === 'shop' ? [] : [{ bearer: [] }]);

/**
 * Adds the derived error answers, the security requirement and the operationId to a route's schema
 * (an onRoute hook; called once the route's access is known). The route's own summary is kept as is.
 */
export function declareContract(route: RouteOptions): void {
  const access = route.config?.access;
  if (access === undefined) return;
  const schema = (route.schema ?? {}) as RouteSchema;
  if (schema.hide || route.method === 'HEAD') return;
  const method = [route.method].flat()[0];
  const errors = Object.fromEntries(refusalsOf(access, schema, route.config?.refuses).map((status) => [status, errorResponse(status)]));
  route.schema = {
    ...schema,
    operationId: schema.operationId ?? operationIdOf(method, route.url),
    security: schema.security ?? securityOf(access),
    response: { ...errors, ...(schema.response ?? {}) },
  } as RouteOptions['schema'];
}
