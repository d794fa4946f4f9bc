import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { jobs } from '../db/schema/index.ts';
import { rows, type Queryable } from './db.ts';

/**
 * A handler answers nothing when the job is done, or when to run it again: `retryInSeconds` counts
 * as another attempt; with `continuation: true` the job made progress and only yields (a long
 * mailing works in slices), so its attempts start again from zero.
 */
export type JobHandler = (app: FastifyInstance, payload: Record<string, unknown>) => Promise<void | { retryInSeconds: number; continuation?: boolean }>;

interface JobRow {
  id: number;
  name: string;
  payload: Record<string, unknown>;
  attempts: number;
}

const MAX_ATTEMPTS = 25;

/** Schedules a job; with a unique key, an unfinished job of the same name and key is kept instead. */
export async function scheduleJob(db: Queryable, name: string, payload: Record<string, unknown>, opts: { runAt?: Date; uniqueKey?: string } = {}): Promise<void> {
  await db
    .insert(jobs)
    .values({ name, payload, run_at: opts.runAt ?? new Date(), unique_key: opts.uniqueKey ?? null })
    .onConflictDoNothing();
}

/**
 * Durable job runner. Every instance polls; a due job is claimed with FOR UPDATE SKIP LOCKED and a
 * lease, so two instances never run one job at once and a crashed instance's job is taken up again
 * when its lease ends. Failures are retried with a growing delay.
 */
export class JobRunner {
  private handlers = new Map<string, JobHandler>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(private readonly app: FastifyInstance) {}

  register(name: string, handler: JobHandler): void {
    this.handlers.set(name, handler);
  }

  private async claim(): Promise<JobRow | undefined> {
    const [job] = await rows<JobRow>(
      this.app.db,
      sql`update jobs set locked_until = now() + interval '2 minutes', attempts = attempts + 1
          where id = (select id from jobs where done_at is null and run_at <= now() and (locked_until is null or locked_until < now())
                      order by run_at, id limit 1 for update skip locked)
          returning id, name, payload, attempts`,
    );
    return job;
  }

  /** Runs every due job once; answers how many ran. */
  async runDue(limit = 100): Promise<number> {
    let count = 0;
    for (; count < limit; count++) {
      const job = await this.claim();
      if (!job) break;
      await this.execute(job);
    }
    return count;
  }

  /**
   * Runs the unfinished job of this name and key now, whatever its run_at (an operator asked for it).
   * Answers 'busy' when another runner holds it, 'none' when there is no such job, otherwise the
   * outcome; a failure is kept for retries as in runDue.
   */
  async runNow(name: string, uniqueKey: string): Promise<{ state: 'done' | 'busy' | 'none' } | { state: 'failed'; error: string }> {
    const [job] = await rows<JobRow>(
      this.app.db,
      sql`update jobs set locked_until = now() + interval '2 minutes', attempts = attempts + 1
          where id = (select id from jobs where name = ${name} and unique_key = ${uniqueKey} and done_at is null
                        and (locked_until is null or locked_until < now()) limit 1 for update skip locked)
          returning id, name, payload, attempts`,
    );
    if (!job) {
      const [open] = await rows<{ id: number }>(this.app.db, sql`select id from jobs where name = ${name} and unique_key = ${uniqueKey} and done_at is null limit 1`);
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
      const result = await handler(this.app, job.payload);
      if (result && result.continuation) {
        await this.app.db.execute(sql`update jobs set run_at = now() + make_interval(secs => ${result.retryInSeconds}), locked_until = null, attempts = 0 where id = ${job.id}`);
      } else if (result && result.retryInSeconds > 0 && job.attempts < MAX_ATTEMPTS) {
        await this.app.db.execute(sql`update jobs set run_at = now() + make_interval(secs => ${result.retryInSeconds}), locked_until = null where id = ${job.id}`);
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
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.runDue().finally(() => {
        this.running = null;
      });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
