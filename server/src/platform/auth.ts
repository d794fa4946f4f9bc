import { createHash, randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { Role, type RoleCode } from '@edu/domain/common/codes';
import { accessTokens, users } from '../db/schema/index.ts';
import type { Queryable } from './db.ts';
import { forbidden, unauthenticated } from './errors.ts';

export interface AuthUser {
  id: number;
  role: RoleCode;
  tokenId: number;
  impersonatorId: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.requireUser` / `app.requireOperator`; null when the route allows guests. */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    requireOperator: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Resolves the Bearer token if there is one; never fails. */
    optionalUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
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
  await db.update(accessTokens).set({ revoked_at: sql`now()` }).where(eq(accessTokens.id, tokenId));
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value.trim() : null;
}

async function resolve(db: Queryable, token: string): Promise<AuthUser | null> {
  const [row] = await db
    .select({ id: users.id, role: users.role, tokenId: accessTokens.id, impersonatorId: accessTokens.impersonator_id, lastUsed: accessTokens.last_used_at })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.user_id))
    .where(and(eq(accessTokens.token_hash, hashToken(token)), isNull(accessTokens.revoked_at), gt(accessTokens.expires_at, sql`now()`), isNull(users.deleted_at)));
  if (!row) return null;
  // Touch last_used_at at most every 5 minutes, so reads stay reads.
  if (Date.now() - row.lastUsed.getTime() > 5 * 60_000) {
    await db
      .update(accessTokens)
      .set({ last_used_at: sql`now()` })
      .where(and(eq(accessTokens.id, row.tokenId), lt(accessTokens.last_used_at, sql`now() - interval '5 minutes'`)));
  }
  return { id: row.id, role: row.role as RoleCode, tokenId: row.tokenId, impersonatorId: row.impersonatorId };
}

export const authPlugin = fp(async (app) => {
  app.decorateRequest('user', null);

  app.decorate('optionalUser', async (request: FastifyRequest) => {
    const token = bearer(request);
    request.user = token ? await resolve(app.db, token) : null;
  });
  app.decorate('requireUser', async (request: FastifyRequest) => {
    const token = bearer(request);
    const user = token ? await resolve(app.db, token) : null;
    if (!user) throw unauthenticated();
    request.user = user;
  });
  app.decorate('requireOperator', async (request: FastifyRequest, reply: FastifyReply) => {
    await app.requireUser(request, reply);
    if (request.user?.role !== Role.operator) throw forbidden();
  });
});

/** The signed-in user of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}
