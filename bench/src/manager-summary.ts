// The manager area of issue 10 in one table: for each scenario (lib/manager-scenarios.ts) the HTTP
// figures of load.ts and the pgbench prepared tps of the same SQL, both at the same concurrency.
// Usage (from the repo root, after load.ts --scenario manager --connections 8 and
// pgbench.ts --scenario manager --clients 8 --modes prepared):
//   DATABASE_URL=... npx tsx bench/src/manager-summary.ts [--connections 8] [--markdown] [--explain failing|all|KEY,KEY]
// Pass: HTTP req/s >= --min-ratio (0.7) x pgbench prepared tps, p95 < --budget-p95 (50) ms, no non-2xx.
// --explain runs EXPLAIN (ANALYZE, BUFFERS) of each read statement of the chosen probes (captured
// SQL and parameters, bench/results/captured-sql.json) and writes bench/results/manager-explain.txt.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from './lib/args.ts';
import { openPool } from './lib/db.ts';
import { MANAGER_KEYS } from './lib/manager-scenarios.ts';
import { readCaptured } from './lib/pgbench-scripts.ts';
import { printTable, resultsDir, resultsPath, writeResult } from './lib/results.ts';

const args = parseArgs();
const connections = args.number('connections', 8);
const minRatio = args.number('min-ratio', 0.7);
const budgetP95 = args.number('budget-p95', 50);
const explainArg = args.string('explain', '');

interface LoadRow {
  key: string;
  scenario: string;
  connections: number;
  rps: number;
  non2xx: number;
  errors: number;
  latency_ms: { p50: number; p95: number; p99: number };
  loadavg_at_start: number;
  cpu?: { server_ms_per_req: number | null; db_ms_per_req: number; cores: { others: number } } | null;
}
interface PgbenchRow {
  scenario: string;
  mode: string;
  clients: number;
  tps: number;
  tps_without_helper: number;
  helper_share: number;
  cpu: { db_ms_per_req: number; cores: { others: number } } | null;
}

/** Newest first: the files of a prefix (load-2026-..., pgbench-2026-...), not the -latest copies. */
function files(prefix: string): Array<{ file: string; data: unknown }> {
  if (!fs.existsSync(resultsDir)) return [];
  return fs
    .readdirSync(resultsDir)
    .filter((f) => new RegExp(`^${prefix}-\\d.*\\.json$`).test(f))
    .sort()
    .reverse()
    .map((f) => ({ file: f, data: JSON.parse(fs.readFileSync(path.join(resultsDir, f), 'utf8')) as unknown }));
}

const loads = files('load');
const pgbenches = files('pgbench');
const findLoad = (key: string) => {
  for (const { file, data } of loads) {
    const hit = (data as { results?: LoadRow[] }).results?.find((r) => r.key === key && r.connections === connections);
    if (hit) return { file, row: hit };
  }
  return null;
};
const findPgbench = (key: string) => {
  for (const { file, data } of pgbenches) {
    const hit = (data as { runs?: PgbenchRow[] }).runs?.find((r) => r.scenario === key && r.mode === 'prepared' && r.clients === connections);
    if (hit) return { file, row: hit };
  }
  return null;
};

const header = [
  'scenario',
  'HTTP req/s',
  'p50 ms',
  'p95 ms',
  'non-2xx',
  'pgbench prepared tps',
  'ratio',
  'p95 ok',
  'ratio ok',
  'pass',
  'server ms/req',
  'db ms/req',
  'pgbench db ms/tx',
  'others cores (HTTP / pgbench)',
];
const rows: Array<Array<string | number>> = [];
const out: Array<Record<string, unknown>> = [];
const failing: string[] = [];
const used = new Set<string>();
for (const key of MANAGER_KEYS) {
  const l = findLoad(key);
  const p = findPgbench(key);
  if (!l && !p) continue;
  if (l) used.add(l.file);
  if (p) used.add(p.file);
  const ratio = l && p && p.row.tps > 0 ? l.row.rps / p.row.tps : null;
  const p95ok = l ? l.row.latency_ms.p95 < budgetP95 && l.row.non2xx === 0 && l.row.errors === 0 : null;
  const ratioOk = ratio === null ? null : ratio >= minRatio;
  const pass = p95ok === true && ratioOk === true;
  if (!pass) failing.push(key);
  const yn = (b: boolean | null) => (b === null ? '-' : b ? 'yes' : 'NO');
  rows.push([
    key,
    l ? l.row.rps : '-',
    l ? l.row.latency_ms.p50 : '-',
    l ? l.row.latency_ms.p95 : '-',
    l ? l.row.non2xx : '-',
    p ? p.row.tps.toFixed(1) : '-',
    ratio === null ? '-' : ratio.toFixed(2),
    yn(p95ok),
    yn(ratioOk),
    pass ? 'PASS' : 'FAIL',
    l?.row.cpu?.server_ms_per_req ?? '-',
    l?.row.cpu?.db_ms_per_req ?? '-',
    p?.row.cpu?.db_ms_per_req ?? '-',
    `${l?.row.cpu?.cores.others ?? '-'} / ${p?.row.cpu?.cores.others ?? '-'}`,
  ]);
  out.push({ key, http: l?.row ?? null, pgbench: p?.row ?? null, ratio, p95_ok: p95ok, ratio_ok: ratioOk, pass });
}
if (rows.length === 0) throw new Error(`No manager-area results at ${connections} connections in bench/results: run load.ts and pgbench.ts first.`);

console.log(
  `Manager area (issue 10) at ${connections} connections / pgbench clients; pass = p95 < ${budgetP95} ms and HTTP >= ${minRatio} x pgbench prepared.`,
);
console.log(`From: ${[...used].join(', ')}\n`);
if (args.flag('markdown')) {
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
} else {
  printTable(header, rows);
}
const medianOf = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};
const others = out.map((o) => (o.http as LoadRow | null)?.cpu?.cores.others).filter((x): x is number => typeof x === 'number');
console.log(
  `\n${rows.length - failing.length} of ${rows.length} pass. Others (cores, HTTP runs): median ${medianOf(others)}, max ${others.length ? Math.max(...others) : '-'}.`,
);
if (failing.length) console.log(`Failing: ${failing.join(', ')}`);

if (explainArg) {
  const captured = readCaptured();
  if (!captured) throw new Error('No bench/results/captured-sql.json: run capture-sql.ts first.');
  const keys = explainArg === 'failing' ? failing : explainArg === 'all' ? [...MANAGER_KEYS] : explainArg.split(',');
  const pool = openPool(1);
  const lines: string[] = [];
  try {
    for (const key of keys) {
      const probe = captured.probes[key];
      if (!probe) continue;
      lines.push(`==== ${key}: ${probe.request.method} ${probe.request.path}`);
      for (const s of probe.statements.filter((x) => /^\s*(select|with)\b/i.test(x.sql))) {
        lines.push(`-- ${s.sql.replace(/\s+/g, ' ').trim()}`, `-- parameters: ${JSON.stringify(s.params)}`);
        // 1. Planned for these values (an unnamed statement, as node-postgres sends unprepared queries).
        const { rows: custom } = await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${s.sql}`, s.params);
        lines.push('---- planned for these values (unnamed statement):', ...custom.map((p) => p['QUERY PLAN']), '');
        // 2. As a prepared statement after five executions (what a named statement of the server and
        //    pgbench -M prepared run from then on: PostgreSQL may switch to a generic plan).
        const literal = (v: string | null) => (v === null ? 'null' : `'${v.replace(/'/g, "''")}'`);
        const args = s.params.length ? `(${s.params.map(literal).join(', ')})` : '';
        const client = await pool.connect();
        try {
          await client.query(`prepare bench_explain as ${s.sql}`);
          for (let i = 0; i < 5; i++) await client.query(`execute bench_explain${args}`);
          const { rows: prepared } = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) execute bench_explain${args}`);
          lines.push('---- prepared, sixth execution:', ...prepared.map((p) => p['QUERY PLAN']), '');
        } finally {
          await client.query('deallocate bench_explain').catch(() => undefined);
          client.release();
        }
      }
    }
  } finally {
    await pool.end();
  }
  const file = resultsPath('manager-explain.txt');
  fs.writeFileSync(file, lines.join('\n') + '\n');
  console.log(lines.join('\n'));
  console.log(`EXPLAIN output: ${file}`);
}
const file = writeResult('manager-summary', { connections, min_ratio: minRatio, budget_p95_ms: budgetP95, sources: [...used], rows: out, failing });
console.log(`JSON: ${file}`);
