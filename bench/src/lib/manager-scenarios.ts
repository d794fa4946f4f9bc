import type pg from 'pg';
import { Random } from './random.ts';
import { searchQueries } from './search-words.ts';
import { BENCH_NOTE } from './sessions.ts';

// The manager area of issue 10, one scenario per filter: the operator's entry list (GET /api/entry)
// and users list (GET /api/manager/users) with each filter alone, and the dashboard statistics.
// The same definitions feed load.ts (HTTP, one request per value in turn), capture-sql.ts (one probe
// each, with the first value that cannot be mistaken for a constant) and pgbench.ts (the captured
// SQL, the value picked per transaction by one helper statement).
//
// A value is a tuple: `query` is what the operator types (the URL's query string) and `vars` the
// parameters the server binds for it, by pgbench variable name (`%word%` for a substring filter,
// `prefix%` for the number, the Moscow midnight for a date...). The session token's hash is `th`
// (the operator's, constant: pgbench -D).

export interface FilterValue {
  query: string;
  vars: Record<string, string>;
}

export interface ManagerScenario {
  key: string;
  group: 'entries' | 'users' | 'statistics';
  /** What the row of the summary says. */
  name: string;
  path: string;
  values: FilterValue[];
}

const ENTRY = '/api/entry';
const USERS = '/api/manager/users';
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const contains = (text: string) => `%${escapeLike(text)}%`;
const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();

/**
 * The capture's two values of a scenario: the first whose parameters are distinct, and another whose
 * every parameter differs from all of the first's. A $n whose value follows the filter between the two
 * captures is the filter's variable; one that stays the same is a constant of the query (the
 * entry list binds status codes such as 1, 2, 3 in its SELECT, which a status filter shares).
 */
export function probePair(s: ManagerScenario): [FilterValue, FilterValue | null] {
  const distinct = (v: FilterValue) => new Set(Object.values(v.vars)).size === Object.values(v.vars).length;
  const first = s.values.find(distinct) ?? s.values[0];
  const firstVars = new Set(Object.values(first.vars));
  if (firstVars.size === 0) return [first, null];
  const second = s.values.find((v) => v !== first && distinct(v) && Object.values(v.vars).every((x) => !firstVars.has(x)));
  return [first, second ?? null];
}

export const MANAGER_KEYS = [
  'entry-default',
  'entry-number',
  'entry-fio',
  'entry-service',
  'entry-service-id',
  'entry-status',
  'entry-type',
  'entry-status-type',
  'entry-date',
  'entry-deleted',
  'users-default',
  'users-id',
  'users-fio',
  'users-phone',
  'users-email',
  'users-role',
  'users-profile',
  'users-profile-none',
  'users-deleted',
  'users-spb',
  'stats-entry',
  'stats-payment',
  'stats-user',
  'stats-publication',
  'stats-pending',
] as const;

/** `manager` is every manager-area key; `entry-*`, `users-*`, `stats-*` a group of them. */
export function expandManager(keys: string[]): string[] {
  return keys.flatMap((k) => (k === 'manager' ? [...MANAGER_KEYS] : k.endsWith('*') ? MANAGER_KEYS.filter((m) => m.startsWith(k.slice(0, -1))) : [k]));
}

/**
 * dd.mm.yyyy of a moment in Moscow time, and the bound start of that day as PostgreSQL logs it (the
 * server binds 'yyyy-mm-dd 00:00:00+03' as timestamptz; the log shows it in UTC: the day before, 21:00).
 */
function moscowDay(ms: number): { typed: string; bound: string } {
  const d = new Date(ms + 3 * 3600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  const typed = `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}`;
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - 3 * 3600_000);
  const bound = `${start.getUTCFullYear()}-${two(start.getUTCMonth() + 1)}-${two(start.getUTCDate())} ${two(start.getUTCHours())}:00:00+00`;
  return { typed, bound };
}

/** All scenarios with their values (300 at most each), read from the bench database. Same seed, same values. */
export async function managerScenarios(pool: pg.Pool, only?: Set<string>, seed = 20_261_123): Promise<ManagerScenario[]> {
  const r = new Random(seed);
  const N = 300;
  const times = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));
  const want = (key: string) => !only || only.has(key);

  const { rows: numbers } = await pool.query<{ number: string }>(
    'select number from entries tablesample system (1) repeatable (7) where number is not null limit 300',
  );
  const { rows: people } = await pool.query<{ id: number; last_name: string; phone: string | null; email: string }>(
    `select id, last_name, phone, email from users tablesample system (2) repeatable (3) where note = $1 limit 300`,
    [BENCH_NOTE],
  );
  const { rows: busiest } = await pool.query<{ id: number }>(
    'select service_id as id from entries where deleted_at is null group by service_id order by count(*) desc limit 150',
  );
  const { rows: anyService } = await pool.query<{ id: number }>(
    'select id from services tablesample system (10) repeatable (5) where deleted_at is null limit 150',
  );
  const { rows: types } = await pool.query<{ id: number }>('select id from dict_service_types order by id');
  const { rows: profiles } = await pool.query<{ id: number }>('select distinct dict_profile_id as id from user_profiles order by 1');
  const words = (await searchQueries(pool, 600))
    .filter((x) => x.words.length === 1)
    .slice(0, N)
    .map((x) => x.words[0]);
  if (numbers.length === 0 || people.length === 0) throw new Error('No entries or users: run generate.ts with --entries first.');

  const surname = (s: string) => (s.length > 6 && r.chance(0.4) ? s.slice(0, r.int(4, 6)) : s);
  const out: ManagerScenario[] = [];
  const add = (key: string, group: ManagerScenario['group'], name: string, path: string, values: () => FilterValue[]) => {
    if (want(key)) out.push({ key, group, name, path, values: values() });
  };

  add('entry-default', 'entries', 'entries, no filter (page 1)', ENTRY, () => [{ query: '', vars: {} }]);
  add('entry-number', 'entries', 'entries, number (first 9-12 characters)', ENTRY, () =>
    times(N, () => {
      const prefix = r.pick(numbers).number.slice(0, r.int(9, 12));
      return { query: q({ number: prefix }), vars: { num: `${escapeLike(prefix)}%` } };
    }),
  );
  add('entry-fio', 'entries', 'entries, fio (a surname or its start)', ENTRY, () =>
    times(N, () => {
      const word = surname(r.pick(people).last_name);
      return { query: q({ fio: word }), vars: { w: contains(word) } };
    }),
  );
  add('entry-service', 'entries', 'entries, service title (one word)', ENTRY, () =>
    times(N, () => {
      const word = r.pick(words);
      return { query: q({ service: word }), vars: { sv: contains(word) } };
    }),
  );
  add('entry-service-id', 'entries', 'entries, service_id (150 busiest + 150 any)', ENTRY, () =>
    [...busiest, ...anyService].map((s) => ({ query: q({ service_id: s.id }), vars: { sid: String(s.id) } })),
  );
  add('entry-status', 'entries', 'entries, status (1-3)', ENTRY, () => [2, 1, 3].map((st) => ({ query: q({ status: st }), vars: { st: String(st) } })));
  add('entry-type', 'entries', 'entries, type (each service type)', ENTRY, () =>
    [...types].sort((a, b) => (a.id === 2 ? -1 : b.id === 2 ? 1 : a.id - b.id)).map((t) => ({ query: q({ type: t.id }), vars: { ty: String(t.id) } })),
  );
  add('entry-status-type', 'entries', 'entries, status and type together', ENTRY, () =>
    types
      .flatMap((t) => [1, 2, 3].map((st) => ({ query: q({ status: st, type: t.id }), vars: { st: String(st), ty: String(t.id) } })))
      .sort((a, b) => (a.vars.st === '2' && a.vars.ty === '3' ? -1 : b.vars.st === '2' && b.vars.ty === '3' ? 1 : 0)),
  );
  add('entry-date', 'entries', 'entries, created date (a day of the last two years)', ENTRY, () =>
    times(N, () => {
      const day = moscowDay(Date.now() - r.int(0, 729) * 86_400_000);
      return { query: q({ date: day.typed }), vars: { day: day.bound } };
    }),
  );
  add('entry-deleted', 'entries', 'entries, deleted ones', ENTRY, () => [{ query: q({ deleted: 1 }), vars: {} }]);

  add('users-default', 'users', 'users, no filter (page 1)', USERS, () => [{ query: '', vars: {} }]);
  add('users-id', 'users', 'users, id', USERS, () => people.map((p) => ({ query: q({ id: p.id }), vars: { id: String(p.id) } })));
  add('users-fio', 'users', 'users, fio (a surname or its start)', USERS, () =>
    times(N, () => {
      const word = surname(r.pick(people).last_name);
      return { query: q({ fio: word }), vars: { w: contains(word) } };
    }),
  );
  add('users-phone', 'users', 'users, phone (11 digits or the last 5-7)', USERS, () =>
    people
      .filter((p) => p.phone)
      .map((p) => {
        const digits = p.phone!.replace(/\D/g, '');
        const typed = r.chance(0.5) ? digits : digits.slice(-r.int(5, 7));
        return { query: q({ phone: typed }), vars: { ph: contains(typed) } };
      }),
  );
  add('users-email', 'users', 'users, e-mail (first 5-8 characters)', USERS, () =>
    people.map((p) => {
      const typed = p.email.slice(0, r.int(5, 8));
      return { query: q({ email: typed }), vars: { em: contains(typed) } };
    }),
  );
  add('users-role', 'users', 'users, role (1-3)', USERS, () => [2, 3, 1].map((role) => ({ query: q({ role }), vars: { role: String(role) } })));
  add('users-profile', 'users', 'users, one work profile', USERS, () =>
    [...profiles].sort((a, b) => (a.id === 3 ? -1 : b.id === 3 ? 1 : a.id - b.id)).map((p) => ({ query: q({ profile: p.id }), vars: { pr: String(p.id) } })),
  );
  add('users-profile-none', 'users', 'users, profile not filled (0)', USERS, () => [{ query: q({ profile: 0 }), vars: {} }]);
  add('users-deleted', 'users', 'users, deleted ones', USERS, () => [{ query: q({ deleted: 'true' }), vars: {} }]);
  add('users-spb', 'users', 'users, is_spb (0 or 1)', USERS, () => [1, 0].map((v) => ({ query: q({ is_spb: v }), vars: { spb: String(v) } })));

  add('stats-entry', 'statistics', 'GET /api/entry/statistics', '/api/entry/statistics', () => [{ query: '', vars: {} }]);
  add('stats-payment', 'statistics', 'GET /api/payment/statistics', '/api/payment/statistics', () => [{ query: '', vars: {} }]);
  add('stats-user', 'statistics', 'GET /api/user/statistics', '/api/user/statistics', () => [{ query: '', vars: {} }]);
  add('stats-publication', 'statistics', 'GET /api/publication/statistics', '/api/publication/statistics', () => [{ query: '', vars: {} }]);
  add('stats-pending', 'statistics', 'GET /api/publication/count-pending', '/api/publication/count-pending', () => [{ query: '', vars: {} }]);
  return out;
}

export const requestPath = (s: ManagerScenario, v: FilterValue) => (v.query ? `${s.path}?${v.query}` : s.path);
