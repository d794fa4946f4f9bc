// The entries and payments lists' Excel exports with N rows each (issue 22: 100 000, goal under 5 s
// with flat memory). Usage (from the repo root):
//   npx tsx bench/src/list-exports.ts [--rows 100000] [--keep] [--entries-sort -price] [--payments-sort sum]
// It makes its own PostgreSQL database (DATABASE_URL's server, database edu_bench_exports, dropped and
// created again unless --keep and it exists), migrates and seeds it with the server's own code, loads
// N clients with one entry each, two thirds of them paid (one payment per paid entry), then runs the
// server's exports (writeEntriesXlsx and writePaymentsXlsx, the functions the routes stream to the
// socket) into files with no filter, measuring wall time and the process's peak memory for each, and
// reads each file back with exceljs's streaming reader to count its rows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { parseArgs } from './lib/args.ts';

const args = parseArgs();
const rowsWanted = args.number('rows', 100_000);
const keep = args.flag('keep');
/** The lists' ?sort= (issue 22: the exports follow it), e.g. --entries-sort -price --payments-sort sum; empty: the default order. */
const entriesSort = args.string('entries-sort', '');
const paymentsSort = args.string('payments-sort', '');
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

const { openPostgres } = await import('@edu/server/src/platform/db.ts');
const { seedDictionaries } = await import('@edu/server/src/db/seed/seed.ts');
const { writeEntriesXlsx } = await import('@edu/server/src/features/entries/entries-excel.ts');
const { writePaymentsXlsx } = await import('@edu/server/src/features/payments/payments-excel.ts');

const database = openPostgres(url.toString(), 4);
await database.withStartupLock(async () => {
  await database.migrate();
  await seedDictionaries(database.db);
});

const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
const have = Number((await pool.query(`select count(*) as n from entries where number like 'X%'`)).rows[0].n);
if (have < rowsWanted) {
  const t0 = performance.now();
  const c = await pool.connect();
  try {
    await c.query('begin');
    await c.query(`delete from payment_entries; delete from payments; delete from entries where number like 'X%'; delete from users where email like 'bench-export-%'`);
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
    await c.query(`insert into payment_entries (payment_id, entry_id, sum) select p.id, e.id, e.price from payments p join entries e on 'bench-' || e.id = p.uuid`);
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
const counts = (await pool.query(`select (select count(*) from entries where deleted_at is null) as entries, (select count(*) from payments) as payments`)).rows[0];
await pool.end();

const mb = (n: number) => Math.round((n / 1048576) * 10) / 10;

/** One export into a file: wall and CPU time, peak RSS and heap, rows read back. */
async function measure(name: string, write: (out: Writable) => Promise<number>) {
  const out = path.join(os.tmpdir(), `${name}-bench-${process.pid}.xlsx`);
  if (global.gc) global.gc();
  const rssBefore = process.memoryUsage.rss();
  let peakRss = rssBefore;
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 20);
  const cpu0 = process.cpuUsage();
  const t1 = performance.now();
  const stream = fs.createWriteStream(out);
  const written = await write(stream);
  await new Promise<void>((resolve, reject) => {
    if (stream.writableFinished) resolve();
    else stream.on('finish', resolve).on('error', reject);
  });
  const seconds = (performance.now() - t1) / 1000;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  let readRows = 0;
  let last: unknown[] = [];
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(out, { sharedStrings: 'cache', worksheets: 'emit', styles: 'ignore', hyperlinks: 'ignore' });
  for await (const sheet of reader) {
    for await (const row of sheet) {
      readRows++;
      last = (row.values as unknown[]).slice(1);
    }
  }
  const size = fs.statSync(out).size;
  fs.rmSync(out, { force: true });
  return {
    rows: written,
    // Header and totals rows aside.
    rows_read_back: readRows - 2,
    seconds: Math.round(seconds * 100) / 100,
    cpu_seconds: Math.round(((cpu.user + cpu.system) / 1e6) * 100) / 100,
    file_mb: mb(size),
    rss_before_mb: mb(rssBefore),
    rss_peak_mb: mb(peakRss),
    heap_peak_mb: mb(peakHeap),
    totals_row: last,
    ok: seconds < 5 && readRows - 2 === written,
  };
}

const entries = await measure('entries', (out) => writeEntriesXlsx(database.db, { deleted: false, sort: (entriesSort || undefined) as never }, out));
const payments = await measure('payments', (out) => writePaymentsXlsx(database.db, { sort: (paymentsSort || undefined) as never }, out));
await database.close();
const result = { counts, sorts: { entries: entriesSort || 'default', payments: paymentsSort || 'default' }, load_average: os.loadavg().map((n) => Math.round(n * 10) / 10), goal: { seconds: 5 }, entries, payments };
console.log(JSON.stringify(result, null, 2));
const resultsDir = path.resolve(import.meta.dirname, '../results');
fs.mkdirSync(resultsDir, { recursive: true });
fs.writeFileSync(path.join(resultsDir, 'list-exports-latest.json'), JSON.stringify({ at: new Date().toISOString(), ...result }, null, 2));
