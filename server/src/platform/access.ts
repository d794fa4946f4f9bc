import fp from 'fastify-plugin';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { isOperator } from '@edu/domain/common/codes';
import { forbidden } from './errors.ts';
import { declareContract } from './api-contract.ts';

// Who may call a route is declared once, on the route (`config: { access }`) or for every route of
// a plugin (`defaultAccess(scope, …)`, as the manager area does in app.ts), and enforced by one hook
// here. A route without a declaration stops the app from starting. Ownership of a record (an entry,
// a publication…) is decided by that record's policy module, which the handler calls; the route
// only says which record its :id is, so the security walk (server/test/security.test.ts) and the
// manager-area test read their expectations from this table instead of keeping their own.

/** The records an owner route's :id can name. */
export type OwnedRecord = 'user' | 'entry' | 'notification' | 'card_transaction' | 'file' | 'publication';

export type Access =
  /** Anyone: login, registration, the public /pay form, the provider's webhook, signed links. */
  | 'public'
  /** The payment sandbox's provider API: the shop's Basic credentials, nobody's session. */
  | 'shop'
  /** Any signed-in user; the answer carries only the asker's own data (operators: everyone's). */
  | 'user'
  /** A signed-in user whose session decides (403 allowed), e.g. leaving "login as". */
  | 'session'
  /** Operators only (spec 02 §2: 401 without a session, 403 to users and guests). */
  | 'operator'
  /**
   * A signed-in user on their own record (the :id): another user gets 404, operators reach any
   * (selfOnly: operators too get 404 on someone else's). The record's policy module decides.
   */
  | { owner: OwnedRecord; selfOnly?: true };

export interface RouteTableRow {
  method: string;
  url: string;
  access: Access | undefined;
  schema?: { params?: unknown; querystring?: unknown; body?: unknown; response?: Record<string, unknown>; hide?: boolean };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** The handler checks the session in its own query (GET /api/get, the hot path); the hook leaves it. */
    sessionInHandler?: true;
  }
  interface FastifyInstance {
    /** Every route of the app as registered, with its declared access (the access tests walk it). */
    routeTable: () => RouteTableRow[];
  }
}

/** The role tests (domain/common/codes.ts), for the policy modules and handlers. */
export { isGuest, isOperator } from '@edu/domain/common/codes';

/** Sets the access of every route registered after it in this plugin (and its children) that declares none. */
export function defaultAccess(scope: FastifyInstance, access: Access): void {
  scope.addHook('onRoute', (route) => {
    if (route.config?.access !== undefined) return;
    route.config = { ...(route.config ?? {}), access } as typeof route.config;
    declareContract(route);
  });
}

/** Records the route table, refuses to start with an undeclared route, and enforces each route's access. */
export const accessPlugin = fp(async (app) => {
  const recorded: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    recorded.push(route);
    // Error answers, security, operationId (platform/api-contract.ts); routes that take their access
    // from defaultAccess get them there, once it is set.
    declareContract(route);
  });
  const table = (): RouteTableRow[] =>
    recorded.flatMap((r) =>
      [r.method]
        .flat()
        .filter((m) => m !== 'HEAD')
        .map((method) => ({ method, url: r.url, access: r.config?.access, schema: r.schema as RouteTableRow['schema'] })),
    );
  app.decorate('routeTable', table);
  app.addHook('onReady', async () => {
    const undeclared = table().filter((r) => r.access === undefined);
    if (undeclared.length) throw new Error(`Routes without declared access: ${undeclared.map((r) => `${r.method} ${r.url}`).join(', ')}`);
  });
  app.addHook('onRequest', async (request) => {
    const { access, sessionInHandler } = request.routeOptions.config ?? {};
    // Public routes, the shop's API and unknown paths (the not-found handler declares nothing).
    if (access === undefined || access === 'public' || access === 'shop' || sessionInHandler) return;
    const user = await app.authenticate(request);
    if (access === 'operator' && !isOperator(user)) throw forbidden();
  });
});
