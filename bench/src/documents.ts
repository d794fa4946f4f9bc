// Documents bench (issue 11): certificate PDFs through the warm LibreOffice converters, and all
// certificates of a service as one zip.
// Usage (from the repo root):  npx tsx bench/src/documents.ts [--requests 120] [--concurrency 4] [--batch 300]
//   [--converters 2]  (DATABASE_URL set: a fresh database edu_bench_docs on that PostgreSQL server, dropped
//   and made again; otherwise a fresh PGlite in /tmp)
// 1. Builds the app in-process on 127.0.0.1 (a random port), migrated and seeded; a .docx certificate
//    template with 6 macros; two services of done entries, each of a different client.
// 2. Warm: the converters are started and 8 certificates printed unrecorded.
// 3. `--requests` certificate prints (GET /api/entry/{id}/print/certificate, each a different client,
//    so none comes from the cache) at `--concurrency` at once, then the PDF fetched by its signed link:
//    p50, p95, max of the print call; then the same prints again (cached).
// 4. A zip of `--batch` certificates (POST /api/service/{id}/print-certificates, the durable job run
//    at once): wall time, the zip's size and file count.
// Each phase also reports the median time of every stage of the pipeline (server/src/platform/stage-timing.ts:
// entry row, certificate number, template, macro values, cache check, fill, queue for a converter,
// write / UNO / read in the converter, store, signed link) and the CPU used: this process (server and
// load generator), the LibreOffice processes, the database backends, and everything else on the machine
// ("others", the load other people put on this shared machine during the run).
// Results: a table on stdout, JSON in bench/results/documents-*.json.
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import PizZip from 'pizzip';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/platform/config.ts';
import { openDatabase, rows } from '../../server/src/platform/db.ts';
import { createMailer } from '../../server/src/platform/mail.ts';
import { prepareDatabase } from '../../server/src/platform/startup.ts';
import { createSession } from '../../server/src/platform/auth.ts';
import { makeDocx } from '../../server/src/platform/converters/minimal-docx.ts';
import { setStageSink } from '../../server/src/platform/stage-timing.ts';
import pg from 'pg';
import { parseArgs } from './lib/args.ts';
import { CpuMeter } from './lib/cpu.ts';
import { printTable, writeResult } from './lib/results.ts';

const args = parseArgs();
const requests = args.number('requests', 120);
const concurrency = args.number('concurrency', 4);
const batchSize = args.number('batch', 300);
const converters = args.number('converters', 2);

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-bench-docs-'));
let dbName = '';
if (process.env.DATABASE_URL) {
  const server = new URL(process.env.DATABASE_URL);
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  dbName = 'edu_bench_docs';
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.query(`create database ${dbName}`);
  await admin.end();
  server.pathname = `/${dbName}`;
  process.env.DATABASE_URL = server.toString();
}
const config = loadConfig(process.env, { dataDir, requestLog: false, jobsIntervalMs: 0, officeConverters: converters, seedDemo: false, port: 0 });
const database = await openDatabase(config);
await prepareDatabase(database, config);
const app = await buildApp({ config, database, mailer: (a) => createMailer({ outboxDir: path.join(dataDir, 'mail'), from: config.mailFrom, log: a.log }) });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const db = app.db;

const LAST = ['Иванов', 'Смирнов', 'Кузнецов', 'Попов', 'Васильев', 'Петров', 'Соколов', 'Михайлов', 'Новиков', 'Фёдоров'];
const FIRST = ['Александр', 'Дмитрий', 'Максим', 'Сергей', 'Андрей', 'Алексей', 'Артём', 'Илья', 'Кирилл', 'Михаил'];
const MIDDLE = ['Александрович', 'Дмитриевич', 'Сергеевич', 'Андреевич', 'Алексеевич', 'Игоревич', 'Олегович', 'Павлович'];

async function setup() {
  const [operator] = await rows<{ id: number }>(
    db,
    sql`insert into users (email, last_name, first_name, middle_name, role) values ('bench-operator@example.com', 'Операторова', 'Анна', 'Ивановна', 1) returning id`,
  );
  const token = (await createSession(db, { userId: operator.id, remember: true })).access_token;
  // One operator per lane: an account may have only PRINTS_PER_USER prints in flight (decision 021).
  const laneTokens: string[] = [];
  for (let i = 0; i < concurrency; i++) {
    const [lane] = await rows<{ id: number }>(
      db,
      sql`insert into users (email, last_name, first_name, middle_name, role) values (${`bench-lane-${i}@example.com`}, 'Операторова', 'Лана', 'Ивановна', 1) returning id`,
    );
    laneTokens.push((await createSession(db, { userId: lane.id, remember: true })).access_token);
  }
  const file = await app.files.save(db, {
    userId: null,
    name: 'certificate.docx',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ext: 'docx',
    buffer: makeDocx([
      'СЕРТИФИКАТ',
      'Настоящий сертификат выдан ${user.fio_dative}',
      'за участие в мероприятии «${service.title}»',
      'объёмом ${service.hours} ч.',
      '№ ${entry.certificate_number}',
      'Дата выдачи: ${app.date}',
    ]),
  });
  const [template] = await rows<{ id: number }>(
    db,
    sql`insert into templates (title, dict_type_id, file_id) values ('Сертификат (bench)', 1, ${file.id}) returning id`,
  );
  const service = async (title: string, n: number, offset: number) => {
    const [s] = await rows<{ id: number }>(
      db,
      sql`insert into services (title, dict_type_id, price, hours, template_certificate_id) values (${title}, 2, 500, 6, ${template.id}) returning id`,
    );
    const people = Array.from({ length: n }, (_, i) => {
      const k = offset + i;
      return sql`(${`bench-doc-${k}@example.com`}, ${LAST[k % 10]}, ${FIRST[Math.floor(k / 10) % 10]}, ${MIDDLE[Math.floor(k / 100) % 8]})`;
    });
    const users = await rows<{ id: number }>(
      db,
      sql`insert into users (email, last_name, first_name, middle_name) values ${sql.join(people, sql`, `)} returning id`,
    );
    const values = users.map((u, i) => sql`(${`B${offset + i}`}, ${u.id}, ${s.id}, 500, 3, now())`);
    const entries = await rows<{ id: number }>(
      db,
      sql`insert into entries (number, created_by, service_id, price, status, done_at) values ${sql.join(values, sql`, `)} returning id`,
    );
    return { id: s.id, entryIds: entries.map((e) => e.id) };
  };
  return {
    token,
    laneTokens,
    single: await service('Вебинар «Замер печати сертификатов»', requests + 8, 0),
    batch: await service('Курс «Архив сертификатов»', batchSize, 10_000),
  };
}

// Stage times of the current phase, by stage.
let stageTimes = new Map<string, number[]>();
setStageSink((stage, ms) => {
  const list = stageTimes.get(stage) ?? [];
  list.push(ms);
  stageTimes.set(stage, list);
});

/** Median, p95 and count of each stage since the last call. */
function takeStages(): Record<string, { n: number; p50_ms: number; p95_ms: number; total_ms: number }> {
  const out: Record<string, { n: number; p50_ms: number; p95_ms: number; total_ms: number }> = {};
  for (const [stage, list] of stageTimes) {
    const sorted = [...list].sort((a, b) => a - b);
    out[stage] = {
      n: sorted.length,
      p50_ms: round1(percentile(sorted, 50)),
      p95_ms: round1(percentile(sorted, 95)),
      total_ms: Math.round(sorted.reduce((a, b) => a + b, 0)),
    };
  }
  stageTimes = new Map();
  return out;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const TICK_MS = 10;

/** CPU ticks of the LibreOffice converters of this process (bridges and soffice, found by their work folder). */
function officeTicks(): number {
  const marker = `edu-office-${process.pid}`;
  let ticks = 0;
  for (const pid of fsSync.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!fsSync.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) continue;
      const stat = fsSync.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // gone
    }
  }
  return ticks;
}

/** Runs a phase measuring its CPU: cores used on average by this process, LibreOffice, the database, others. */
async function measured<T>(fn: () => Promise<T>, count: () => number): Promise<{ result: T; cpu: Record<string, number | null> }> {
  const meter = new CpuMeter(null, dbName || 'none');
  const office0 = officeTicks();
  const t0 = performance.now();
  meter.start();
  const result = await fn();
  meter.stop();
  const wallTicks = (performance.now() - t0) / TICK_MS;
  const office = (officeTicks() - office0) / wallTicks;
  const u = meter.usage(count());
  const r = (n: number) => Math.round(n * 100) / 100;
  return {
    result,
    cpu: u
      ? {
          this_process_cores: u.cores.loadgen,
          office_cores: r(office),
          db_cores: u.cores.db,
          others_cores: r(Math.max(0, u.cores.others - office)),
          machine_cores: u.cores.machine,
          this_process_ms_per_doc: u.loadgen_ms_per_req,
          office_ms_per_doc: r((office * wallTicks * TICK_MS) / Math.max(1, count())),
        }
      : { others_cores: null },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function printAll(ids: number[], tokens: string[]): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const worker = async (token: string) => {
    while (next < ids.length) {
      const id = ids[next++];
      const t0 = performance.now();
      const res = await fetch(`${base}/api/entry/${id}/print/certificate`, { headers: { authorization: `Bearer ${token}` } });
      if (!res.ok) throw new Error(`print ${id}: ${res.status} ${await res.text()}`);
      times.push(performance.now() - t0);
      const { url } = (await res.json()) as { url: string };
      const pdf = await fetch(`${base}${url}`);
      if (!pdf.ok || (await pdf.arrayBuffer()).byteLength < 1000) throw new Error(`pdf ${id}: ${pdf.status}`);
    }
  };
  await Promise.all(tokens.slice(0, concurrency).map(worker));
  return times.sort((a, b) => a - b);
}

try {
  const { token, laneTokens, single, batch } = await setup();
  const t0 = performance.now();
  await app.converters.office.warm();
  const warmMs = performance.now() - t0;
  await printAll(single.entryIds.slice(0, 8), laneTokens);
  takeStages();

  const started = performance.now();
  const coldRun = await measured(
    () => printAll(single.entryIds.slice(8), laneTokens),
    () => requests,
  );
  const cold = coldRun.result;
  const wall = performance.now() - started;
  const coldStages = takeStages();
  const cachedRun = await measured(
    () => printAll(single.entryIds.slice(8), laneTokens),
    () => requests,
  );
  const cached = cachedRun.result;
  const cachedStages = takeStages();

  const b0 = performance.now();
  let state: { status: number; done: number; total: number; url: string | null } = { status: 1, done: 0, total: 0, url: null };
  const batchRun = await measured(
    async () => {
      const startRes = await fetch(`${base}/api/service/${batch.id}/print-certificates`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      if (startRes.status !== 201) throw new Error(`batch: ${startRes.status} ${await startRes.text()}`);
      const { data } = (await startRes.json()) as { data: { id: number } };
      while (state.status < 3) {
        await app.jobs.runDue(1);
        state = (
          (await (await fetch(`${base}/api/print-batch/${data.id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: typeof state }
        ).data;
      }
    },
    () => batchSize,
  );
  const batchStages = takeStages();
  const batchMs = performance.now() - b0;
  if (state.status !== 3 || !state.url) throw new Error('the batch failed');
  const zip = Buffer.from(await (await fetch(`${base}${state.url}`)).arrayBuffer());
  const files = Object.keys(new PizZip(zip).files).length;

  const result = {
    machine: { cpus: os.cpus().length, node: process.version, loadavg_1m: Number(os.loadavg()[0].toFixed(1)), database: database.kind, tmpdir: os.tmpdir() },
    converters,
    concurrency,
    warm_start_ms: Math.round(warmMs),
    certificate_pdf: {
      requests: cold.length,
      p50_ms: Math.round(percentile(cold, 50)),
      p95_ms: Math.round(percentile(cold, 95)),
      max_ms: Math.round(cold[cold.length - 1]),
      per_second: Number(((cold.length / wall) * 1000).toFixed(1)),
      cached_p50_ms: Math.round(percentile(cached, 50)),
      cached_p95_ms: Math.round(percentile(cached, 95)),
    },
    zip: { certificates: files, seconds: Number((batchMs / 1000).toFixed(1)), bytes: zip.length },
    cpu: { prints: coldRun.cpu, cached: cachedRun.cpu, zip: batchRun.cpu },
    stages: { prints: coldStages, cached: cachedStages, zip: batchStages },
  };
  printTable(
    ['measure', 'value', 'goal'],
    [
      [`certificate PDF p50 (${concurrency} at once, warm)`, `${result.certificate_pdf.p50_ms} ms`, ''],
      [`certificate PDF p95 (${concurrency} at once, warm)`, `${result.certificate_pdf.p95_ms} ms`, '< 300 ms'],
      ['certificate PDF max', `${result.certificate_pdf.max_ms} ms`, ''],
      ['certificates per second', result.certificate_pdf.per_second, ''],
      ['cached print p50 / p95', `${result.certificate_pdf.cached_p50_ms} / ${result.certificate_pdf.cached_p95_ms} ms`, ''],
      [`zip of ${files} certificates`, `${result.zip.seconds} s (${Math.round(zip.length / 1024)} kB)`, '< 20 s'],
      ['converters start', `${result.warm_start_ms} ms`, ''],
      ['machine load (1 min average)', `${result.machine.loadavg_1m} on ${result.machine.cpus} cores`, ''],
      ...(['prints', 'zip'] as const).map((phase) => {
        const c = result.cpu[phase];
        return [`CPU during ${phase} (cores)`, `this ${c.this_process_cores}, office ${c.office_cores}, db ${c.db_cores ?? '-'}, others ${c.others_cores}`, ''];
      }),
    ],
  );
  for (const phase of ['prints', 'zip'] as const) {
    console.log(`\nstages, ${phase} (ms):`);
    printTable(
      ['stage', 'n', 'p50', 'p95', 'total'],
      Object.entries(result.stages[phase]).map(([stage, s]) => [stage, s.n, s.p50_ms, s.p95_ms, s.total_ms]),
    );
  }
  console.log(writeResult('documents', result));
} finally {
  await app.close();
  await database.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}
