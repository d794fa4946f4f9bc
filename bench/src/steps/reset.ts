import type pg from 'pg';
import { inTransaction } from '../lib/db.ts';
import { BENCH_NOTE } from '../lib/sessions.ts';

/**
 * Deletes everything the generator made: the bench users (note = 'bench') and what hangs off them.
 * user_profiles, access_tokens, password_resets, notifications cascade; entries reference users
 * without a cascade, so the users' entries go first (none yet; the entries step will add them).
 */
export async function resetBench(pool: pg.Pool): Promise<{ users: number }> {
  return inTransaction(pool, async (client) => {
    await client.query('create temporary table bench_ids on commit drop as select id from users where note = $1', [BENCH_NOTE]);
    await client.query('delete from entries where created_by in (select id from bench_ids)');
    const { rowCount } = await client.query('delete from users where id in (select id from bench_ids)');
    return { users: rowCount ?? 0 };
  });
}
