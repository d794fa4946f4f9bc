import fs from 'node:fs';
import type pg from 'pg';
import { hashPassword } from '@edu/server/src/platform/passwords.ts';
import {
  BENCH_NOTE,
  BENCH_OPERATOR_NOTE,
  BENCH_PASSWORD,
  benchToken,
  hashToken,
  OPERATOR_TOKEN,
  tokensFile,
  TOKEN_PREFIX,
  type TokensFile,
} from '../lib/sessions.ts';

const UPSERT_TOKENS = `
insert into access_tokens (user_id, token_hash, remember, ip, user_agent, expires_at, last_used_at)
select t.user_id, t.token_hash, true, '127.0.0.1', 'edu-bench', now() + interval '30 days', now()
from unnest($1::int[], $2::text[]) as t(user_id, token_hash)
on conflict (token_hash) do update set expires_at = excluded.expires_at, revoked_at = null, last_used_at = now()`;

/** Role.operator of domain/src/common/codes.ts. */
const ROLE_OPERATOR = 1;

/** The bench operator: one role-1 account, made once. */
async function ensureOperator(pool: pg.Pool): Promise<{ id: number; email: string }> {
  const email = 'bench-operator@edu-bench.test';
  const found = await pool.query<{ id: number; email: string }>('select id, email from users where note = $1', [BENCH_OPERATOR_NOTE]);
  if (found.rows[0]) return found.rows[0];
  const { rows } = await pool.query<{ id: number; email: string }>(
    `insert into users (email, password, last_name, first_name, middle_name, role, note, organization, job_title)
     values ($1, $2, 'Операторова', 'Анна', 'Сергеевна', $3, $4, 'Учебный центр', 'Менеджер') returning id, email`,
    [email, await hashPassword(BENCH_PASSWORD), ROLE_OPERATOR, BENCH_OPERATOR_NOTE],
  );
  return rows[0];
}

/**
 * Gives the first `count` bench users (by id) a 30-day session with the known token
 * `bench-token-<id>`, stored as its SHA-256 like a real login; the same for the `heavy` clients with
 * the most live entries (when there are entries) and for the bench operator (`bench-operator-token`).
 * Writes bench/results/tokens.json. Running it again renews the same sessions.
 */
export async function issueSessions(pool: pg.Pool, count: number, heavyCount = 500): Promise<TokensFile> {
  const { rows } = await pool.query<{ id: number; email: string }>('select id, email from users where note = $1 order by id limit $2', [BENCH_NOTE, count]);
  const { rows: heavy } = await pool.query<{ id: number; n: number }>(
    `select e.created_by as id, count(*)::int as n from entries e join users u on u.id = e.created_by
     where u.note = $1 and e.deleted_at is null group by e.created_by order by n desc, id limit $2`,
    [BENCH_NOTE, heavyCount],
  );
  const operator = await ensureOperator(pool);
  const ids = [...new Set([...rows.map((r) => r.id), ...heavy.map((r) => r.id)])];
  await pool.query(UPSERT_TOKENS, [
    [...ids, operator.id],
    [...ids.map((id) => hashToken(benchToken(id))), hashToken(OPERATOR_TOKEN)],
  ]);
  const data: TokensFile = {
    generated_at: new Date().toISOString(),
    token_prefix: TOKEN_PREFIX,
    first_user_id: rows[0]?.id ?? 0,
    last_user_id: rows.at(-1)?.id ?? 0,
    count: rows.length,
    sessions: rows.map((r) => ({ user_id: r.id, email: r.email, token: benchToken(r.id) })),
    operator: { user_id: operator.id, email: operator.email, token: OPERATOR_TOKEN },
    heavy: heavy.map((r) => ({ user_id: r.id, token: benchToken(r.id), entries: r.n })),
  };
  fs.writeFileSync(tokensFile(), JSON.stringify(data, null, 2) + '\n');
  return data;
}
