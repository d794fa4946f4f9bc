// The entries and payments lists' Excel exports with N rows each (issue 22: 100 000, goal under 5 s
// with flat memory; the request thread stays responsive). Usage (from the repo root):
//   NODE_OPTIONS=--expose-gc npx tsx bench/src/list-exports.ts [--rows 100000] [--repeat 3] [--keep] [--label new]
//     [--server /path/to/another/checkout/server]   (the same scenarios against older server code)
//     [--entries-sort -price] [--payments-sort sum]   (the lists' ?sort=, which the exports follow)
// It makes its own PostgreSQL database (DATABASE_URL's server, database edu_bench_exports, dropped and
// created again unless --keep and it holds the rows), migrates and seeds it with the server's own code,
// loads N clients with one entry each, two thirds of them paid (one payment per paid entry), then
// starts the app in-process on 127.0.0.1 and, as an operator, over HTTP:
// 1. `--repeat` times each: GET /api/entry/excel and GET /api/payment/excel with no filter, the body
//    streamed to a file: wall time to the last byte, the process's CPU, peak RSS growth and peak heap
//    (sampled every 20 ms); the first file of each is read back with exceljs's streaming reader
//    (rows counted, totals row kept). Medians are reported.
// 2. Two operators export the entries at once while GET /api/health is called in a loop: its p50,
//    p99 and max (and the same quiet, before), and the two exports' wall times.
// 3. One operator asks for a second export while the first runs: its status (429 when limited).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { parseArgs } from './lib/args.ts';
import { printTable, writeResult } from './lib/results.ts';

const args = parseArgs();
const rowsWanted = args.number('rows', 100_000);
const repeat = args.number('repeat', 3);
const keep = args.flag('keep');
const label = args.string('label', 'run');
/** The lists' ?sort= (issue 22: the exports follow it), e.g. --entries-sort -price --payments-sort sum; empty: the default order. */
const sortQuery = { entry: args.string('entries-sort', ''), payment: args.string('payments-sort', '') };
const sorted = (kind: 'entry' | 'payment') => (sortQuery[kind] ? `?sort=${encodeURIComponent(sortQuery[kind])}` : '');
const serverDir = path.resolve(args.string('server', path.resolve(import.meta.dirname, '../../server')));
const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const dbName = 'edu_bench_exports';
const adminUrl = new URL(base);
adminUrl.pathname = '/postgres';
const url = new URL(base);
url.pathname = `/${dbName}`;

const admin = new pg.Client({ connectionString: adminUrl.toString() });
await admin.connect();
const exists = (await admin.query('select 1 from pg_database where datname = $1', [dbName])).rowCount === 1;
if (!keep || !exists) {
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.query(`create database ${dbName}`);
}
await admin.end();

process.env.DATABASE_URL = url.toString();
const from = (file: string) => import(path.join(serverDir, 'src', file));
const { buildApp } = await from('app.ts');
const { loadConfig } = await from('platform/config.ts');
const { openDatabase } = await from('platform/db.ts');
const { createMailer } = await from('platform/mail.ts');
const { prepareDatabase } = await from('platform/startup.ts');
const { createSession } = await from('platform/auth.ts');
const { setStageSink } = await from('platform/stage-timing.ts');

// Time per stage of an export, where the server reports them (excel-query: a page read; excel-rows: a
// page turned into sheet text on the request thread; excel-finish: the file closed).
let stages = new Map<string, { n: number; total: number; max: number }>();
setStageSink((stage: string, ms: number) => {
  const s = stages.get(stage) ?? { n: 0, total: 0, max: 0 };
  s.n++;
  s.total += ms;
  s.max = Math.max(s.max, ms);
  stages.set(stage, s);
});
const stageSummary = () =>
  Object.fromEntries([...stages].map(([k, v]) => [k, { n: v.n, total_ms: ms(v.total), mean_ms: Math.round((v.total / v.n) * 10) / 10, max_ms: ms(v.max) }]));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edu-bench-exports-'));
const config = loadConfig(process.env, { dataDir, requestLog: false, jobsIntervalMs: 0, officeConverters: 0, seedDemo: false, port: 0 });
const database = await openDatabase(config);
await prepareDatabase(database, config);

const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
const have = Number((await pool.query(`select count(*) as n from entries where number like 'X%'`)).rows[0].n);
if (have !== rowsWanted) {
  const t0 = performance.now();
  const c = await pool.connect();
  try {
    await c.query('begin');
    await c.query(
      `delete from payment_entries; delete from payments; delete from entries where number like 'X%'; delete from users where email like 'bench-export-%'`,
    );
    await c.query(`insert into services (title, dict_type_id, price, points)
      select 'Вебинар «Формирующее оценивание на уроке», поток ' || g, 2, 900, 10 from generate_series(1, 200) g`);
    const lastNames = ['Иванова', 'Смирнова', 'Кузнецова', 'Попова', 'Васильева', 'Петрова', 'Соколова', 'Михайлова', 'Новикова', 'Фёдорова'];
    const firstNames = ['Анна', 'Мария', 'Елена', 'Ольга', 'Наталья', 'Татьяна', 'Ирина', 'Светлана'];
    await c.query(
      `insert into users (email, last_name, first_name, middle_name, role)
       select 'bench-export-' || g || '@example.com', ($1::text[])[1 + g % 10], ($2::text[])[1 + g % 8], 'Сергеевна', 2
       from generate_series(1, $3::int) g`,
      [lastNames, firstNames, rowsWanted],
    );
    await c.query(
      `insert into entries (number, created_by, service_id, status, price, pay_type, created_at)
       select 'X' || lpad(u.id::text, 9, '0'), u.id, (select min(id) from services where title like 'Вебинар «Формирующее%') + (u.id % 200),
              case when u.id % 3 = 0 then 1 else 2 end, 900, 3, now() - make_interval(mins => u.id % 100000)
       from users u where u.email like 'bench-export-%'`,
    );
    await c.query(
      `insert into payments (uuid, sum, pay_type, user_id, created_at)
       select 'bench-' || e.id, e.price, 3, e.created_by, e.created_at + interval '5 minutes' from entries e where e.number like 'X%' and e.status = 2`,
    );
    await c.query(
      `insert into payment_entries (payment_id, entry_id, sum) select p.id, e.id, e.price from payments p join entries e on 'bench-' || e.id = p.uuid`,
    );
    await c.query('commit');
  } catch (err) {
    await c.query('rollback');
    throw err;
  } finally {
    c.release();
  }
  await pool.query('analyze');
  console.log(`data: ${rowsWanted} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
const counts = (
  await pool.query(`select (select count(*) from entries where deleted_at is null)::int as entries, (select count(*) from payments)::int as payments`)
).rows[0];
const operators: string[] = [];
for (const n of [1, 2]) {
  const email = `bench-export-operator-${n}@example.com`;
  await pool.query(`insert into users (email, last_name, first_name, role) values ($1, 'Операторова', 'Анна', 1) on conflict do nothing`, [email]);
  const id = Number((await pool.query('select id from users where email = $1', [email])).rows[0].id);
  operators.push((await createSession(database.db, { userId: id, remember: true })).access_token);
}
await pool.end();

const app = await buildApp({
  config,
  database,
  logger: false,
  mailer: (a: { log: unknown }) => createMailer({ outboxDir: path.join(dataDir, 'mail'), from: config.mailFrom, log: a.log }),
});
await app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const mb = (n: number) => Math.round((n / 1048576) * 10) / 10;
const ms = (n: number) => Math.round(n);
const median = (list: number[]) => {
  const s = [...list].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** Bytes of the file being downloaded so far (for memory samples by progress). */
let received = 0;

/** One export over HTTP into a file: status, wall seconds to the last byte. */
async function download(kind: 'entry' | 'payment', token: string, file: string, query = ''): Promise<{ status: number; seconds: number }> {
  const t0 = performance.now();
  const res = await fetch(`${origin}/api/${kind}/excel${query}`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200 || !res.body) {
    await res.arrayBuffer();
    return { status: res.status, seconds: (performance.now() - t0) / 1000 };
  }
  received = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), count, fs.createWriteStream(file));
  return { status: res.status, seconds: (performance.now() - t0) / 1000 };
}

async function readBack(file: string) {
  let rows = 0;
  let last: unknown[] = [];
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: 'cache', worksheets: 'emit', styles: 'ignore', hyperlinks: 'ignore' });
  for await (const sheet of reader) {
    for await (const row of sheet) {
      rows++;
      last = (row.values as unknown[]).slice(1);
    }
  }
  // Header and totals rows aside.
  return { rows: rows - 2, totals_row: last };
}

/**
 * One measured export: wall and CPU seconds, peak RSS growth and heap. Flat memory shows as the same
 * growth by the time a fifth of the file was sent as at the end (memory proportional to the rows
 * would grow about five times from there).
 */
async function measure(kind: 'entry' | 'payment', keep: boolean, query = '') {
  const file = path.join(os.tmpdir(), `${kind}-bench-${process.pid}${keep ? '-kept' : ''}.xlsx`);
  if (global.gc) global.gc();
  stages = new Map();
  await new Promise((r) => setTimeout(r, 200));
  const rssBefore = process.memoryUsage.rss();
  let peakRss = rssBefore;
  let peakHeap = process.memoryUsage().heapUsed;
  const samples: { bytes: number; rss: number }[] = [];
  const sampler = setInterval(() => {
    const rss = process.memoryUsage.rss();
    samples.push({ bytes: received, rss });
    peakRss = Math.max(peakRss, rss);
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 20);
  const cpu0 = process.cpuUsage();
  const got = await download(kind, operators[0], file, query);
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  if (got.status !== 200) throw new Error(`${kind} export: ${got.status}`);
  const size = fs.statSync(file).size;
  const firstFifth = Math.max(rssBefore, ...samples.filter((s) => s.bytes <= size / 5).map((s) => s.rss));
  if (!keep) fs.rmSync(file, { force: true });
  return {
    file,
    stages: stageSummary(),
    seconds: got.seconds,
    cpu_seconds: (cpu.user + cpu.system) / 1e6,
    file_mb: mb(size),
    rss_before_mb: mb(rssBefore),
    rss_growth_mb: mb(peakRss - rssBefore),
    rss_growth_first_fifth_mb: mb(firstFifth - rssBefore),
    heap_peak_mb: mb(peakHeap),
  };
}

/** GET /api/health in a loop (10 ms apart) until `done` settles: latencies in ms. */
async function probeHealth(done: Promise<unknown>): Promise<number[]> {
  let over = false;
  void done.finally(() => (over = true));
  const list: number[] = [];
  while (!over) {
    const t0 = performance.now();
    const res = await fetch(`${origin}/api/health`);
    await res.arrayBuffer();
    list.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 10));
  }
  return list;
}
const latency = (list: number[]) => {
  const s = [...list].sort((a, b) => a - b);
  return { n: s.length, p50_ms: ms(percentile(s, 50)), p99_ms: ms(percentile(s, 99)), max_ms: ms(s[s.length - 1]) };
};

try {
  const runs: Record<'entry' | 'payment', Awaited<ReturnType<typeof measure>>[]> = { entry: [], payment: [] };
  for (let i = 0; i < repeat; i++) {
    for (const kind of ['entry', 'payment'] as const) runs[kind].push(await measure(kind, i === 0, sorted(kind)));
  }
  // Read back after the measured runs, so that exceljs's reading does not swell the heap they start from.
  const readBacks = { entry: await readBack(runs.entry[0].file), payment: await readBack(runs.payment[0].file) };
  for (const kind of ['entry', 'payment'] as const) fs.rmSync(runs[kind][0].file, { force: true });
  const summarise = (list: Awaited<ReturnType<typeof measure>>[], rows: number, back: Awaited<ReturnType<typeof readBack>>) => ({
    rows,
    seconds: list.map((r) => Math.round(r.seconds * 100) / 100),
    median_seconds: Math.round(median(list.map((r) => r.seconds)) * 100) / 100,
    median_cpu_seconds: Math.round(median(list.map((r) => r.cpu_seconds)) * 100) / 100,
    file_mb: list[0].file_mb,
    rss_before_mb: list.map((r) => r.rss_before_mb),
    median_rss_growth_mb: median(list.map((r) => r.rss_growth_mb)),
    median_rss_growth_first_fifth_mb: median(list.map((r) => r.rss_growth_first_fifth_mb)),
    max_rss_growth_mb: Math.max(...list.map((r) => r.rss_growth_mb)),
    median_heap_peak_mb: median(list.map((r) => r.heap_peak_mb)),
    stages_of_last_run: list[list.length - 1].stages,
    read_back: back,
  });
  // Memory against rows: the unpaid third of the entries (status=1), same code, same warm heap.
  const third = [];
  for (let i = 0; i < repeat; i++) third.push(await measure('entry', false, '?status=1'));
  const entriesThird = {
    rows: Math.round(counts.entries / 3),
    median_seconds: Math.round(median(third.map((r) => r.seconds)) * 100) / 100,
    median_rss_growth_mb: median(third.map((r) => r.rss_growth_mb)),
    max_rss_growth_mb: Math.max(...third.map((r) => r.rss_growth_mb)),
  };
  const entries = summarise(runs.entry, counts.entries, readBacks.entry);
  const payments = summarise(runs.payment, counts.payments, readBacks.payment);

  // Quiet health, then during two operators' parallel entry exports.
  const quiet = latency(await probeHealth(new Promise((r) => setTimeout(r, 3000))));
  const t0 = performance.now();
  const both = Promise.all(
    operators.map((token, i) =>
      download('entry', token, path.join(os.tmpdir(), `parallel-${i}-${process.pid}.xlsx`)).then((r) => ({ ...r, seconds: Math.round(r.seconds * 100) / 100 })),
    ),
  );
  const during = latency(await probeHealth(both));
  const parallel = { exports: await both, wall_seconds: Math.round((performance.now() - t0) / 10) / 100, health_quiet: quiet, health_during: during };
  for (const i of [0, 1]) fs.rmSync(path.join(os.tmpdir(), `parallel-${i}-${process.pid}.xlsx`), { force: true });

  // The same operator twice at once.
  const firstOne = download('payment', operators[0], path.join(os.tmpdir(), `limit-1-${process.pid}.xlsx`));
  await new Promise((r) => setTimeout(r, 100));
  const second = await download('payment', operators[0], path.join(os.tmpdir(), `limit-2-${process.pid}.xlsx`));
  const firstDone = await firstOne;
  for (const i of [1, 2]) fs.rmSync(path.join(os.tmpdir(), `limit-${i}-${process.pid}.xlsx`), { force: true });
  const limit = { first_status: firstDone.status, second_status_while_first_runs: second.status };

  const result = {
    label,
    server: serverDir,
    machine: { cpus: os.cpus().length, node: process.version, loadavg: os.loadavg().map((n) => Math.round(n * 10) / 10) },
    counts,
    goal: { seconds: 5 },
    entries,
    payments,
    entries_third: entriesThird,
    parallel,
    limit,
  };
  printTable(
    ['export', 'rows', 'median wall', 'runs', 'median CPU', 'RSS growth (median / max)', 'at 1/5 of the file', 'heap peak', 'read back'],
    [entries, payments].map((r, i) => [
      i ? 'payments' : 'entries',
      r.rows,
      `${r.median_seconds} s`,
      r.seconds.join(' / '),
      `${r.median_cpu_seconds} s`,
      `${r.median_rss_growth_mb} / ${r.max_rss_growth_mb} MB`,
      `${r.median_rss_growth_first_fifth_mb} MB`,
      `${r.median_heap_peak_mb} MB`,
      String(r.read_back?.rows),
    ]),
  );
  console.log(
    `entries, the unpaid third (${entriesThird.rows} rows): median ${entriesThird.median_seconds} s, RSS growth median ${entriesThird.median_rss_growth_mb} MB, max ${entriesThird.max_rss_growth_mb} MB`,
  );
  console.log(
    `two parallel entry exports: ${parallel.exports.map((e) => `${e.status} in ${e.seconds} s`).join(', ')}; /api/health p50/p99/max quiet ${quiet.p50_ms}/${quiet.p99_ms}/${quiet.max_ms} ms, during ${during.p50_ms}/${during.p99_ms}/${during.max_ms} ms (${during.n} calls)`,
  );
  console.log(`same operator twice: ${limit.first_status}, then ${limit.second_status_while_first_runs}`);
  console.log(`stages of the last entries run: ${JSON.stringify(entries.stages_of_last_run)}`);
  console.log(`totals rows: entries ${JSON.stringify(entries.read_back?.totals_row)}, payments ${JSON.stringify(payments.read_back?.totals_row)}`);
  console.log(`results: ${writeResult(`list-exports-${label}`, result)}`);
} finally {
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
