import { sql, type SQL } from 'drizzle-orm';
import { PublicationStatus } from '@edu/domain/common/codes';
import type { MonthlyFigures } from '@edu/domain/statistics/statistics';
import { kopecksOf, rublesOf } from '@edu/domain/common/money';
import { rows, type Queryable } from '../../platform/db.ts';
import { MOSCOW_OFFSET_MS, moscowClock } from '@edu/domain/common/moscow-time';

// Dashboard statistics (spec 02 §7): per month of the last 12 (Moscow time), oldest first, as
// {'MM.YYYY': number}. Counting a year of entries (about a million rows at scale) per request is
// far over the dashboard's budget, so each figure is two parts (docs/decisions/016):
// - kept: the rows created before a cut (5 minutes before the count), counted once and kept in
//   this server's memory for 10 minutes;
// - live: the rows created since the cut, counted on every request (a range scan of the index on
//   created_at: a few minutes of rows).
// Past the 10 minutes the stale kept part is still served (with its own cut, so nothing is counted
// twice or missed) while one background recount replaces it.

/** Rows older than this are counted into the kept part: a transaction open that long could still commit older rows. */
export const KEPT_BEHIND_MS = 5 * 60_000;
/** How long a kept part is served before it is counted again. */
export const KEPT_FOR_MS = 10 * 60_000;

/** 'MM.YYYY' of the Moscow months `11 .. 0` back from `now`, oldest first. */
export function monthLabels(now: number): string[] {
  const m = moscowClock(now);
  return Array.from({ length: 12 }, (_, i) => {
    const d = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() - (11 - i), 1));
    return `${String(d.getUTCMonth() + 1).padStart(2, '0')}.${d.getUTCFullYear()}`;
  });
}

/** The start of the Moscow month 11 months before the month of `now` (the oldest month shown). */
export function rangeStart(now: number): Date {
  const m = moscowClock(now);
  return new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() - 11, 1) - MOSCOW_OFFSET_MS);
}

interface Source {
  table: SQL;
  value: SQL;
  condition: SQL;
  /** The moment a row counts in its month (default created_at). */
  at?: SQL;
}

const SOURCES = {
  /** Entries created per month (deleted ones left out). */
  entry: { table: sql`entries`, value: sql`count(*)`, condition: sql`t.deleted_at is null` },
  /** Users registered per month (deleted ones left out). */
  user: { table: sql`users`, value: sql`count(*)`, condition: sql`t.deleted_at is null` },
  /** Money received for entries per month, rubles (before refunds). */
  payment: { table: sql`payments`, value: sql`sum(t.sum)`, condition: sql`true` },
  /** Money given back per month, rubles: succeeded refunds, in the month they succeeded. */
  refund: { table: sql`payment_refunds`, value: sql`sum(t.sum)`, condition: sql`t.status = 'succeeded'`, at: sql`t.succeeded_at` },
  /** Publications submitted per month. */
  publication: { table: sql`publications`, value: sql`count(*)`, condition: sql`t.deleted_at is null` },
} satisfies Record<string, Source>;

export type MonthlyStatistic = keyof typeof SOURCES;

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

function byMonth(s: Source, range: (at: SQL) => SQL): SQL {
  const at = s.at ?? sql`t.created_at`;
  return sql`select to_char(${at} at time zone 'Europe/Moscow', 'MM.YYYY') as month, ${s.value} as v
    from ${s.table} t where ${range(at)} and ${s.condition} group by 1`;
}

/** The statements, by name (bench/ captures what the server sends; these are the same). */
export const statisticsQueries = {
  /** The kept part: rows created in [from, cut). */
  kept: (name: MonthlyStatistic, from: Date, cut: Date) => byMonth(SOURCES[name], (t) => sql`${t} >= ${at(from)} and ${t} < ${at(cut)}`),
  /** The live part: rows created since the cut. */
  live: (name: MonthlyStatistic, cut: Date) => byMonth(SOURCES[name], (t) => sql`${t} >= ${at(cut)}`),
  /** Publications waiting for the operator's check (the sidebar badge): always counted live. */
  publicationPending: () => sql`select count(*)::int as v from publications where status = ${PublicationStatus.pending} and deleted_at is null`,
} as const;

async function figures(db: Queryable, query: SQL): Promise<Map<string, number>> {
  const list = await rows<{ month: string; v: string | number | null }>(db, query);
  return new Map(list.map((r) => [r.month, Number(r.v ?? 0)]));
}

interface Kept {
  /** Rows created before this are in `figures`. */
  cut: Date;
  figures: Map<string, number>;
  /** When it was counted (ms). */
  countedAt: number;
}

export interface StatisticsCacheOptions {
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
  /** A failed background recount (the stale part keeps being served; the next request retries). */
  onError?: (error: unknown) => void;
}

/**
 * The monthly statistics of one server instance, each as a kept part counted at most every
 * KEPT_FOR_MS plus a live part counted per request. Several instances each keep their own.
 */
export class StatisticsCache {
  private readonly kept = new Map<MonthlyStatistic, Kept>();
  private readonly recounts = new Map<MonthlyStatistic, Promise<Kept>>();
  private readonly now: () => number;

  constructor(
    private readonly db: Queryable,
    private readonly options: StatisticsCacheOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  async monthly(name: MonthlyStatistic): Promise<MonthlyFigures> {
    const now = this.now();
    let kept = this.kept.get(name);
    if (!kept) kept = await this.recount(name);
    else if (now - kept.countedAt >= KEPT_FOR_MS) this.recount(name).catch((error: unknown) => this.options.onError?.(error));
    const live = await figures(this.db, statisticsQueries.live(name, kept.cut));
    const out: MonthlyFigures = {};
    for (const month of monthLabels(now)) {
      // Income has kopecks: keep the sum of the two parts to two decimals.
      out[month] = Math.round(((kept.figures.get(month) ?? 0) + (live.get(month) ?? 0)) * 100) / 100;
    }
    return out;
  }

  /** Income per month: money received less money refunded in the month, to the kopeck. */
  async income(): Promise<MonthlyFigures> {
    const [received, refunded] = await Promise.all([this.monthly('payment'), this.monthly('refund')]);
    const out: MonthlyFigures = {};
    for (const month of Object.keys(received)) out[month] = rublesOf(kopecksOf(received[month]) - kopecksOf(refunded[month]));
    return out;
  }

  /** The running recount of `name`, if any (tests wait for it). */
  recounting(name: MonthlyStatistic): Promise<Kept> | undefined {
    return this.recounts.get(name);
  }

  /** Counts the kept part again; concurrent callers share one count. */
  private recount(name: MonthlyStatistic): Promise<Kept> {
    const running = this.recounts.get(name);
    if (running) return running;
    const now = this.now();
    const cut = new Date(now - KEPT_BEHIND_MS);
    const job = figures(this.db, statisticsQueries.kept(name, rangeStart(now), cut))
      .then((counted) => {
        const kept = { cut, figures: counted, countedAt: now };
        this.kept.set(name, kept);
        return kept;
      })
      .finally(() => this.recounts.delete(name));
    this.recounts.set(name, job);
    return job;
  }
}

export async function pendingPublications(db: Queryable): Promise<number> {
  const [r] = await rows<{ v: number }>(db, statisticsQueries.publicationPending());
  return Number(r.v);
}
