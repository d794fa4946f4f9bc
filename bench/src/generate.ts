// Fills a migrated database with bench data. Usage (from the repo root):
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/edu_bench npx tsx bench/src/generate.ts --users 100000
// Options: --users N (100000)  --sessions N (1000)  --reset  --migrate  --seed N  --batch N (1000)  --concurrency N (2)
// Each step is a module in steps/; services and entries are the next ones (see bench/README.md).
import { performance } from 'node:perf_hooks';
import { parseArgs } from './lib/args.ts';
import { databaseUrl, openPool } from './lib/db.ts';
import { resetBench } from './steps/reset.ts';
import { generateUsers } from './steps/users.ts';
import { issueSessions } from './steps/sessions.ts';
import { tokensFile } from './lib/sessions.ts';

const args = parseArgs();
const opts = {
  users: args.number('users', 100_000),
  sessions: args.number('sessions', 1000),
  batchSize: args.number('batch', 1000),
  concurrency: args.number('concurrency', 2),
  seed: args.number('seed', 20_250_901),
  reset: args.flag('reset'),
  migrate: args.flag('migrate'),
};
for (const later of ['services', 'entries']) {
  if (args.has(later)) {
    console.error(`--${later} is not implemented yet: the ${later} step is planned (bench/README.md, "Extending").`);
    process.exit(2);
  }
}

const timings: Array<[string, number]> = [];
async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const result = await fn();
  const ms = performance.now() - t;
  timings.push([name, ms]);
  console.log(`${name}: ${(ms / 1000).toFixed(1)} s`);
  return result;
}

const started = performance.now();

if (opts.migrate) {
  await step('migrate + dictionaries', async () => {
    // The server's own migrator and seed, under its startup lock: safe while an app instance starts.
    const { openPostgres } = await import('@edu/server/src/platform/db.ts');
    const { seedDictionaries } = await import('@edu/server/src/db/seed/seed.ts');
    const database = openPostgres(databaseUrl(), 2);
    try {
      await database.withStartupLock(async () => {
        await database.migrate();
        await seedDictionaries(database.db);
      });
    } finally {
      await database.close();
    }
  });
}

const pool = openPool(opts.concurrency + 1);
try {
  const { rows } = await pool
    .query<{ n: number }>('select count(*)::int as n from dict_profiles where id between 1 and 11')
    .catch(() => ({ rows: [{ n: 0 }] }));
  if (rows[0].n < 11) {
    throw new Error('The database is not migrated and seeded: start the app against it once, or pass --migrate.');
  }

  if (opts.reset) {
    const { users } = await step('reset', () => resetBench(pool));
    console.log(`  deleted ${users} bench users with their profiles and sessions`);
  }

  const users = await step('users', () => generateUsers(pool, { ...opts, target: opts.users }));
  console.log(
    users.created > 0
      ? `  created ${users.created} users with ${users.profiles} work profiles (${users.existing} were there)`
      : `  ${users.existing} bench users already there; nothing to add (--reset starts over)`,
  );

  const sessions = await step('sessions', () => issueSessions(pool, opts.sessions));
  console.log(`  ${sessions.count} sessions for user ids ${sessions.first_user_id}..${sessions.last_user_id} -> ${tokensFile()}`);

  await step('analyze', () => pool.query('analyze users, user_profiles, access_tokens'));
} finally {
  await pool.end();
}

console.log(`total: ${((performance.now() - started) / 1000).toFixed(1)} s`);
