import { sql } from 'drizzle-orm';
import { rows, type Queryable } from './db.ts';

// Counters of failed or costly attempts (logins, password mails) in a fixed window, stored in
// PostgreSQL so that every app instance sees the same numbers.

export async function attemptsIn(db: Queryable, key: string, windowMinutes: number): Promise<number> {
  const [row] = await rows<{ failures: number }>(
    db,
    sql`select failures from login_failures where key = ${key} and window_started_at > now() - make_interval(mins => ${windowMinutes})`,
  );
  return row?.failures ?? 0;
}

export async function recordAttempt(db: Queryable, key: string, windowMinutes: number): Promise<number> {
  const [row] = await rows<{ failures: number }>(
    db,
    sql`insert into login_failures (key, failures, window_started_at) values (${key}, 1, now())
        on conflict (key) do update set
          failures = case when login_failures.window_started_at <= now() - make_interval(mins => ${windowMinutes}) then 1 else login_failures.failures + 1 end,
          window_started_at = case when login_failures.window_started_at <= now() - make_interval(mins => ${windowMinutes}) then now() else login_failures.window_started_at end
        returning failures`,
  );
  return row.failures;
}

export async function clearAttempts(db: Queryable, key: string): Promise<void> {
  await db.execute(sql`delete from login_failures where key = ${key}`);
}
