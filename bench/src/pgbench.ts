// pgbench with the SQL of the benchmarked calls, against the bench database. Usage (from the repo root):
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/edu_bench npx tsx bench/src/pgbench.ts --duration 20
// Options: --duration S (20)  --clients N (50)  --jobs N (2)  --modes extended[,prepared] (extended)
//          --scenario api-get,entries-user,search (all three), or manager-area keys (lib/manager-scenarios.ts;
//          `manager` = all of them, `entry-*`, `users-*`, `stats-*` = a group)
// One pgbench transaction = the reads of one request (writes such as the request log are left out):
// - api-get: GET /api/get for a random bench session;
// - entries-user: GET /api/entry (default page) as one of the busiest clients (tokens.json `heavy`);
// - search: POST /api/service/search, one- and two-word queries in the proportion load.ts uses.
// The SQL is what the server sent, captured from PostgreSQL's log by capture-sql.ts
// (bench/results/captured-sql.json); without a capture, api-get falls back to lib/api-get-sql.ts.
// Mode `extended` is what node-postgres does for unnamed queries (parse + plan every time);
// `prepared` plans once per connection (what named statements give). The ratio HTTP req/s / pgbench
// tps uses the newest bench/results/load-*.json holding the same scenario at as many
// connections as pgbench has clients. Results: pgbench-*.json.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from './lib/args.ts';
import { CpuMeter, type CpuUsage } from './lib/cpu.ts';
import { databaseUrl, openPool } from './lib/db.ts';
import { expandManager, MANAGER_KEYS, managerScenarios } from './lib/manager-scenarios.ts';
import { apiGetScript, entriesUserScript, managerScript, readCaptured, searchScript, type BenchScript } from './lib/pgbench-scripts.ts';
import { latestScenario, printTable, writeResult } from './lib/results.ts';
import { searchQueries } from './lib/search-words.ts';
import { hashToken, readTokens } from './lib/sessions.ts';

const args = parseArgs();
const duration = args.number('duration', 20);
const clients = args.number('clients', 50);
const jobs = args.number('jobs', 2);
const modes = args.string('modes', 'extended').split(',');
const scenarios = expandManager(args.string('scenario', 'api-get,entries-user,search').split(','));

const tokens = readTokens();
if (tokens.last_user_id - tokens.first_user_id + 1 !== tokens.count) {
  throw new Error('The bench sessions do not cover a contiguous id range; run generate.ts --reset.');
}
const captured = readCaptured();
const warnings: string[] = [];
const scripts: BenchScript[] = [];
const managerWanted = scenarios.filter((k) => (MANAGER_KEYS as readonly string[]).includes(k));
const manager = new Map<string, Awaited<ReturnType<typeof managerScenarios>>[number]>();
if (managerWanted.length > 0) {
  if (!tokens.operator) throw new Error('tokens.json has no operator session: run generate.ts with --entries.');
  const pool = openPool(1);
  try {
    for (const s of await managerScenarios(pool, new Set(managerWanted))) manager.set(s.key, s);
  } finally {
    await pool.end();
  }
}
for (const key of scenarios) {
  const m = manager.get(key);
  if (m) {
    scripts.push(managerScript(m, captured, hashToken(tokens.operator!.token), warnings));
    continue;
  }
  if (key === 'api-get') scripts.push(apiGetScript(tokens, captured, warnings));
  else if (key === 'entries-user') scripts.push(entriesUserScript(tokens, captured, warnings));
  else if (key === 'search') {
    const pool = openPool(1);
    try {
      scripts.push(searchScript(tokens, captured, await searchQueries(pool), warnings));
    } finally {
      await pool.end();
    }
  } else throw new Error(`Unknown scenario ${key}: api-get, entries-user, search or ${MANAGER_KEYS.join(', ')}`);
}
for (const w of new Set(warnings)) console.warn(`warning: ${w}`);
if (captured) console.log(`SQL captured from the server at ${captured.captured_at} (bench/results/captured-sql.json).`);

interface Command {
  latency_ms: number;
  command: string;
}

interface PgbenchRun {
  scenario: string;
  mode: string;
  clients: number;
  jobs: number;
  duration_s: number;
  tps: number;
  latency_avg_ms: number;
  transactions: number;
  failed: number;
  /** Per script: pgbench -r's latency of each command (meta-commands included). */
  commands: Command[][];
  /** Share of the helper statement (picks the user, hashes the token, picks the words) in the latency. */
  helper_share: number;
  /** tps with the helper's time taken out: tps * latency / (latency - helper latency). An estimate. */
  tps_without_helper: number;
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

/** pgbench -r: after each "statement latencies in milliseconds" line, one line per command. */
function commandLatencies(out: string): Command[][] {
  return out
    .split(/statement latencies in milliseconds.*\n/)
    .slice(1)
    .map((section) => {
      const list: Command[] = [];
      for (const line of section.split('\n')) {
        const m = /^\s+([\d.]+)\s+(?:\d+\s+)?(\S.*)$/.exec(line);
        if (!m) break;
        list.push({ latency_ms: Number(m[1]), command: m[2].slice(0, 80) });
      }
      return list;
    });
}

async function run(script: BenchScript, mode: string): Promise<PgbenchRun> {
  const files = script.files.flatMap((f) => ['-f', script.files.length > 1 ? `${f.file}@${f.weight}` : f.file]);
  const defines = Object.entries(script.defines ?? {}).flatMap(([k, v]) => ['-D', `${k}=${v}`]);
  const argv = ['-n', '-r', '-M', mode, '-c', String(clients), '-j', String(jobs), '-T', String(duration), ...defines, ...files, databaseUrl()];
  console.log(
    `pgbench ${argv
      .slice(0, -1)
      .join(' ')
      .replaceAll(`${process.cwd()}/`, '')
      .replace(/th=[0-9a-f]{64}/, 'th=<operator token hash>')} <DATABASE_URL>`,
  );
  const res = await pgbench(argv);
  if (res.status !== 0) throw new Error(`pgbench failed (${res.status}):\n${res.stderr}\n${res.stdout}`);
  const out = res.stdout;
  const num = (re: RegExp) => {
    const m = out.match(re);
    return m ? Number(m[1]) : null;
  };
  const tps = num(/tps = ([\d.]+) \(without initial connection time\)/) ?? 0;
  const latency = num(/latency average = ([\d.]+) ms/) ?? 0;
  const commands = commandLatencies(out);
  // Helper share, weighted over the scripts by their weights.
  let helper = 0;
  let total = 0;
  commands.forEach((list, i) => {
    const w = script.files[i]?.weight ?? 1;
    total += w * list.reduce((a, c) => a + c.latency_ms, 0);
    if (script.helperCommand >= 0) helper += w * (list[script.helperCommand]?.latency_ms ?? 0);
  });
  const share = total > 0 ? helper / total : 0;
  return {
    scenario: script.key,
    mode,
    clients,
    jobs,
    duration_s: duration,
    tps,
    latency_avg_ms: latency,
    transactions: num(/number of transactions actually processed: (\d+)/) ?? 0,
    failed: num(/number of failed transactions: (\d+)/) ?? 0,
    commands,
    helper_share: Math.round(share * 1000) / 1000,
    tps_without_helper: Math.round((tps / (1 - share)) * 10) / 10,
    cpu: meter.usage(tps * res.windowSeconds),
  };
}

const runs: PgbenchRun[] = [];
for (const script of scripts) {
  for (const mode of modes) {
    runs.push(await run(script, mode));
    await sleep(1000);
  }
}

const httpNames: Record<string, string> = { 'api-get': 'api-get', 'entries-user': 'entries-user', search: 'search' };
const ratios: Record<string, unknown> = {};
const rows = runs.map((r) => {
  const http = latestScenario(httpNames[r.scenario] ?? r.scenario, clients);
  const ratio = http && r.tps > 0 ? http.rps / r.tps : null;
  if (r.mode === modes[0]) ratios[r.scenario] = { http_rps: http?.rps ?? null, http_file: http?.file ?? null, pgbench_tps: r.tps, ratio };
  return [
    r.scenario,
    r.mode,
    r.tps.toFixed(1),
    r.helper_share > 0 ? r.tps_without_helper.toFixed(1) : '-',
    r.latency_avg_ms,
    r.failed,
    r.cpu?.db_ms_per_req ?? '-',
    r.cpu?.cores.db ?? '-',
    r.cpu?.cores.others ?? '-',
    http ? http.rps : '-',
    ratio === null ? '-' : ratio.toFixed(2),
  ];
});
console.log('');
printTable(
  ['scenario', 'mode', 'tps', 'tps w/o helper', 'latency avg ms', 'failed', 'db cpu ms/tx', 'db cores', 'others+pgbench cores', 'HTTP req/s', 'HTTP/pgbench'],
  rows,
);
for (const r of runs) {
  console.log(`\n${r.scenario} (${r.mode}), ms per command:`);
  r.commands.forEach((list, i) => {
    if (r.commands.length > 1) console.log(`  script ${i + 1}:`);
    for (const c of list) console.log(`  ${c.latency_ms.toFixed(3).padStart(9)}  ${c.command}`);
  });
}
console.log(
  '\nHTTP/pgbench: req/s of the same scenario in the newest bench/results/load-*.json over pgbench tps (1.0 = the API costs nothing beyond its SQL).',
);
const file = writeResult('pgbench', {
  scripts: scripts.map((s) => ({ key: s.key, source: s.source, files: s.files })),
  runs,
  ratios,
  captured_at: captured?.captured_at ?? null,
});
console.log(`JSON: ${file}`);
