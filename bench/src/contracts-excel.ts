// The contract board's Excel export with N contracts (issue 11: 100 000 rows, goal under 5 s and
// under 300 MB). Usage (from the repo root):
//   npx tsx bench/src/contracts-excel.ts [--rows 100000] [--keep]
// It makes its own PostgreSQL database (DATABASE_URL's server, database edu_bench_contracts, dropped
// and created again unless --keep and it exists), migrates and seeds it with the server's own code,
// loads N clients with one course entry each (three quarters with an uploaded scan, spread over the
// three statuses), then runs the server's export (writeXlsx of contractsExport, what the route
// streams to the socket) into a file, measuring wall time and the process's peak memory, and reads
// the file back with exceljs's streaming reader to count its rows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { parseArgs } from './lib/args.ts';

const args = parseArgs();
const rowsWanted = args.number('rows', 100_000);
const keep = args.flag('keep');
const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const dbName = 'edu_bench_contracts';
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
const { contractsExport } = await import('@edu/server/src/features/contracts/contracts-excel.ts');
const { writeXlsx } = await import('@edu/server/src/platform/xlsx-export.ts');
const { setStageSink } = await import('@edu/server/src/platform/stage-timing.ts');
const { CpuMeter } = await import('./lib/cpu.ts');
// Time per stage of the export: excel-query (a batch of rows read), excel-rows (a batch written),
// excel-finish (the workbook closed); queries overlap the writing, so their sum can exceed the wall time.
const stages = new Map<string, { n: number; total: number; max: number }>();
setStageSink((stage, ms) => {
  const s = stages.get(stage) ?? { n: 0, total: 0, max: 0 };
  s.n++;
  s.total += ms;
  s.max = Math.max(s.max, ms);
  stages.set(stage, s);
});

const database = openPostgres(url.toString(), 4);
await database.withStartupLock(async () => {
  await database.migrate();
  await seedDictionaries(database.db);
});

const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
const have = Number((await pool.query('select count(*) as n from contracts')).rows[0].n);
if (have < rowsWanted * 0.75 - 1) {
  const t0 = performance.now();
  const c = await pool.connect();
  try {
    await c.query('begin');
    await c.query(`insert into services (title, dict_type_id, price, points)
      select 'Курс повышения квалификации «Цифровая дидактика», поток ' || g, 3, 12000, 72 from generate_series(1, 200) g`);
    const lastNames = ['Иванова', 'Смирнова', 'Кузнецова', 'Попова', 'Васильева', 'Петрова', 'Соколова', 'Михайлова', 'Новикова', 'Фёдорова'];
    const firstNames = ['Анна', 'Мария', 'Елена', 'Ольга', 'Наталья', 'Татьяна', 'Ирина', 'Светлана'];
    const middleNames = ['Сергеевна', 'Викторовна', 'Александровна', 'Игоревна', 'Павловна'];
    await c.query(
      `insert into users (email, phone, last_name, first_name, middle_name, role)
       select 'bench-contract-' || g || '@example.com', null, ($1::text[])[1 + g % 10], ($2::text[])[1 + g % 8], ($3::text[])[1 + g % 5], 2
       from generate_series(1, $4::int) g`,
      [lastNames, firstNames, middleNames, rowsWanted],
    );
    await c.query(
      `insert into entries (number, created_by, service_id, status, price)
       select 'B' || lpad(u.id::text, 9, '0'), u.id, (select min(id) from services) + (u.id % 200), 1 + u.id % 3, 12000
       from users u where u.email like 'bench-contract-%'`,
    );
    await c.query(
      `insert into files (user_id, name, storage_key, mime, size)
       select e.created_by, 'Договор подписан ' || e.number || '.pdf', lpad(to_hex(e.id % 256), 2, '0') || '/' || md5(e.id::text) || '.pdf', 'application/pdf', 250000
       from entries e where e.number like 'B%' and e.id % 4 <> 0`,
    );
    await c.query(
      `insert into contracts (entry_id, user_id, service_id, status, comment, file_id)
       select e.id, e.created_by, e.service_id, 1 + e.id % 3, case when e.id % 3 = 2 then 'Нет подписи на последней странице' end, f.id
       from entries e join files f on f.user_id = e.created_by where e.number like 'B%'`,
    );
    await c.query('commit');
  } catch (err) {
    await c.query('rollback');
    throw err;
  } finally {
    c.release();
  }
  await pool.query('analyze');
  console.log(
    `data: ${rowsWanted} entries, ${(await pool.query('select count(*) as n from contracts')).rows[0].n} contracts with scans in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}
await pool.end();

const out = path.join(os.tmpdir(), `contracts-bench-${process.pid}.xlsx`);
if (global.gc) global.gc();
const rssBefore = process.memoryUsage.rss();
let peakRss = rssBefore;
let peakHeap = process.memoryUsage().heapUsed;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}, 20);
const meter = new CpuMeter(null, dbName);
meter.start();
const cpu0 = process.cpuUsage();
const t1 = performance.now();
const stream = fs.createWriteStream(out);
const written = await writeXlsx(contractsExport(database.db, {}), stream);
await new Promise<void>((resolve, reject) => {
  if (stream.writableFinished) resolve();
  else stream.on('finish', resolve).on('error', reject);
});
const seconds = (performance.now() - t1) / 1000;
const cpu = process.cpuUsage(cpu0);
meter.stop();
const usage = meter.usage(1);
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage.rss());
await database.close();

// Read it back: the number of data rows and a sample.
let readRows = 0;
let sample: unknown[] = [];
const reader = new ExcelJS.stream.xlsx.WorkbookReader(out, { sharedStrings: 'cache', worksheets: 'emit', styles: 'ignore', hyperlinks: 'ignore' });
for await (const sheet of reader) {
  for await (const row of sheet) {
    readRows++;
    if (readRows === 2) sample = (row.values as unknown[]).slice(1);
  }
}
const size = fs.statSync(out).size;
fs.rmSync(out, { force: true });

const mb = (n: number) => Math.round((n / 1048576) * 10) / 10;
const result = {
  rows: written,
  rows_read_back: readRows - 1,
  seconds: Math.round(seconds * 100) / 100,
  /** CPU time of this process (the export's own work, without PostgreSQL): what the wall time would be on an idle core. */
  cpu_seconds: Math.round(((cpu.user + cpu.system) / 1e6) * 100) / 100,
  load_average: os.loadavg().map((n) => Math.round(n * 10) / 10),
  /** Average cores in use during the export: this process, PostgreSQL's backends, everything else on the machine. */
  cores: usage ? { this_process: usage.cores.loadgen, db: usage.cores.db, others: usage.cores.others, machine: usage.cores.machine } : null,
  db_cpu_seconds: usage ? Math.round(usage.db_ms_per_req / 10) / 100 : null,
  stages: Object.fromEntries(
    [...stages].map(([k, v]) => [k, { n: v.n, total_ms: Math.round(v.total), mean_ms: Math.round((v.total / v.n) * 10) / 10, max_ms: Math.round(v.max) }]),
  ),
  file_mb: mb(size),
  rss_before_mb: mb(rssBefore),
  rss_peak_mb: mb(peakRss),
  heap_peak_mb: mb(peakHeap),
  goal: { seconds: 5, rss_mb: 300 },
  ok: seconds < 5 && mb(peakRss) < 300 && readRows - 1 === written,
  sample,
};
console.log(JSON.stringify(result, null, 2));
const resultsDir = path.resolve(import.meta.dirname, '../results');
fs.mkdirSync(resultsDir, { recursive: true });
fs.writeFileSync(path.join(resultsDir, 'contracts-excel-latest.json'), JSON.stringify({ at: new Date().toISOString(), ...result }, null, 2));
