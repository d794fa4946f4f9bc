import fs from 'node:fs';
import type pg from 'pg';
import { BENCH_NOTE, benchToken, hashToken, tokensFile, TOKEN_PREFIX, type TokensFile } from '../lib/sessions.ts';

const UPSERT_TOKENS = `
insert into access_tokens (user_id, token_hash, remember, ip, user_agent, expires_at, last_used_at)
select t.user_id, t.token_hash, true, '127.0.0.1', 'edu-bench', now() + interval '30 days', now()
from unnest($1::int[], $2::text[]) as t(user_id, token_hash)
on conflict (token_hash) do update set expires_at = excluded.expires_at, revoked_at = null, last_used_at = now()`;

/**
 * Gives the first `count` bench users (by id) a 30-day session with the known token
 * `bench-token-<id>`, stored as its SHA-256 like a real login, and writes bench/results/tokens.json.
 * Running it again renews the same sessions.
 */
export async function issueSessions(pool: pg.Pool, count: number): Promise<TokensFile> {
  const { rows } = await pool.query<{ id: number; email: string }>('select id, email from users where note = $1 order by id limit $2', [
    BENCH_NOTE,
    count,
  ]);
  await pool.query(UPSERT_TOKENS, [rows.map((r) => r.id), rows.map((r) => hashToken(benchToken(r.id)))]);
  const data: TokensFile = {
    generated_at: new Date().toISOString(),
    token_prefix: TOKEN_PREFIX,
    first_user_id: rows[0]?.id ?? 0,
    last_user_id: rows.at(-1)?.id ?? 0,
    count: rows.length,
    sessions: rows.map((r) => ({ user_id: r.id, email: r.email, token: benchToken(r.id) })),
  };
  fs.writeFileSync(tokensFile(), JSON.stringify(data, null, 2) + '\n');
  return data;
}
