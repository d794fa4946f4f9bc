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

/** Counts one attempt in its fixed window: the count so far and when the window ends. */
async function countAttempt(db: Queryable, key: string, windowMinutes: number): Promise<{ failures: number; endsAt: number }> {
  const [row] = await rows<{ failures: number; ends_at: Date | string }>(
    db,
    sql`insert into login_failures (key, failures, window_started_at) values (${key}, 1, now())
        on conflict (key) do update set
          failures = case when login_failures.window_started_at <= now() - make_interval(mins => ${windowMinutes}) then 1 else login_failures.failures + 1 end,
          window_started_at = case when login_failures.window_started_at <= now() - make_interval(mins => ${windowMinutes}) then now() else login_failures.window_started_at end
        returning failures, window_started_at + make_interval(mins => ${windowMinutes}) as ends_at`,
  );
  return { failures: row.failures, endsAt: new Date(row.ends_at).getTime() };
}

export async function recordAttempt(db: Queryable, key: string, windowMinutes: number): Promise<number> {
  return (await countAttempt(db, key, windowMinutes)).failures;
}

export async function clearAttempts(db: Queryable, key: string): Promise<void> {
  await db.execute(sql`delete from login_failures where key = ${key}`);
}

/** Gives back one counted attempt (a login that turned out right must not use up the IP's budget). */
export async function releaseAttempt(db: Queryable, key: string): Promise<void> {
  await db.execute(sql`update login_failures set failures = greatest(failures - 1, 0) where key = ${key}`);
}

/**
 * Takes one attempt from the budget atomically and answers whether it was within the limit. Taking
 * it before the costly check means N parallel requests cannot all pass a limit of M < N.
 */
export async function takeAttempt(db: Queryable, key: string, limit: number, windowMinutes: number): Promise<boolean> {
  return (await recordAttempt(db, key, windowMinutes)) <= limit;
}

/**
 * takeAttempt that remembers, in this process, a budget found used up until its window ends: a client
 * repeating a refused request is refused again without writing the counter each time (a loop of
 * refused saves wrote a row update on every try, on the embedded database's one connection; issue 29).
 * The counters stay the truth; the memo only repeats what they said, never longer than their window.
 */
export class RememberedAttempts {
  private spentUntil = new Map<string, number>();

  /** Whether the budget of `key` was found used up and its window has not ended. */
  spent(key: string, now = Date.now()): boolean {
    return (this.spentUntil.get(key) ?? 0) > now;
  }

  async take(db: Queryable, key: string, limit: number, windowMinutes: number): Promise<boolean> {
    const now = Date.now();
    if (this.spent(key, now)) return false;
    const row = await countAttempt(db, key, windowMinutes);
    if (row.failures <= limit) return true;
    if (this.spentUntil.size >= 10_000) for (const [k, until] of this.spentUntil) if (until <= now) this.spentUntil.delete(k);
    this.spentUntil.set(key, row.endsAt);
    return false;
  }
}
