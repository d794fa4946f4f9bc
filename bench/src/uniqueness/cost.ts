// Cost of one uniqueness check at large sizes (issue 18), and the API's health while big checks run.
//
//   npx tsx bench/src/uniqueness/cost.ts [--sizes 30000,100000,500000] [--candidates 30] [--full]
//     Per size, in a fresh process: a text made of the test set's stored texts, checked against
//     `--candidates` stored texts: the text cut into that many parts (each part a stored text, so the
//     whole text is borrowed), or with --full that many stored texts that each hold the whole text
//     (the identical copy and rotations of it: every candidate aligned over the whole text, the worst
//     case). Wall time of the check (analysis, candidates, alignment), the process's RSS before it
//     and its peak during it.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/edu_uniq_cost npx tsx bench/src/uniqueness/cost.ts --health [--port 8202] [--checks 5] [--chars 500000]
//     Starts the server as `npm start` does (tsx, job runner on, a fresh database made and migrated),
//     stores `--checks` identical publications of `--chars` characters of different authors, schedules
//     their checks and, until all are stored, requests GET /api/health with 10 connections; then the
//     same for 10 s with no check running. Latency p50 / p99 / max of both, and the time all checks took.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { MemoryIndex } from '../../../server/src/features/publications/uniqueness/engine.ts';
import { waitFor } from '../lib/wait-for.ts';
import { parseArgs } from '../lib/args.ts';

const args = parseArgs();
const setDir = path.resolve('bench/uniqueness-set/corpus');

/** The test set's stored texts one after another, cut to `chars`. */
function bigText(chars: number): string {
  const parts = fs
    .readdirSync(setDir)
    .sort()
    .map((f) => fs.readFileSync(path.join(setDir, f), 'utf8'));
  let text = parts.join('\n\n');
  while (text.length < chars) text += `\n\n${text}`;
  return text.slice(0, chars);
}

const mb = (bytes: number) => Math.round(bytes / 1048576);

/** One size in this process: answers a JSON line. */
function measureOne(chars: number, candidates: number, full: boolean): void {
  const text = bigText(chars);
  const index = new MemoryIndex<string>();
  for (let k = 0; k < candidates; k++) {
    const cut = Math.floor((k * text.length) / candidates);
    const next = Math.floor(((k + 1) * text.length) / candidates);
    index.add(`part-${k}`, full ? text.slice(cut) + text.slice(0, cut) : text.slice(cut, next));
  }
  global.gc?.();
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const result = index.check(text);
  const ms = performance.now() - started;
  const peak = process.resourceUsage().maxRSS * 1024;
  console.log(
    JSON.stringify({
      chars,
      candidates,
      full,
      ms: Math.round(ms),
      uniqueness: result.uniqueness,
      sources: result.matches.length,
      rssBeforeMb: mb(before),
      peakMb: mb(peak),
      extraMb: mb(peak - before),
    }),
  );
}

async function engineTable(): Promise<void> {
  const sizes = args.string('sizes', '30000,100000,500000').split(',').map(Number);
  const candidates = args.number('candidates', 30);
  const full = args.flag('full');
  console.log(`| characters | candidates | check | sources found | uniqueness | RSS before | peak RSS | extra |\n|---|---|---|---|---|---|---|---|`);
  for (const chars of sizes) {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          '--expose-gc',
          '--import',
          'tsx',
          new URL(import.meta.url).pathname,
          '--one',
          String(chars),
          '--candidates',
          String(candidates),
          ...(full ? ['--full'] : []),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`size ${chars}: exit ${code}`))));
    });
    const r = JSON.parse(out.trim().split('\n').pop()!);
    console.log(
      `| ${chars} | ${r.candidates}${full ? ' full copies' : ' parts'} | ${(r.ms / 1000).toFixed(2)} s | ${r.sources} | ${r.uniqueness} | ${r.rssBeforeMb} MB | ${r.peakMb} MB | ${r.extraMb} MB |`,
    );
  }
}

function load(url: string, duration: number): Promise<autocannon.Result> {
  return autocannon({ url, connections: 10, duration });
}

async function healthUnderChecks(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL is needed');
  const port = args.number('port', 8202);
  const checks = args.number('checks', 5);
  const chars = args.number('chars', 500_000);
  const dbName = new URL(base).pathname.slice(1);
  const admin = new pg.Client({ connectionString: base.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName}`);
  await admin.query(`create database ${dbName}`);
  await admin.end();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uniq-cost-'));
  const server: ChildProcess = spawn('npx', ['tsx', 'server/src/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: base,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      JOBS_INTERVAL_MS: '500',
      LOG_LEVEL: 'warn',
      OFFICE_CONVERTERS: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const health = `http://127.0.0.1:${port}/api/health`;
  const db = new pg.Client({ connectionString: base });
  try {
    await waitFor(health, 120_000);
    await db.connect();
    const text = `<p>${bigText(chars).replace(/[<&>]/g, ' ').replace(/\n+/g, '</p><p>')}</p>`;
    const ids: number[] = [];
    for (let k = 0; k < checks; k++) {
      const { rows: u } = await db.query<{ id: number }>(`insert into users (email, last_name, first_name) values ($1, 'Нагрузкин', 'Автор') returning id`, [
        `cost-${k}@bench.local`,
      ]);
      const { rows: p } = await db.query<{ id: number }>(
        `insert into publications (title, text, created_by) values ('Большая публикация', $1, $2) returning id`,
        [text, u[0].id],
      );
      ids.push(p[0].id);
      await db.query(`insert into jobs (name, payload, unique_key, owner_id) values ('check-publication-uniqueness', $1, $2, $3)`, [
        { publicationId: p[0].id },
        `publication:${p[0].id}`,
        u[0].id,
      ]);
    }
    const started = Date.now();
    let doneAt = 0;
    const poll = (async () => {
      for (;;) {
        const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from publications where id = any($1) and uniqueness is not null`, [ids]);
        if (rows[0].n === ids.length) {
          doneAt = Date.now();
          return;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    // The load runs in slices until every check is stored.
    const latencies: autocannon.Result[] = [];
    while (!doneAt) latencies.push(await load(health, 5));
    await poll;
    const idle = await load(health, 10);
    const worst = (key: 'p50' | 'p99' | 'max') => Math.max(...latencies.map((r) => r.latency[key]));
    const { rows: result } = await db.query<{ uniqueness: string }>(`select uniqueness from publications where id = any($1) order by id`, [ids]);
    console.log(
      `${checks} checks of ${chars} characters stored in ${((doneAt - started) / 1000).toFixed(1)} s (uniqueness ${result.map((r) => Number(r.uniqueness)).join(', ')})`,
    );
    console.log(
      `/api/health during the checks (${latencies.length} slices of 5 s, 10 connections; worst slice): p50 ${worst('p50')} ms, p99 ${worst('p99')} ms, max ${worst('max')} ms; requests ${latencies.reduce((n, r) => n + r.requests.total, 0)}, errors ${latencies.reduce((n, r) => n + r.errors + r.non2xx, 0)}`,
    );
    console.log(`/api/health with no check (10 s): p50 ${idle.latency.p50} ms, p99 ${idle.latency.p99} ms, max ${idle.latency.max} ms`);
  } finally {
    await db.end().catch(() => undefined);
    if (server.pid) process.kill(-server.pid, 'SIGTERM');
  }
}

if (args.has('one')) measureOne(args.number('one', 30000), args.number('candidates', 30), args.flag('full'));
else if (args.flag('health')) await healthUnderChecks();
else await engineTable();
