// Mass-mailing bench (issue 13): a mailing to N users through a local SMTP sink on 127.0.0.1, with the
// throttle off. Two runs on a fresh PostgreSQL database:
//   A. clean: POST /api/mail/send-all until the mailing is done; letters per second end to end
//      (from the POST to the last letter accepted by the sink) and duplicates/losses;
//   B. crash: the same, but the server is killed with SIGKILL when about half the letters are out,
//      then started again; it takes the mailing over when the job's lease runs out. Counted at the
//      sink by Message-ID (one per mailing and user): duplicates (a letter received twice) and
//      losses (an eligible user without the letter).
// Usage (from the repo root):
//   npx tsx bench/src/mailing.ts --users 100000
// Options: --users N (100000)  --admin-url URL (postgres://postgres@127.0.0.1:5432/postgres)
//          --db NAME (edu_bench_mailing)  --port N (8281)  --pool N (MAIL_POOL_SIZE, 8)
//          --kill-at F (0.5, share of letters out before the kill)  --skip-clean  --keep-db
// Results: a table on stdout, JSON in bench/results/mailing-*.json. The server's log: /tmp/edu-bench-mailing-server.log.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { parseArgs } from './lib/args.ts';
import { CpuMeter, type CpuUsage } from './lib/cpu.ts';
import { printTable, writeResult } from './lib/results.ts';
import { startSink } from './lib/smtp-sink.ts';

const args = parseArgs();
const users = args.number('users', 100_000);
const adminUrl = args.string('admin-url', 'postgres://postgres@127.0.0.1:5432/postgres');
const dbName = args.string('db', 'edu_bench_mailing');
const port = args.number('port', 8281);
const poolSize = args.number('pool', 8);
const killAt = Number(args.string('kill-at', '0.5'));
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const baseUrl = `http://127.0.0.1:${port}`;
const dbUrl = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const logFile = path.join(os.tmpdir(), 'edu-bench-mailing-server.log');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edu-bench-mailing-'));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/** Letters of mailing M carry Message-ID <mailing-M-USER@host>. */
const mailingOf = (messageId: string) => /^<mailing-(\d+)-/.exec(messageId)?.[1] ?? null;
const sink = await startSink({ timePrefixes: mailingOf });

function startServer(): ChildProcess {
  const log = fs.openSync(logFile, 'a');
  // node itself (not npx/tsx wrappers), so SIGKILL hits the very process that sends.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: dbUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: baseUrl,
      DATA_DIR: dataDir,
      SMTP_URL: sink.url,
      MAIL_POOL_SIZE: String(poolSize),
      MAILING_RATE_PER_MINUTE: '0',
      JOBS_INTERVAL_MS: '500',
      REQUEST_LOG: 'false',
      LOG_LEVEL: 'warn',
      DEMO_PASSWORD: 'demo1234',
    },
    stdio: ['ignore', log, log],
  });
  return child;
}

async function waitHealthy(): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await sleep(500);
  }
  throw new Error(`server did not start; see ${logFile}`);
}

async function stopServer(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`drop database if exists ${dbName} with (force)`);
await admin.query(`create database ${dbName}`);
await admin.end();

let server = startServer();
await waitHealthy();
const db = new pg.Pool({ connectionString: dbUrl, max: 2 });

// Recipients: N eligible users, plus 1 % each of guests, deleted users and users who opted out.
const extra = Math.max(1, Math.round(users / 100));
const fill = Date.now();
await db.query(
  `insert into users (email, last_name, first_name, middle_name, organization, job_title, role)
   select 'mb-' || i || '@example.com', 'Рассылкина', 'Ольга', 'Петровна', 'Школа № ' || (i % 500), 'Учитель', 2
   from generate_series(1, $1::int) i`,
  [users],
);
await db.query(
  `insert into users (email, last_name, first_name, role, deleted_at)
   select 'mb-off-' || i || '@example.com', 'Лишний', 'Гость', case when i % 2 = 0 then 3 else 2 end, case when i % 2 = 1 then now() end
   from generate_series(1, $1::int * 2) i`,
  [extra],
);
await db.query(
  `with u as (insert into users (email, last_name, first_name, role) select 'mb-opt-' || i || '@example.com', 'Отписанная', 'Анна', 2 from generate_series(1, $1::int) i returning id)
   insert into mail_subscriptions (user_id, unsubscribed_at) select id, now() from u`,
  [extra],
);
await db.query('analyze users');
const { rows: eligibleRows } = await db.query<{ id: number }>(
  `select u.id from users u left join mail_subscriptions s on s.user_id = u.id
   where u.deleted_at is null and u.role <> 3 and coalesce(u.email, '') <> '' and s.unsubscribed_at is null`,
);
const eligible = eligibleRows.map((r) => r.id);
const eligibleSet = new Set(eligible);
console.log(`users: ${eligible.length} eligible (+${extra * 3} skipped: guests, deleted, opted out) in ${Date.now() - fill} ms`);

async function operatorToken(): Promise<string> {
  const res = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'demo-operator@example.com', password: 'demo1234' }),
  });
  if (!res.ok) throw new Error(`login ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function sendAll(token: string, message: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/mail/send-all`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ message }),
  });
  const body = (await res.json()) as { data: { id: number }; message: string };
  if (res.status !== 201) throw new Error(`send-all ${res.status} ${JSON.stringify(body)}`);
  return body.data.id;
}

async function status(id: number): Promise<{ status: string; sent: number; failed: number; waiting: number }> {
  const { rows } = await db.query<{ status: string; sent: number; failed: number; waiting: number }>(
    `select m.status, count(*) filter (where d.status = 1)::int as sent, count(*) filter (where d.status = 2)::int as failed,
            count(*) filter (where d.status = 0)::int as waiting
     from mailings m left join mailing_deliveries d on d.mailing_id = m.id where m.id = $1 group by m.status`,
    [id],
  );
  return rows[0];
}

const received = (id: number) => sink.stats.times.get(String(id))?.length ?? 0;

async function waitDone(id: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if ((await status(id)).status === 'done') return;
    await sleep(250);
  }
  throw new Error(`mailing ${id} not done in ${timeoutMs} ms`);
}

/**
 * Duplicates and losses of one mailing, counted at the sink: a duplicate is a second copy of a
 * person's letter (same Message-ID, so a mailbox that drops repeated Message-IDs shows it once);
 * a loss is an eligible person without it.
 */
function check(id: number) {
  let duplicates = 0;
  let lost = 0;
  for (const userId of eligible) {
    const n = sink.stats.byMessageId.get(`<mailing-${id}-${userId}@127.0.0.1>`) ?? 0;
    if (n === 0) lost++;
    else duplicates += n - 1;
  }
  // Every copy carries the Message-ID of its person and mailing: there is no second, different letter.
  const strangers = [...sink.stats.byMessageId.keys()].filter((k) => mailingOf(k) === String(id) && !eligibleSet.has(Number(/-(\d+)@/.exec(k)?.[1]))).length;
  return { duplicates, lost, strangers };
}

/** Deliveries whose journal line is `h` with no 250 (`<id>`) or refusal (`x <id>`) after it, in the journals of mailing `id`. */
function handedOverWithout250(id: number): number {
  const dir = path.join(dataDir, 'mailing-journal');
  if (!fs.existsSync(dir)) return 0;
  const last = new Map<string, string>();
  for (const f of fs.readdirSync(dir).filter((x) => x.startsWith(`${id}-`))) {
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      const m = /^(?:([hx]) )?(\d+)$/.exec(line);
      if (m) last.set(m[2], m[1] ?? 'accepted');
    }
  }
  return [...last.values()].filter((v) => v === 'h').length;
}

interface RunResult {
  run: string;
  mailing_id: number;
  recipients: number;
  letters_received: number;
  duplicates: number;
  lost: number;
  not_eligible_received: number;
  wall_s: number;
  mails_per_s_end_to_end: number;
  mails_per_s_while_sending: number;
  killed_after_letters?: number;
  /** Letters the killed server had journaled as handed over (`h`) but whose 250 it never saw: the ones a 250-journal sent twice. */
  handed_over_without_250?: number;
  resumed_after_s?: number;
  cpu: CpuUsage | null;
}

const results: RunResult[] = [];
let token = await operatorToken();

if (!args.flag('skip-clean')) {
  const meter = new CpuMeter(server.pid ?? null, dbName);
  meter.start();
  const t0 = Date.now();
  const id = await sendAll(token, `<p>Рассылка A: ${users} писем без сбоя.</p>`);
  await waitDone(id, 30 * 60_000);
  meter.stop();
  const times = sink.stats.times.get(String(id)) ?? [];
  const last = Math.max(...times);
  const c = check(id);
  results.push({
    run: 'A clean',
    mailing_id: id,
    recipients: eligible.length,
    letters_received: times.length,
    duplicates: c.duplicates,
    lost: c.lost,
    not_eligible_received: c.strangers,
    wall_s: round((last - t0) / 1000),
    mails_per_s_end_to_end: round(times.length / ((last - t0) / 1000)),
    mails_per_s_while_sending: round(times.length / ((last - Math.min(...times)) / 1000)),
    cpu: meter.usage(times.length),
  });
  console.log(results.at(-1));
}

{
  const t0 = Date.now();
  const id = await sendAll(token, `<p>Рассылка B: ${users} писем, сервер убит на середине.</p>`);
  const target = Math.round(eligible.length * killAt);
  while (received(id) < target) await sleep(20);
  const killedAt = Date.now();
  await stopServer(server, 'SIGKILL');
  const atKill = received(id);
  const openHandOvers = handedOverWithout250(id);
  console.log(`killed -9 after ${atKill} letters (${openHandOvers} handed over without a 250 in the journal); starting again`);
  await sleep(1000);
  const afterKillBeforeRestart = received(id);
  server = startServer();
  await waitHealthy();
  token = await operatorToken();
  await waitDone(id, 30 * 60_000);
  const times = sink.stats.times.get(String(id)) ?? [];
  const resumedAt = Math.min(...times.filter((t) => t > killedAt + 1000));
  const last = Math.max(...times);
  const c = check(id);
  const sendingMs = killedAt - Math.min(...times) + (last - resumedAt);
  results.push({
    run: 'B kill -9',
    mailing_id: id,
    recipients: eligible.length,
    letters_received: times.length,
    duplicates: c.duplicates,
    lost: c.lost,
    not_eligible_received: c.strangers,
    wall_s: round((last - t0) / 1000),
    mails_per_s_end_to_end: round(times.length / ((last - t0) / 1000)),
    mails_per_s_while_sending: round(times.length / (sendingMs / 1000)),
    killed_after_letters: atKill,
    handed_over_without_250: openHandOvers,
    resumed_after_s: round((resumedAt - killedAt) / 1000),
    cpu: null,
  });
  console.log(results.at(-1), { letters_between_kill_and_restart: afterKillBeforeRestart - atKill });
}

await stopServer(server, 'SIGTERM');
await db.end();
await sink.close();
if (!args.flag('keep-db')) {
  const a = new pg.Client({ connectionString: adminUrl });
  await a.connect();
  await a.query(`drop database if exists ${dbName} with (force)`);
  await a.end();
}
fs.rmSync(dataDir, { recursive: true, force: true });

printTable(
  [
    'run',
    'recipients',
    'received',
    'duplicates',
    'lost',
    'wall s',
    'mails/s end to end',
    'mails/s while sending',
    'killed after',
    'h without 250',
    'resumed after s',
  ],
  results.map((r) => [
    r.run,
    r.recipients,
    r.letters_received,
    r.duplicates,
    r.lost,
    r.wall_s,
    r.mails_per_s_end_to_end,
    r.mails_per_s_while_sending,
    r.killed_after_letters ?? '',
    r.handed_over_without_250 ?? '',
    r.resumed_after_s ?? '',
  ]),
);
const file = writeResult('mailing', { users, pool: poolSize, cores: os.cpus().length, results });
console.log(`\n${file}`);
