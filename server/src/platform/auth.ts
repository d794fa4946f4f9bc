import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { and, eq, isNull, lt, ne, sql } from 'drizzle-orm';
import type { RoleCode } from '@edu/domain/common/codes';
import { accessTokens } from '../db/schema/index.ts';
import { compileStatement, type Database, type Queryable } from './db.ts';
import { unauthenticated } from './errors.ts';

export interface AuthUser {
  id: number;
  role: RoleCode;
  tokenId: number;
  impersonatorId: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the access hook (platform/access.ts) on every route that needs a session; null on public ones. */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    /** Signs the request's Bearer session in, or fails with 401. */
    authenticate: (request: FastifyRequest) => Promise<AuthUser>;
  }
}

export const SESSION_HOURS = 12;
export const REMEMBER_DAYS = 30;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a session and returns its token; only the hash is stored. */
export async function createSession(
  db: Queryable,
  opts: { userId: number; remember: boolean; ip?: string; userAgent?: string; impersonatorId?: number },
): Promise<{ access_token: string; token_type: 'Bearer'; expires_at: string }> {
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(Date.now() + (opts.remember ? REMEMBER_DAYS * 24 : SESSION_HOURS) * 3600 * 1000);
  await db.insert(accessTokens).values({
    user_id: opts.userId,
    token_hash: hashToken(token),
    remember: opts.remember,
    ip: opts.ip?.slice(0, 64),
    user_agent: opts.userAgent?.slice(0, 500),
    impersonator_id: opts.impersonatorId,
    expires_at: expires,
  });
  return { access_token: token, token_type: 'Bearer', expires_at: expires.toISOString() };
}

export async function revokeSession(db: Queryable, tokenId: number): Promise<void> {
  await db
    .update(accessTokens)
    .set({ revoked_at: sql`now()` })
    .where(eq(accessTokens.id, tokenId));
}

/** Ends every session of a user but `keepTokenId` (a password change or reset). */
export async function revokeUserSessions(db: Queryable, userId: number, keepTokenId?: number): Promise<void> {
  await db
    .update(accessTokens)
    .set({ revoked_at: sql`now()` })
    .where(and(eq(accessTokens.user_id, userId), isNull(accessTokens.revoked_at), keepTokenId === undefined ? undefined : ne(accessTokens.id, keepTokenId)));
}

export function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value.trim() : null;
}

interface ResolvedRow {
  id: number;
  role: number;
  token_id: number;
  impersonator_id: number | null;
  last_used_at: Date | string;
}

/** The session of a token: one indexed lookup, rendered once, a prepared statement on PostgreSQL (every request runs it). */
const RESOLVE = compileStatement(
  'auth_resolve',
  sql`select u.id, u.role, t.id as token_id, t.impersonator_id, t.last_used_at
      from access_tokens t join users u on u.id = t.user_id
      where t.token_hash = ${sql.placeholder('tokenHash')} and t.revoked_at is null and t.expires_at > now() and u.deleted_at is null`,
);

async function resolve(database: Database, token: string): Promise<AuthUser | null> {
  const [row] = await database.run<ResolvedRow>(RESOLVE, { tokenHash: hashToken(token) });
  if (!row) return null;
  await touchSession(database.db, row.token_id, row.last_used_at);
  return { id: row.id, role: row.role as RoleCode, tokenId: row.token_id, impersonatorId: row.impersonator_id };
}

/** last_used_at is refreshed at most every 5 minutes, so reads stay reads. */
export async function touchSession(db: Queryable, tokenId: number, lastUsed: Date | string): Promise<void> {
  if (Date.now() - new Date(lastUsed).getTime() <= 5 * 60_000) return;
  await db
    .update(accessTokens)
    .set({ last_used_at: sql`now()` })
    .where(and(eq(accessTokens.id, tokenId), lt(accessTokens.last_used_at, sql`now() - interval '5 minutes'`)));
}

/**
 * The operator of the current request's "login as user" session, so whatever the request writes
 * (the change log) knows who really acts. Entered only for such requests: while any async context
 * storage runs, Node 20 tracks every promise of the process (the hot path's promises cost about
 * twice as much), so ordinary requests run without one and it is switched off again when the last
 * impersonated request has answered.
 */
const impersonation = new AsyncLocalStorage<number>();
let impersonated = 0;
const IMPERSONATED = Symbol('impersonated');
type Marked = FastifyRequest & { [IMPERSONATED]?: boolean };

/** The operator behind the current request's "login as user" session, if any (null outside requests). */
export function currentImpersonator(): number | null {
  return impersonation.getStore() ?? null;
}

export const authPlugin = fp(async (app) => {
  app.decorateRequest('user', null);
  const signIn = (request: FastifyRequest, user: AuthUser | null) => {
    request.user = user;
  };
  // The handler (and what it awaits) runs inside the impersonation context of its session.
  app.addHook('preHandler', (request, _reply, done) => {
    const operatorId = request.user?.impersonatorId;
    if (operatorId == null) return done();
    (request as Marked)[IMPERSONATED] = true;
    impersonated++;
    impersonation.run(operatorId, done);
  });
  const leave = (request: FastifyRequest) => {
    if (!(request as Marked)[IMPERSONATED]) return;
    (request as Marked)[IMPERSONATED] = false;
    if (--impersonated === 0) impersonation.disable();
  };
  app.addHook('onResponse', (request, _reply, done) => {
    leave(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    leave(request);
    done();
  });

  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearer(request);
    const user = token ? await resolve(app.database, token) : null;
    if (!user) throw unauthenticated();
    signIn(request, user);
    return user;
  });
});

/** The signed-in user of a route whose access needs a session. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}
