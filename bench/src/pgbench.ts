// pgbench with the SQL of GET /api/get, against the bench database. Usage (from the repo root):
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/edu_bench npx tsx bench/src/pgbench.ts --duration 20
// Options: --duration S (20)  --clients N (50)  --jobs N (2)  --modes extended[,prepared] (extended)
// One pgbench transaction = one GET /api/get: the token lookup, then the current-user query, for a
// random bench session. Mode `extended` is what node-postgres does (parse + plan every query);
// `prepared` shows what plan caching would save. The ratio HTTP req/s / pgbench tps uses
// bench/results/load-latest.json, so run load.ts first. Results: bench/results/pgbench-*.json.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import fs from 'node:fs';
import { CURRENT_USER_SQL, RESOLVE_TOKEN_SQL } from './lib/api-get-sql.ts';
import { parseArgs } from './lib/args.ts';
import { CpuMeter, type CpuUsage } from './lib/cpu.ts';
import { databaseUrl } from './lib/db.ts';
import { printTable, readLatest, resultsPath, writeResult } from './lib/results.ts';
import { readTokens, TOKEN_PREFIX } from './lib/sessions.ts';
import type { ScenarioResult } from './lib/cannon.ts';

const args = parseArgs();
const duration = args.number('duration', 20);
const clients = args.number('clients', 50);
const jobs = args.number('jobs', 2);
const modes = args.string('modes', 'extended').split(',');

const tokens = readTokens();
if (tokens.last_user_id - tokens.first_user_id + 1 !== tokens.count) {
  throw new Error('The bench sessions do not cover a contiguous id range; run generate.ts --reset.');
}

/** pgbench variables become parameters ($1) in extended and prepared mode, as in node-postgres. */
const toPgbench = (sql: string, value: string) => `${sql.trim().replace(/\$1\b/g, value)};`;
const script = [
  '-- GET /api/get, written by bench/src/pgbench.ts from bench/src/lib/api-get-sql.ts',
  `\\set uid random(${tokens.first_user_id}, ${tokens.last_user_id})`,
  // The server hashes the token in Node; here the hash of the session's known token is computed in SQL.
  toPgbench(RESOLVE_TOKEN_SQL, `encode(sha256(convert_to('${TOKEN_PREFIX}' || :uid, 'UTF8')), 'hex')`),
  toPgbench(CURRENT_USER_SQL, ':uid'),
  '',
].join('\n');
const scriptFile = resultsPath('api-get.pgbench');
fs.writeFileSync(scriptFile, script);

interface PgbenchRun {
  mode: string;
  clients: number;
  jobs: number;
  duration_s: number;
  tps: number;
  latency_avg_ms: number;
  latency_stddev_ms: number | null;
  transactions: number;
  failed: number;
  statement_latency_ms: number[];
  /** Backends' CPU per transaction and cores in use (pgbench's own CPU counts as "others"). */
  cpu: CpuUsage | null;
}

const meter = new CpuMeter(null, new URL(databaseUrl()).pathname.slice(1));

/** Runs pgbench; measures CPU in the middle of the run (pgbench's backends are gone once it ends). */
async function pgbench(argv: string[]): Promise<{ status: number | null; stdout: string; stderr: string; windowSeconds: number }> {
  const child = spawn('pgbench', argv);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const margin = Math.min(2, duration / 4);
  await sleep(margin * 1000);
  meter.start();
  const started = Date.now();
  await sleep((duration - 2 * margin) * 1000);
  meter.stop();
  const windowSeconds = (Date.now() - started) / 1000;
  return { status: await exited, stdout, stderr, windowSeconds };
}

async function run(mode: string): Promise<PgbenchRun> {
  const argv = ['-n', '-r', '-M', mode, '-c', String(clients), '-j', String(jobs), '-T', String(duration), '-f', scriptFile, databaseUrl()];
  console.log(`pgbench ${argv.slice(0, -1).join(' ')} <DATABASE_URL>`);
  const res = await pgbench(argv);
  if (res.status !== 0) throw new Error(`pgbench failed (${res.status}):\n${res.stderr}\n${res.stdout}`);
  const out = res.stdout;
  const num = (re: RegExp) => {
    const m = out.match(re);
    return m ? Number(m[1]) : null;
  };
  // Per-statement latencies follow "statement latencies in milliseconds": one line per script command.
  const statementLines = out.split('statement latencies in milliseconds')[1]?.split('\n').slice(1) ?? [];
  const statementLatency = statementLines.map((l) => l.trim().match(/^([\d.]+)\s+\d*\s*(select|\\set)/)).filter((m) => m !== null);
  const transactions = num(/number of transactions actually processed: (\d+)/) ?? 0;
  const tps = num(/tps = ([\d.]+) \(without initial connection time\)/) ?? 0;
  return {
    mode,
    clients,
    jobs,
    duration_s: duration,
    tps,
    latency_avg_ms: num(/latency average = ([\d.]+) ms/) ?? 0,
    latency_stddev_ms: num(/latency stddev = ([\d.]+) ms/),
    transactions,
    failed: num(/number of failed transactions: (\d+)/) ?? 0,
    statement_latency_ms: statementLatency.map((m) => Number(m[1])),
    cpu: meter.usage(tps * res.windowSeconds),
  };
}

const runs: PgbenchRun[] = [];
for (const mode of modes) runs.push(await run(mode));
console.log('');
printTable(
  ['pgbench mode', 'clients', 'tps', 'latency avg ms', 'token query ms', 'current-user ms', 'failed', 'db cpu ms/tx', 'db cores', 'others+pgbench cores'],
  runs.map((r) => [
    r.mode,
    r.clients,
    r.tps.toFixed(1),
    r.latency_avg_ms,
    r.statement_latency_ms[1] ?? '',
    r.statement_latency_ms[2] ?? '',
    r.failed,
    r.cpu?.db_ms_per_req ?? '-',
    r.cpu?.cores.db ?? '-',
    r.cpu?.cores.others ?? '-',
  ]),
);

const load = readLatest<{ results: ScenarioResult[] }>('load');
const http = load?.results.find((r) => r.scenario.startsWith('a.'));
let ratio: number | null = null;
if (http && runs[0].tps > 0) {
  ratio = http.rps / runs[0].tps;
  console.log(
    `\nRatio HTTP GET /api/get ${http.rps} req/s / pgbench (${runs[0].mode}) ${runs[0].tps.toFixed(1)} tps = ${ratio.toFixed(2)}` +
      ` (1.0 would mean the API adds no cost beyond its SQL)`,
  );
} else {
  console.log('\nNo bench/results/load-latest.json with scenario a: run load.ts first to get the HTTP / pgbench ratio.');
}
const file = writeResult('pgbench', { script, runs, http_rps: http?.rps ?? null, ratio_http_over_pgbench: ratio });
console.log(`JSON: ${file}\nScript: ${scriptFile}`);
