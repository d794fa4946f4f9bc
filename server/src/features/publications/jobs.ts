import { PublicationMessages, type UniquenessState } from '@edu/domain/publications/publication';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { rows, type Queryable } from '../../platform/db.ts';
import { AppError } from '../../platform/errors.ts';
import type { RememberedAttempts } from '../../platform/attempts.ts';
import { scheduleJob, type JobRunner, type JobPayloads } from '../../platform/jobs.ts';
import { PoolBusyError } from '../../platform/worker-pool.ts';
import { checkPublication, refreshStopList } from './uniqueness-repository.ts';
import { nextMoscowHour } from '@edu/domain/common/moscow-time';

export const UNIQUENESS_JOB = 'check-publication-uniqueness';
const jobKey = (publicationId: number) => `publication:${publicationId}`;

/** SQL: 'queued' or 'running' while the check of the publication `id` (a column or value) is unfinished, else null. */
export function uniquenessStateSql(id: SQL): SQL {
  return sql`(select case when j.locked_until > now() then 'running' else 'queued' end from jobs j
              where j.name = ${UNIQUENESS_JOB} and j.unique_key = 'publication:' || ${id} and j.done_at is null limit 1)`;
}

export async function uniquenessState(db: Queryable, publicationId: number): Promise<UniquenessState | null> {
  const [r] = await rows<{ state: UniquenessState | null }>(db, sql`select ${uniquenessStateSql(sql`${publicationId}`)} as state`);
  return r?.state ?? null;
}

/** A text waits a second between its checks for every this many characters, */
const RECHECK_CHARS_PER_SECOND = 8000;
/** and at most this many seconds. */
const RECHECK_MAX_SECONDS = 60;

/**
 * Seconds a publication's text waits after its last check before the next one: a check costs in
 * proportion to the text (a 480 000-character one about a second of both cores, half of it in the
 * database), and the spec promises the result within the hour, not at once. One account re-saving a
 * long text in a loop had it checked after every save, back to back; now at most once a minute
 * (issue 29). A short text's wait is under a second.
 */
export const recheckDelaySeconds = (textLength: number): number => Math.min(RECHECK_MAX_SECONDS, textLength / RECHECK_CHARS_PER_SECOND);

/** SQL: when the check of the publication `id` edited now may run (recheckDelaySeconds after its last check, or now). */
const nextCheckAt = (publicationId: number): SQL =>
  sql`greatest(now(), (select uniqueness_checked_at + make_interval(secs => least(${RECHECK_MAX_SECONDS}, coalesce(text_length, 0)::float8 / ${RECHECK_CHARS_PER_SECOND}))
                       from publications where id = ${publicationId}))`;

/**
 * Schedules the uniqueness check of a publication (on submit and on edit: 'будет проверена
 * антиплагиатом в течение часа'), owned by its author, no sooner than recheckDelaySeconds after its
 * last check. An unfinished check of the same publication is kept instead of a second one; it reads
 * the text when it runs, so it sees the latest edit. With `pendingLimit` (a user's own submission)
 * the author may have at most that many other publications awaiting their check: one more answers
 * 429 and the save is rolled back.
 */
export async function scheduleUniquenessCheck(db: Queryable, publicationId: number, ownerId: number, opts: { pendingLimit?: number } = {}): Promise<void> {
  if (opts.pendingLimit !== undefined) {
    // One author's saves count one after another (two parallel submissions cannot both slip under the limit).
    await db.execute(sql`select pg_advisory_xact_lock(hashtext(${UNIQUENESS_JOB}), ${ownerId})`);
    const [r] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from jobs where name = ${UNIQUENESS_JOB} and owner_id = ${ownerId} and done_at is null and unique_key <> ${jobKey(publicationId)}`,
    );
    if (r.n >= opts.pendingLimit) throw new AppError(429, PublicationMessages.tooManyChecks(r.n));
  }
  await scheduleJob(db, UNIQUENESS_JOB, { publicationId }, { uniqueKey: jobKey(publicationId), ownerId, runAt: nextCheckAt(publicationId) });
}

/**
 * A user's save of a publication whose check waits or runs: such a save replaces the waiting check
 * (scheduleUniquenessCheck keeps the one open job, which reads the latest text), so it costs no queue
 * place, but every save still cleans and stores the whole text. At most `perWindow` such saves of one
 * publication by one user in `windowMinutes`; one more answers 429 before the body is read. Called
 * for users only (operators are not limited).
 */
export async function limitSavesWhileChecked(
  db: Queryable,
  userId: number,
  publicationId: number,
  limits: { perWindow: number; windowMinutes: number; attempts: RememberedAttempts },
): Promise<void> {
  if (!(await uniquenessState(db, publicationId))) return;
  if (!(await limits.attempts.take(db, saveKey(userId, publicationId), limits.perWindow, limits.windowMinutes))) {
    throw new AppError(429, PublicationMessages.savedTooOftenWhileChecked);
  }
}

const saveKey = (userId: number, publicationId: number) => `publication-save:${userId}:${publicationId}`;

/**
 * Once those saves are used up, every further save of the publication by the user is refused until
 * the window ends, from memory and before anything else is read: a loop of refused saves then costs
 * the database its session statement alone (it was four, one of them a write, on the embedded
 * database's one connection; issue 29), whether or not the check is still waiting meanwhile.
 */
export function refuseSpentSaves(userId: number, publicationId: number, attempts: RememberedAttempts): void {
  if (attempts.spent(saveKey(userId, publicationId))) throw new AppError(429, PublicationMessages.savedTooOftenWhileChecked);
}

/**
 * 'check-publication-uniqueness' {publicationId}: indexes the text and stores the check's result; the
 * analysis and alignment run in the worker pool (app.uniqueness). An edit saved while the check ran
 * (its schedule was merged into this job) makes it run again; a pool with a full queue (operators'
 * checks) makes it wait a little.
 */
async function checkPublicationJob(app: FastifyInstance, { publicationId: id }: JobPayloads['check-publication-uniqueness']) {
  if (!Number.isInteger(id) || id <= 0) return;
  let result;
  try {
    result = await checkPublication(app.db, id, app.uniqueness);
  } catch (err) {
    if (err instanceof PoolBusyError) return { retryInSeconds: 5, continuation: true };
    throw err;
  }
  if (!result) return;
  // An edit saved meanwhile: checked again after the text's own wait. Each such run follows a new
  // edit, so it is progress, not a failed attempt (a long editing session never runs out of attempts).
  const [pub] = await rows<{ edited: boolean; length: number | null }>(
    app.db,
    sql`select updated_at > uniqueness_checked_at is not false as edited, text_length as length from publications where id = ${id}`,
  );
  if (result === 'stale' || pub?.edited) return { retryInSeconds: recheckDelaySeconds(pub?.length ?? 0), continuation: true };
}

/**
 * The operator's 'Проверить': the check runs now in the pool and its result is stored, unless the
 * publication's check is already queued or running (answered as such, nothing started twice) or the
 * pool's queue is full (then it is scheduled and answered 'postponed').
 */
export async function checkPublicationNow(
  app: FastifyInstance,
  publicationId: number,
  ownerId: number,
): Promise<{ state: 'done' | 'postponed' | UniquenessState }> {
  const state = await uniquenessState(app.db, publicationId);
  if (state) return { state };
  try {
    const result = await checkPublication(app.db, publicationId, app.uniqueness);
    if (result === 'stale') await scheduleUniquenessCheck(app.db, publicationId, ownerId);
    return { state: 'done' };
  } catch (err) {
    if (!(err instanceof PoolBusyError)) throw err;
    await scheduleUniquenessCheck(app.db, publicationId, ownerId);
    return { state: 'postponed' };
  }
}

export const STOP_LIST_JOB = 'refresh-uniqueness-stop-list';

/** The next 03:00 in Moscow after `now`: a quiet hour for a full pass. */
export const nextNightRun = (now = new Date()): Date => nextMoscowHour(3, now);

/**
 * Keeps one open 'refresh-uniqueness-stop-list' job (the unique key merges repeats from every
 * server start and every instance); it runs at night and reschedules itself for the next one.
 */
export async function scheduleStopListRefresh(db: Queryable, now = new Date()): Promise<void> {
  await scheduleJob(db, STOP_LIST_JOB, {}, { uniqueKey: 'nightly', runAt: nextNightRun(now) });
}

async function stopListJob(app: FastifyInstance) {
  const listed = await refreshStopList(app.db);
  app.log.info({ listed }, 'uniqueness stop-list refreshed');
  return { retryInSeconds: Math.max(60, (nextNightRun().getTime() - Date.now()) / 1000), continuation: true };
}

/** The checks run beside the other jobs, as many at once as the pool has workers, `runningPerUser` of one author. */
export function registerPublicationJobs(runner: JobRunner, limits: { workers: number; runningPerUser: number }): void {
  runner.register(UNIQUENESS_JOB, checkPublicationJob, { concurrency: limits.workers, perOwner: limits.runningPerUser });
  runner.register(STOP_LIST_JOB, stopListJob);
}
