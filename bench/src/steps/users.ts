import type pg from 'pg';
import { hashPassword } from '@edu/server/src/platform/passwords.ts';
import { inTransaction, runLimited } from '../lib/db.ts';
import { PersonFactory, type Person } from '../lib/people.ts';
import { Random } from '../lib/random.ts';
import { BENCH_NOTE, BENCH_PASSWORD } from '../lib/sessions.ts';

/** Role.user of domain/src/common/codes.ts (a client of the centre). */
const ROLE_USER = 2;

export interface UsersOptions {
  /** How many bench users the database should hold in the end. */
  target: number;
  batchSize: number;
  concurrency: number;
  seed: number;
}

const INSERT_USERS = `
insert into users (id, email, phone, password, last_name, first_name, middle_name, organization, job_title,
  learned_from_us, address, region, dict_region_id, country, postcode, note, role, is_spb, birthday, created_at, updated_at)
select u.id, u.email, u.phone, $1, u.last_name, u.first_name, u.middle_name, u.organization, u.job_title,
  u.learned_from_us, u.address, u.region, u.dict_region_id, u.country, u.postcode, $2, $3, u.is_spb, u.birthday, u.created_at, u.created_at
from unnest($4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[],
  $13::text[], $14::text[], $15::int[], $16::text[], $17::text[], $18::smallint[], $19::date[], $20::timestamptz[])
  as u(id, email, phone, last_name, first_name, middle_name, organization, job_title, learned_from_us,
       address, region, dict_region_id, country, postcode, is_spb, birthday, created_at)`;

const INSERT_PROFILES = `
insert into user_profiles (user_id, dict_profile_id)
select * from unnest($1::int[], $2::int[])`;

/**
 * Adds bench users until there are `target` of them: multi-row inserts through unnest() arrays,
 * `batchSize` users (and their profiles) per transaction, `concurrency` transactions at a time.
 * Ids are taken from the users sequence up front, so profiles and sessions need no round trip back.
 */
export async function generateUsers(pool: pg.Pool, opts: UsersOptions): Promise<{ existing: number; created: number; profiles: number }> {
  const { rows: countRows } = await pool.query<{ n: number }>('select count(*)::int as n from users where note = $1', [BENCH_NOTE]);
  const existing = countRows[0].n;
  const toCreate = Math.max(0, opts.target - existing);
  if (toCreate === 0) return { existing, created: 0, profiles: 0 };

  const [emails, phones] = await Promise.all([
    pool.query<{ v: string }>('select lower(email) as v from users'),
    pool.query<{ v: string }>('select phone as v from users where phone is not null'),
  ]);
  const factory = new PersonFactory(new Random(opts.seed + existing), new Set(emails.rows.map((r) => r.v)), new Set(phones.rows.map((r) => r.v)));
  // One argon2id hash for everybody: hashing 100k passwords would take the better part of an hour.
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const { rows: idRows } = await pool.query<{ id: number }>(
    `select nextval(pg_get_serial_sequence('users', 'id'))::int as id from generate_series(1, $1) order by 1`,
    [toCreate],
  );
  const ids = idRows.map((r) => r.id);

  let created = 0;
  let profiles = 0;
  const tasks: Array<() => Promise<void>> = [];
  for (let start = 0; start < ids.length; start += opts.batchSize) {
    const batchIds = ids.slice(start, start + opts.batchSize);
    tasks.push(async () => {
      const people = batchIds.map(() => factory.next());
      const profileRows = people.flatMap((p, i) => p.profileIds.map((profileId) => [batchIds[i], profileId] as const));
      await inTransaction(pool, async (client) => {
        await client.query(INSERT_USERS, [passwordHash, BENCH_NOTE, ROLE_USER, batchIds, ...userColumns(people)]);
        await client.query(INSERT_PROFILES, [profileRows.map((r) => r[0]), profileRows.map((r) => r[1])]);
      });
      created += people.length;
      profiles += profileRows.length;
      if (process.stdout.isTTY && (created % (opts.batchSize * 10) === 0 || created === toCreate)) process.stdout.write(`\r  users ${created}/${toCreate}`);
    });
  }
  await runLimited(tasks, opts.concurrency);
  if (process.stdout.isTTY) process.stdout.write('\n');
  return { existing, created, profiles };
}

/** Column arrays in the order of the unnest() of INSERT_USERS. */
function userColumns(people: Person[]): unknown[] {
  const col = <T>(f: (p: Person) => T) => people.map(f);
  return [
    col((p) => p.email),
    col((p) => p.phone),
    col((p) => p.last_name),
    col((p) => p.first_name),
    col((p) => p.middle_name),
    col((p) => p.organization),
    col((p) => p.job_title),
    col((p) => p.learned_from_us),
    col((p) => p.address),
    col((p) => p.region),
    col((p) => p.dict_region_id),
    col((p) => p.country),
    col((p) => p.postcode),
    col((p) => p.is_spb),
    col((p) => p.birthday),
    col((p) => p.created_at.toISOString()),
  ];
}
