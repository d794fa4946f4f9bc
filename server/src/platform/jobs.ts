import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { jobs } from '../db/schema/index.ts';
import { rows, type Queryable } from './db.ts';
import { asBackground } from './work-priority.ts';

/**
 * Every kind of job and what it carries, in one place: scheduleJob and register are typed by it, so
 * a job cannot be scheduled with a payload its handler does not read. Payloads are JSON in the jobs
 * table (ids, not records: a job reads the current state when it runs).
 */
export interface JobPayloads {
  /** Render and send one event's letter and notification (platform/events.ts). */
  'deliver-event': { outboxId: number };
  'check-publication-uniqueness': { publicationId: number };
  'refresh-uniqueness-stop-list': Record<string, never>;
  'cms-publish-service': { serviceId: number };
  'purge-deleted-files': Record<string, never>;
  /** One slice of a mass mailing; it schedules itself again until every letter is sent. */
  mailing: { mailingId: number };
  /** Remove a package's entries still unpaid when its reservation ends. */
  'expire-package': { entryIds: number[] };
  'reconcile-payment': { uuid: string };
  'reconcile-payments-list': Record<string, never>;
  'send-refund': { refundId: number };
  'print-certificates': { batchId: number };
  /** Make a person's personal-data archive (issue 33), then remove it when its link expires. */
  'personal-data-export': { exportId: number };
  'expire-personal-data-export': { exportId: number };
  /** Copy one bell notification to its user's Telegram chat (features/telegram, decision 042). */
  'telegram-notify': { notificationId: number };
  /** One message of the bot: a reply in a chat, an operator's daily summary. */
  'telegram-message': { chatId: number; html: string };
  /** The operators' daily to-do summary; it schedules itself for the next day. */
  'telegram-daily-summary': Record<string, never>;
  /** VACUUM (ANALYZE) of the embedded PGlite each night (platform/db-maintenance.ts). */
  'vacuum-embedded-database': Record<string, never>;
}
export type JobName = keyof JobPayloads;

/**
 * A handler answers nothing when the job is done, or when to run it again: `retryInSeconds` counts
 * as another attempt; with `continuation: true` the job made progress and only yields (a long
 * mailing works in slices), so its attempts start again from zero.
 */
export type JobHandler<N extends JobName = JobName> = (
  app: FastifyInstance,
  payload: JobPayloads[N],
) => Promise<void | { retryInSeconds: number; continuation?: boolean }>;

interface JobRow {
  id: number;
  name: string;
  payload: unknown;
  attempts: number;
}

const MAX_ATTEMPTS = 25;

/**
 * Schedules a job; with a unique key, an unfinished job of the same name and key is kept instead. The
 * owner (a user id) counts for the per-owner limit and the fair order of a lane.
 */
export async function scheduleJob<N extends JobName>(
  db: Queryable,
  name: N,
  payload: JobPayloads[N],
  opts: { runAt?: Date | SQL; uniqueKey?: string; ownerId?: number } = {},
): Promise<void> {
  await db
    .insert(jobs)
    .values({ name, payload, run_at: opts.runAt ?? new Date(), unique_key: opts.uniqueKey ?? null, owner_id: opts.ownerId ?? null })
    .onConflictDoNothing();
}

/**
 * A lane: jobs of one name run beside the others, up to `concurrency` at once (CPU work handed to a
 * worker pool of that size), at most `perOwner` of one owner at a time, and the owner served least
 * recently first, so one author's burst does not hold back everyone else's.
 */
export interface Lane {
  concurrency: number;
  perOwner: number;
}

/**
 * Durable job runner. Every instance polls; a due job is claimed with FOR UPDATE SKIP LOCKED and a
 * lease, so two instances never run one job at once and a crashed instance's job is taken up again
 * when its lease ends. Failures are retried with a growing delay.
 */
export class JobRunner {
  private handlers = new Map<string, JobHandler<JobName>>();
  private lanes = new Map<string, Lane & { inFlight: Set<Promise<void>> }>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private filling: Promise<number> | null = null;
  private refill = false;

  constructor(private readonly app: FastifyInstance) {}

  /** A handler; with a lane, its jobs run beside the others under the lane's limits. */
  register<N extends JobName>(name: N, handler: JobHandler<N>, lane?: Lane): void {
    this.handlers.set(name, handler as JobHandler<JobName>);
    if (lane) this.lanes.set(name, { ...lane, inFlight: new Set() });
  }

  private async claim(): Promise<JobRow | undefined> {
    const laneNames = [...this.lanes.keys()];
    const [job] = await rows<JobRow>(
      this.app.db,
      sql`update jobs set locked_until = now() + interval '2 minutes', attempts = attempts + 1, started_at = now()
          where id = (select id from jobs where done_at is null and run_at <= now() and (locked_until is null or locked_until < now())
                        ${
                          laneNames.length
                            ? sql`and name not in (${sql.join(
                                laneNames.map((n) => sql`${n}`),
                                sql`, `,
                              )})`
                            : sql``
                        }
                      order by run_at, id limit 1 for update skip locked)
          returning id, name, payload, attempts`,
    );
    return job;
  }

  /**
   * The next due job of a lane: of an owner with fewer than `perOwner` of them running, the owner
   * whose last one started longest ago (or never) first, then by due time.
   */
  private async claimLane(name: string, perOwner: number): Promise<JobRow | undefined> {
    const [job] = await rows<JobRow>(
      this.app.db,
      sql`update jobs set locked_until = now() + interval '2 minutes', attempts = attempts + 1, started_at = now()
          where id = (select j.id from jobs j
                      where j.name = ${name} and j.done_at is null and j.run_at <= now() and (j.locked_until is null or j.locked_until < now())
                        and (j.owner_id is null or (select count(*) from jobs r where r.name = j.name and r.owner_id = j.owner_id
                                                     and r.done_at is null and r.locked_until > now()) < ${perOwner})
                      order by (select max(r.started_at) from jobs r where r.name = j.name and r.owner_id = j.owner_id) nulls first, j.run_at, j.id
                      limit 1 for update of j skip locked)
          returning id, name, payload, attempts`,
    );
    return job;
  }

  /** Starts due lane jobs while their lanes have room; answers how many started. */
  private fillLanes(): Promise<number> {
    if (this.filling) {
      this.refill = true;
      return this.filling;
    }
    this.filling = (async () => {
      let started = 0;
      do {
        this.refill = false;
        for (const [name, lane] of this.lanes) {
          while (lane.inFlight.size < lane.concurrency) {
            const job = await this.claimLane(name, lane.perOwner);
            if (!job) break;
            started++;
            const run: Promise<void> = this.execute(job)
              .then(() => undefined)
              .catch((err) => this.app.log.error({ err, job: job.name, id: job.id }, 'job bookkeeping failed'))
              .finally(() => {
                lane.inFlight.delete(run);
                // A freed place takes the next due job at once while the runner is on.
                if (this.timer) void this.fillLanes();
              });
            lane.inFlight.add(run);
          }
        }
      } while (this.refill);
      return started;
    })().finally(() => {
      this.filling = null;
    });
    return this.filling;
  }

  private laneRuns(): Array<Promise<void>> {
    return [...this.lanes.values()].flatMap((l) => [...l.inFlight]);
  }

  /** Runs every due job once (lane jobs beside the others) and waits for them; answers how many ran. */
  async runDue(limit = 100): Promise<number> {
    const main = this.runMain(limit);
    let count = 0;
    for (;;) {
      count += await this.fillLanes();
      const runs = this.laneRuns();
      if (runs.length === 0) break;
      await Promise.race(runs);
    }
    return count + (await main);
  }

  /**
   * Runs the unfinished job of this name and key now, whatever its run_at (an operator asked for it).
   * Answers 'busy' when another runner holds it, 'none' when there is no such job, otherwise the
   * outcome; a failure is kept for retries as in runDue.
   */
  async runNow(name: string, uniqueKey: string): Promise<{ state: 'done' | 'busy' | 'none' } | { state: 'failed'; error: string }> {
    const [job] = await rows<JobRow>(
      this.app.db,
      sql`update jobs set locked_until = now() + interval '2 minutes', attempts = attempts + 1, started_at = now()
          where id = (select id from jobs where name = ${name} and unique_key = ${uniqueKey} and done_at is null
                        and (locked_until is null or locked_until < now()) limit 1 for update skip locked)
          returning id, name, payload, attempts`,
    );
    if (!job) {
      const [open] = await rows<{ id: number }>(
        this.app.db,
        sql`select id from jobs where name = ${name} and unique_key = ${uniqueKey} and done_at is null limit 1`,
      );
      return { state: open ? 'busy' : 'none' };
    }
    const error = await this.execute(job);
    return error === null ? { state: 'done' } : { state: 'failed', error };
  }

  /**
   * Waits (up to `ms`) while another worker holds the job `name`/`uniqueKey`: a call that found it
   * busy can then answer by its outcome instead of "queued" for a job finishing this very moment.
   */
  async waitWhileBusy(name: string, uniqueKey: string, ms = 5000): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const [held] = await rows<{ id: number }>(
        this.app.db,
        sql`select id from jobs where name = ${name} and unique_key = ${uniqueKey} and done_at is null and locked_until > now() limit 1`,
      );
      if (!held) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Runs one claimed job and records the outcome; answers the error message of a failure. */
  private async execute(job: JobRow): Promise<string | null> {
    const handler = this.handlers.get(job.name);
    try {
      if (!handler) throw new Error(`no handler for job ${job.name}`);
      // The payload was written by scheduleJob for this very name.
      const result = await handler(this.app, job.payload as JobPayloads[JobName]);
      if (result && result.continuation) {
        await this.app.db.execute(
          sql`update jobs set run_at = now() + make_interval(secs => ${result.retryInSeconds}), locked_until = null, attempts = 0 where id = ${job.id}`,
        );
      } else if (result && result.retryInSeconds > 0 && job.attempts < MAX_ATTEMPTS) {
        await this.app.db.execute(
          sql`update jobs set run_at = now() + make_interval(secs => ${result.retryInSeconds}), locked_until = null where id = ${job.id}`,
        );
      } else {
        await this.app.db.execute(sql`update jobs set done_at = now(), locked_until = null where id = ${job.id}`);
      }
      return null;
    } catch (err) {
      this.app.log.error({ err, job: job.name, id: job.id }, 'job failed');
      const message = String((err as Error)?.message ?? err);
      const finished = job.attempts >= MAX_ATTEMPTS;
      const delay = Math.min(60 * 60, 15 * 2 ** job.attempts);
      await this.app.db.execute(
        sql`update jobs set last_error = ${message.slice(0, 2000)}, locked_until = null,
            run_at = now() + make_interval(secs => ${delay}), done_at = ${finished ? sql`now()` : sql`null`} where id = ${job.id}`,
      );
      return message;
    }
  }

  start(intervalMs = 2000): void {
    if (this.timer) return;
    // Everything the timer starts (claims, handlers, bookkeeping) is background work: the embedded
    // database serves requests' statements before its statements (work-priority.ts).
    this.timer = setInterval(() => {
      asBackground(() => {
        void this.fillLanes();
        if (this.running) return;
        this.running = this.runMain().finally(() => {
          this.running = null;
        });
      });
    }, intervalMs);
    this.timer.unref();
  }

  /** The timer's pass over the jobs outside lanes (lane jobs are started by fillLanes). */
  private async runMain(limit = 100): Promise<number> {
    let count = 0;
    for (; count < limit; count++) {
      const job = await this.claim();
      if (!job) break;
      await this.execute(job);
    }
    return count;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.filling;
    await Promise.all(this.laneRuns());
  }
}
