import type pg from 'pg';
import { BENCH_NOTE } from '../lib/sessions.ts';

// What the manager-area bench (issue 10) needs besides users, services and entries:
// - payments: one per paid or done live entry of a bench client with a price (at the time it was
//   paid), so the income statistic reads a year of rows like the entry statistic does. Only the
//   payments table (the statistic's source); no payment_entries links. --reset removes them with
//   the users (payments.user_id).
// - deleted users: N bench clients soft-deleted (none with a session and none of the first 10 000 by
//   id, whose e-mails the login scenario uses), spread over the id range, so ?deleted=true lists real rows.
// Both only add what is missing.

export async function generatePayments(pool: pg.Pool): Promise<{ created: number; existing: number }> {
  const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from payments p join users u on u.id = p.user_id where u.note = $1', [
    BENCH_NOTE,
  ]);
  if (rows[0].n > 0) return { created: 0, existing: rows[0].n };
  const res = await pool.query(
    `insert into payments (sum, pay_type, user_id, description, created_at)
     select e.price, e.pay_type, e.created_by, 'bench: entry ' || e.number, coalesce(e.paid_at, e.created_at)
     from entries e join users u on u.id = e.created_by
     where u.note = $1 and e.deleted_at is null and e.status >= 2 and e.price > 0`,
    [BENCH_NOTE],
  );
  await pool.query('analyze payments');
  return { created: res.rowCount ?? 0, existing: 0 };
}

export async function deleteSomeUsers(pool: pg.Pool, target: number): Promise<{ deleted: number; existing: number }> {
  const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from users where note = $1 and deleted_at is not null', [BENCH_NOTE]);
  const missing = target - rows[0].n;
  if (missing <= 0) return { deleted: 0, existing: rows[0].n };
  const res = await pool.query(
    `update users set deleted_at = least(now(), created_at + interval '90 days')
     where id in (
       select u.id from users u
       where u.note = $1 and u.deleted_at is null
         and u.id > (select min(id) + 10000 from users where note = $1)
         and not exists (select 1 from access_tokens t where t.user_id = u.id)
       order by md5(u.id::text) limit $2)`,
    [BENCH_NOTE, missing],
  );
  await pool.query('analyze users');
  return { deleted: res.rowCount ?? 0, existing: rows[0].n };
}
