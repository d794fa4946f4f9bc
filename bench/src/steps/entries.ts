import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { withoutSecondaryIndexes } from '../lib/bulk.ts';
import { serviceTypes, thesisSentences } from '../lib/catalogue-data.ts';
import { inTransaction, runLimited } from '../lib/db.ts';
import { Random } from '../lib/random.ts';
import { BENCH_NOTE } from '../lib/sessions.ts';
import { BENCH_SERVICE_MARK } from './services.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

export interface EntriesOptions {
  target: number;
  batchSize: number;
  concurrency: number;
  seed: number;
  /** Drop the secondary indexes of entries during the load and build them afterwards (faster above ~100k rows). */
  rebuildIndexes: boolean;
}

export interface EntriesResult {
  existing: number;
  created: number;
  theses: number;
  byStatus: Record<string, number>;
  deleted: number;
  /** Milliseconds of each phase. */
  phases: Record<string, number>;
}

interface UserRow {
  id: number;
  created: number;
}

interface ServiceRow {
  id: number;
  price: string;
  type: number;
  date_type: number;
  begda: number | null;
  endda: number | null;
  created: number;
  deleted: number | null;
  hidden: boolean;
  participation: number;
  sections: number[] | null;
}

/** Column arrays of one insert batch (timestamps as epoch seconds, converted by to_timestamp in SQL). */
interface Batch {
  id: number[];
  number: string[];
  created_by: number[];
  service_id: number[];
  section_id: Array<number | null>;
  pay_type: number[];
  is_extramural: number[];
  price: string[];
  status: number[];
  paid_at: Array<number | null>;
  done_at: Array<number | null>;
  created_at: number[];
  updated_at: number[];
  deleted_at: Array<number | null>;
}

const INSERT_ENTRIES = `
insert into entries (id, number, created_by, service_id, section_id, pay_type, is_extramural, price, status,
  paid_at, done_at, created_at, updated_at, deleted_at)
select e.id, e.number, e.created_by, e.service_id, e.section_id, e.pay_type, e.is_extramural, e.price, e.status,
  to_timestamp(e.paid_at), to_timestamp(e.done_at), to_timestamp(e.created_at), to_timestamp(e.updated_at), to_timestamp(e.deleted_at)
from unnest($1::int[], $2::text[], $3::int[], $4::int[], $5::int[], $6::smallint[], $7::smallint[], $8::numeric[], $9::smallint[],
  $10::float8[], $11::float8[], $12::float8[], $13::float8[], $14::float8[])
  as e(id, number, created_by, service_id, section_id, pay_type, is_extramural, price, status, paid_at, done_at, created_at, updated_at, deleted_at)`;

/** Cumulative weights, for picking with a binary search. */
function cumulative(weights: number[]): Float64Array {
  const c = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((w, i) => (c[i] = sum += w));
  return c;
}

function pickIndex(cum: Float64Array, r: Random): number {
  const x = r.next() * cum[cum.length - 1];
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** 'YYMM' of a moment, Moscow time (UTC+3), as the server numbers entries. */
function moscowMonth(ms: number): string {
  const d = new Date(ms + 3 * HOUR);
  return `${String(d.getUTCFullYear()).slice(2)}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

const popularity = new Map(serviceTypes.map((t) => [t.id, t.popularity]));

/**
 * Adds entries of bench users on bench services until there are `target` of them:
 * - clients: log-normal activity (a few have hundreds of entries, ~18 % none), scaled down for those
 *   registered recently; an entry is never older than its client's account or its service;
 * - services: log-normal popularity times the type's (webinars and conferences draw more);
 * - one live entry per client, service and section, as the server enforces; a section when the service has some;
 * - status from the service's dates: past events mostly done (3), upcoming ones unpaid (1) or paid (2);
 *   free services are paid at once; ~2 % soft-deleted (mostly unpaid ones);
 * - number 'YYMM-NNNNNNN' (Moscow month of creation and the id: unique); price from the service;
 * - theses for most entries of services that need them.
 * Then: max_participants raised where the generated entries would overfill a service or a section,
 * the entries sequence set to max(id), VACUUM ANALYZE.
 */
export async function generateEntries(pool: pg.Pool, opts: EntriesOptions): Promise<EntriesResult> {
  const phases: Record<string, number> = {};
  const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await fn();
    phases[name] = Math.round(performance.now() - t);
    return out;
  };

  const { rows: countRows } = await pool.query<{ n: number }>(
    'select count(*)::int as n from entries e join users u on u.id = e.created_by where u.note = $1',
    [BENCH_NOTE],
  );
  const existing = countRows[0].n;
  const toCreate = Math.max(0, opts.target - existing);
  const result: EntriesResult = { existing, created: 0, theses: 0, byStatus: {}, deleted: 0, phases };
  if (toCreate === 0) return result;

  const { users, services, taken } = await timed('read users and services', async () => {
    const [u, s, t] = await Promise.all([
      pool.query<UserRow>(`select id, extract(epoch from created_at) * 1000 as created from users where note = $1 and role = 2 order by id`, [BENCH_NOTE]),
      pool.query<ServiceRow>(
        `select s.id, s.price, s.dict_type_id as type, s.date_type, extract(epoch from s.begda) * 1000 as begda,
           extract(epoch from s.endda) * 1000 as endda, extract(epoch from s.created_at) * 1000 as created,
           extract(epoch from s.deleted_at) * 1000 as deleted, not s.is_visible as hidden, s.participation_type as participation,
           (select array_agg(sec.id order by sec.id) from service_sections sec where sec.service_id = s.id and sec.deleted_at is null) as sections
         from services s where s.joomla_intro_html = $1 order by s.id`,
        [BENCH_SERVICE_MARK],
      ),
      // Live (client, service, section) triples already there: never a second live entry for one.
      existing > 0
        ? pool.query<{ k: string }>(
            `select e.created_by || ':' || e.service_id || ':' || coalesce(e.section_id, 0) as k
             from entries e join users u on u.id = e.created_by where u.note = $1 and e.deleted_at is null`,
            [BENCH_NOTE],
          )
        : Promise.resolve({ rows: [] as Array<{ k: string }> }),
    ]);
    return { users: u.rows.map((r) => ({ id: r.id, created: Number(r.created) })), services: s.rows, taken: new Set(t.rows.map((r) => r.k)) };
  });
  if (users.length === 0) throw new Error('No bench users: run with --users first.');
  if (services.length === 0) throw new Error('No bench services: run with --services first.');

  const r = new Random(opts.seed + 13 * existing + 2);
  const now = Date.now();
  const horizon = now - 730 * DAY;
  const userCum = cumulative(users.map((u) => (r.chance(0.18) ? 0 : r.logNormal(1.25) * Math.min(1, Math.max(0.05, (now - u.created) / (730 * DAY))))));
  const serviceCum = cumulative(services.map((s) => r.logNormal(1.0) * (popularity.get(s.type) ?? 1) * (s.deleted ? 0.3 : 1) * (s.hidden ? 0.3 : 1)));
  for (const s of services) {
    s.begda = s.begda === null ? null : Number(s.begda);
    s.endda = s.endda === null ? null : Number(s.endda);
    s.created = Number(s.created);
    s.deleted = s.deleted === null ? null : Number(s.deleted);
  }

  // Reserve the id range up front (the server may insert entries meanwhile: it takes ids after it).
  const { rows: seqName } = await pool.query<{ seq: string }>(`select pg_get_serial_sequence('entries', 'id') as seq`);
  const { rows: seqRows } = await pool.query<{ first: string }>(
    `select setval($1::regclass, greatest((select coalesce(max(id), 0) from entries), (select last_value from ${seqName[0].seq})) + $2) - $2 + 1 as first`,
    [seqName[0].seq, toCreate],
  );
  const firstId = Number(seqRows[0].first);

  const batches: Batch[] = [];
  await timed('generate in memory', async () => {
    let batch: Batch | null = null;
    for (let n = 0; n < toCreate; n++) {
      if (!batch || batch.id.length >= opts.batchSize) {
        batch = {
          id: [],
          number: [],
          created_by: [],
          service_id: [],
          section_id: [],
          pay_type: [],
          is_extramural: [],
          price: [],
          status: [],
          paid_at: [],
          done_at: [],
          created_at: [],
          updated_at: [],
          deleted_at: [],
        };
        batches.push(batch);
      }
      const id = firstId + n;
      let user: UserRow;
      let s: ServiceRow;
      let section: number | null;
      let lo: number;
      let hi: number;
      for (let attempt = 0; ; attempt++) {
        if (attempt > 10_000) throw new Error('Cannot place an entry: too few users or services for the target.');
        user = users[pickIndex(userCum, r)];
        s = services[pickIndex(serviceCum, r)];
        section = s.sections?.length ? r.pick(s.sections) : null;
        lo = Math.max(s.created, user.created, horizon);
        hi = s.date_type === 1 && (s.endda ?? s.begda) !== null ? Math.min(now, (s.endda ?? s.begda)!) : now;
        if (s.deleted !== null) hi = Math.min(hi, s.deleted);
        const key = `${user.id}:${s.id}:${section ?? 0}`;
        if (lo < hi && !taken.has(key)) {
          taken.add(key);
          break;
        }
      }
      // Clients apply more often as the date comes closer.
      const created = lo + (hi - lo) * Math.sqrt(r.next());
      const ended = s.date_type === 1 && s.endda !== null && s.endda < now;
      let status: number;
      if (ended)
        status = r.weighted([
          [3, 75],
          [2, 12],
          [1, 13],
        ] as const);
      else if (s.date_type === 1)
        status = r.weighted([
          [1, 35],
          [2, 62],
          [3, 3],
        ] as const);
      else if (now - created > 60 * DAY)
        status = r.weighted([
          [3, 70],
          [2, 15],
          [1, 15],
        ] as const);
      else
        status = r.weighted([
          [1, 40],
          [2, 50],
          [3, 10],
        ] as const);
      if (Number(s.price) === 0 && status === 1) status = 2;
      const paid = status >= 2 ? Math.min(now, created + r.next() * 3 * DAY) : null;
      let done: number | null = null;
      if (status === 3) done = Math.max(paid!, Math.min(now, ended ? s.endda! + r.int(1, 14) * DAY : paid! + r.int(1, 30) * DAY));
      const deleted = r.chance(status === 1 ? 0.08 : 0.003) ? Math.min(now, created + r.next() * 10 * DAY) : null;
      if (deleted !== null) taken.delete(`${user.id}:${s.id}:${section ?? 0}`);

      batch.id.push(id);
      batch.number.push(`${moscowMonth(created)}-${String(id).padStart(7, '0')}`);
      batch.created_by.push(user.id);
      batch.service_id.push(s.id);
      batch.section_id.push(section);
      batch.pay_type.push(
        r.weighted([
          [3, 75],
          [1, 15],
          [2, 7],
          [4, 3],
        ] as const),
      );
      batch.is_extramural.push(s.participation === 2 ? 0 : s.participation === 3 ? 1 : r.chance(0.6) ? 1 : 0);
      batch.price.push(s.price);
      batch.status.push(status);
      batch.paid_at.push(paid === null ? null : paid / 1000);
      batch.done_at.push(done === null ? null : done / 1000);
      batch.created_at.push(created / 1000);
      batch.updated_at.push(Math.max(created, paid ?? 0, done ?? 0, deleted ?? 0) / 1000);
      batch.deleted_at.push(deleted === null ? null : deleted / 1000);
      result.byStatus[status] = (result.byStatus[status] ?? 0) + 1;
      if (deleted !== null) result.deleted++;
    }
  });

  const insertAll = async () => {
    const tasks = batches.map((b) => async () => {
      await inTransaction(pool, async (client) => {
        // The rows are consistent by construction: skip the per-row foreign-key triggers (superuser only).
        await client.query('set local session_replication_role = replica').catch(() => undefined);
        await client.query(INSERT_ENTRIES, [
          b.id,
          b.number,
          b.created_by,
          b.service_id,
          b.section_id,
          b.pay_type,
          b.is_extramural,
          b.price,
          b.status,
          b.paid_at,
          b.done_at,
          b.created_at,
          b.updated_at,
          b.deleted_at,
        ]);
      });
      result.created += b.id.length;
      if (process.stdout.isTTY) process.stdout.write(`\r  entries ${result.created}/${toCreate}`);
    });
    await runLimited(tasks, opts.concurrency);
    if (process.stdout.isTTY) process.stdout.write('\n');
  };
  if (opts.rebuildIndexes) {
    const t = performance.now();
    const { rebuildMs } = await withoutSecondaryIndexes(pool, 'entries', insertAll);
    phases['insert (indexes dropped)'] = Math.round(performance.now() - t - rebuildMs);
    phases['build indexes'] = Math.round(rebuildMs);
  } else {
    await timed('insert', insertAll);
  }
  const lastId = firstId + toCreate - 1;

  await timed('check foreign keys', async () => {
    // The triggers were off: prove the references hold (one anti-join each).
    const { rows } = await pool.query<{ bad: number }>(
      `select (select count(*) from entries e where e.id between $1 and $2 and not exists (select 1 from users u where u.id = e.created_by))
            + (select count(*) from entries e where e.id between $1 and $2 and not exists (select 1 from services s where s.id = e.service_id))
            + (select count(*) from entries e where e.id between $1 and $2 and e.section_id is not null
                 and not exists (select 1 from service_sections x where x.id = e.section_id))::int as bad`,
      [firstId, lastId],
    );
    if (Number(rows[0].bad) > 0) throw new Error(`${rows[0].bad} generated entries break a foreign key`);
  });

  result.theses = await timed('theses', async () => {
    const { rowCount } = await pool.query(
      `insert into entry_theses (entry_id, text, created_at, updated_at)
       select e.id,
         array_to_string(array(select ($3::text[])[1 + (e.id::bigint * k * 7919 + k) % cardinality($3::text[])]
                               from generate_series(1, 3 + e.id % 4) k), ' '),
         e.created_at + interval '2 hours', e.created_at + interval '2 hours'
       from entries e join services s on s.id = e.service_id
       where e.id between $1 and $2 and s.is_thesis_needed and (e.id::bigint * 2654435761) % 100 < 80`,
      [firstId, lastId, thesisSentences],
    );
    return rowCount ?? 0;
  });

  await timed('seats', () =>
    // A service (or each of its sections) never holds more live entries than its seats.
    pool.query(
      `with per_place as (
         select service_id, count(*) as n from entries where deleted_at is null group by service_id, section_id),
       busiest as (select service_id, max(n) as n from per_place group by service_id)
       update services s set max_participants = (ceil((b.n * 1.15 + 5) / 10.0) * 10)::int
       from busiest b
       where s.id = b.service_id and s.joomla_intro_html = $1
         and b.n + 3 > (case when s.max_participants > 0 then s.max_participants else 27 end)`,
      [BENCH_SERVICE_MARK],
    ),
  );

  await timed('sequences', () => resetSequences(pool, ['entries', 'entry_theses', 'services', 'service_sections']));
  await timed('vacuum analyze', () => pool.query('vacuum (analyze) entries, entry_theses, services, service_sections, service_profiles, service_leadings'));
  return result;
}

/** Sets each table's id sequence to max(id), as the brief of the generator asks (the next insert gets max + 1). */
export async function resetSequences(pool: pg.Pool, tables: string[]): Promise<void> {
  for (const t of tables) {
    await pool.query(`select setval(pg_get_serial_sequence($1, 'id'), greatest(1, (select coalesce(max(id), 0) from ${t})), (select count(*) > 0 from ${t}))`, [
      t,
    ]);
  }
}
