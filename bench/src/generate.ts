// Fills a migrated database with bench data. Usage (from the repo root):
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/edu_bench npx tsx bench/src/generate.ts --users 100000 --services 20000 --entries 1000000
// Options: --users N (100000)  --services N (0)  --entries N (0)  --sessions N (1000)  --heavy N (500)  --reset  --migrate
//          --seed N  --batch N (1000)  --entries-batch N (10000)  --concurrency N (2)  --keep-indexes
//          --payments (a payment per paid entry)  --deleted-users N (soft-deleted clients): the manager-area bench
// Each step is a module in steps/: reset, users, services, entries, sessions (see bench/README.md).
import { performance } from 'node:perf_hooks';
import { parseArgs } from './lib/args.ts';
import { databaseUrl, openPool } from './lib/db.ts';
import { resetBench } from './steps/reset.ts';
import { generateUsers } from './steps/users.ts';
import { issueSessions } from './steps/sessions.ts';
import { generateServices } from './steps/services.ts';
import { generateEntries } from './steps/entries.ts';
import { deleteSomeUsers, generatePayments } from './steps/manager-extras.ts';
import { restoreIndexes } from './lib/bulk.ts';
import { tokensFile } from './lib/sessions.ts';

const args = parseArgs();
const opts = {
  users: args.number('users', 100_000),
  services: args.number('services', 0),
  entries: args.number('entries', 0),
  sessions: args.number('sessions', 1000),
  heavy: args.number('heavy', 500),
  entriesBatch: args.number('entries-batch', 10_000),
  keepIndexes: args.flag('keep-indexes'),
  batchSize: args.number('batch', 1000),
  concurrency: args.number('concurrency', 2),
  seed: args.number('seed', 20_250_901),
  reset: args.flag('reset'),
  migrate: args.flag('migrate'),
  payments: args.flag('payments'),
  deletedUsers: args.number('deleted-users', 0),
};

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

  const restored = await restoreIndexes(pool, 'entries');
  if (restored.length) console.log(`  rebuilt indexes a previous run had dropped: ${restored.join(', ')}`);

  if (opts.reset) {
    const { users, services, entries } = await step('reset', () => resetBench(pool));
    console.log(`  deleted ${users} bench users, ${services} bench services, ${entries} entries, with what hangs off them`);
  }

  const users = await step('users', () => generateUsers(pool, { ...opts, target: opts.users }));
  console.log(
    users.created > 0
      ? `  created ${users.created} users with ${users.profiles} work profiles (${users.existing} were there)`
      : `  ${users.existing} bench users already there; nothing to add (--reset starts over)`,
  );

  if (opts.services > 0) {
    const services = await step('services', () =>
      generateServices(pool, { target: opts.services, batchSize: 2000, concurrency: opts.concurrency, seed: opts.seed }),
    );
    console.log(
      services.created > 0
        ? `  created ${services.created} services with ${services.sections} sections (${services.existing} were there)`
        : `  ${services.existing} bench services already there; nothing to add`,
    );
  }

  if (opts.entries > 0) {
    const entries = await step('entries', () =>
      generateEntries(pool, {
        target: opts.entries,
        batchSize: opts.entriesBatch,
        concurrency: opts.concurrency,
        seed: opts.seed,
        rebuildIndexes: !opts.keepIndexes,
      }),
    );
    if (entries.created > 0) {
      const pct = (n: number) => `${((100 * n) / entries.created).toFixed(1)} %`;
      console.log(
        `  created ${entries.created} entries (${entries.existing} were there): status 1 ${pct(entries.byStatus[1] ?? 0)}, ` +
          `2 ${pct(entries.byStatus[2] ?? 0)}, 3 ${pct(entries.byStatus[3] ?? 0)}; ${pct(entries.deleted)} deleted; ${entries.theses} theses`,
      );
      for (const [phase, ms] of Object.entries(entries.phases)) console.log(`    ${phase}: ${(ms / 1000).toFixed(1)} s`);
    } else {
      console.log(`  ${entries.existing} bench entries already there; nothing to add`);
    }
  }

  const sessions = await step('sessions', () => issueSessions(pool, opts.sessions, opts.heavy));
  console.log(`  ${sessions.count} sessions for user ids ${sessions.first_user_id}..${sessions.last_user_id} -> ${tokensFile()}`);
  if (sessions.heavy?.length) {
    console.log(
      `  ${sessions.heavy.length} sessions for the busiest clients (${sessions.heavy[0].entries}..${sessions.heavy.at(-1)!.entries} live entries each)`,
    );
  }
  console.log(`  operator session: user ${sessions.operator?.user_id}, token ${sessions.operator?.token}`);

  // The manager-area bench (issue 10): payments for the income statistic, some deleted users.
  if (opts.payments) {
    const p = await step('payments', () => generatePayments(pool));
    console.log(p.created > 0 ? `  created ${p.created} payments` : `  ${p.existing} bench payments already there; nothing to add`);
  }
  if (opts.deletedUsers > 0) {
    const d = await step('deleted users', () => deleteSomeUsers(pool, opts.deletedUsers));
    console.log(`  ${d.deleted} bench users soft-deleted (${d.existing} were)`);
  }

  await step('analyze', () => pool.query('analyze users, user_profiles, access_tokens'));
} finally {
  await pool.end();
}

console.log(`total: ${((performance.now() - started) / 1000).toFixed(1)} s`);
