import { sql, type SQL } from 'drizzle-orm';
import { PublicationStatus } from '@edu/domain/common/codes';
import type { MonthlyFigures } from '@edu/domain/statistics/statistics';
import { rows, type Queryable } from '../../platform/db.ts';

// Dashboard statistics (spec 02 §7): per month of the last 12 (Moscow time), oldest first, as
// {'MM.YYYY': number}. One statement each; the range condition on created_at lets the index on it
// read only the last year, and months without rows come out as 0.

function monthly(table: SQL, value: SQL, condition: SQL = sql`true`): SQL {
  return sql`
    with bounds as (select date_trunc('month', now() at time zone 'Europe/Moscow') as this_month),
    months as (select to_char(b.this_month - make_interval(months => g), 'MM.YYYY') as month, g from bounds b, generate_series(0, 11) g),
    agg as (
      select to_char(t.created_at at time zone 'Europe/Moscow', 'MM.YYYY') as month, ${value} as v
      from ${table} t, bounds b
      where t.created_at >= (b.this_month - interval '11 months') at time zone 'Europe/Moscow' and ${condition}
      group by 1)
    select m.month, coalesce(a.v, 0) as v from months m left join agg a on a.month = m.month order by m.g desc`;
}

async function run(db: Queryable, query: SQL): Promise<MonthlyFigures> {
  const list = await rows<{ month: string; v: string | number }>(db, query);
  return Object.fromEntries(list.map((r) => [r.month, Number(r.v)]));
}

/** The statements, by name (also rendered by bench/ so both measure the same SQL). */
export const statisticsQueries = {
  /** Entries created per month (deleted ones left out). */
  entry: () => monthly(sql`entries`, sql`count(*)`, sql`t.deleted_at is null`),
  /** Users registered per month (deleted ones left out). */
  user: () => monthly(sql`users`, sql`count(*)`, sql`t.deleted_at is null`),
  /** Income per month, rubles (money received for entries). */
  payment: () => monthly(sql`payments`, sql`sum(t.sum)`),
  /** Publications submitted per month. */
  publication: () => monthly(sql`publications`, sql`count(*)`, sql`t.deleted_at is null`),
  /** Publications waiting for the operator's check (the sidebar badge). */
  publicationPending: () => sql`select count(*)::int as v from publications where status = ${PublicationStatus.pending} and deleted_at is null`,
} as const;

export type MonthlyStatistic = Exclude<keyof typeof statisticsQueries, 'publicationPending'>;

export const monthlyStatistic = (db: Queryable, name: MonthlyStatistic) => run(db, statisticsQueries[name]());

export async function pendingPublications(db: Queryable): Promise<number> {
  const [r] = await rows<{ v: number }>(db, statisticsQueries.publicationPending());
  return Number(r.v);
}
