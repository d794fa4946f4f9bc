// HTTP load against a running server (this script starts nothing). Usage (from the repo root):
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/edu_bench npx tsx bench/src/load.ts --duration 20
// Options: --base-url URL (BASE_URL or http://127.0.0.1:8080)  --duration S (20)  --connections N (50)
//          --scenario all|api-get|login|mixed (all)  --warmup S (3)  --budget-p50 MS (15)
//          --server-pid PID (found from the listening port when the server runs on this machine)
// Scenarios: (a) api-get: GET /api/get, Bearer tokens rotating over the bench sessions;
// (b) login: POST /login rotating over bench users' e-mails (argon2id verify on every request);
// (c) mixed: (a) and (b) at the same time, each with its own connections, to see whether slow logins
// starve the cheap requests. Results: a table on stdout, JSON in bench/results/load-*.json.
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from './lib/args.ts';
import { runScenario, type Scenario, type ScenarioResult } from './lib/cannon.ts';
import { CpuMeter, findListeningPid } from './lib/cpu.ts';
import { openPool } from './lib/db.ts';
import { printTable, writeResult } from './lib/results.ts';
import { BENCH_NOTE, BENCH_PASSWORD, readTokens } from './lib/sessions.ts';

const args = parseArgs();
const baseUrl = args.string('base-url', process.env.BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const duration = args.number('duration', 20);
const connections = args.number('connections', 50);
const which = args.string('scenario', 'all');
const warmup = args.number('warmup', 3);
const budgetP50 = args.number('budget-p50', 15);
const loginUsers = args.number('login-users', 5000);

const port = Number(new URL(baseUrl).port || 80);
const serverPid = args.has('server-pid') ? args.number('server-pid', 0) : findListeningPid(port);
const dbName = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL).pathname.slice(1) : 'edu_bench';
const meter = new CpuMeter(serverPid, dbName);

const tokens = readTokens().sessions.map((s) => s.token);
const emails = await loadEmails(loginUsers);

async function loadEmails(limit: number): Promise<string[]> {
  if (!process.env.DATABASE_URL) {
    console.warn('DATABASE_URL is not set: logging in as the users of tokens.json only.');
    return readTokens().sessions.map((s) => s.email);
  }
  const pool = openPool(1);
  try {
    const { rows } = await pool.query<{ email: string }>('select email from users where note = $1 order by id limit $2', [BENCH_NOTE, limit]);
    return rows.map((r) => r.email);
  } finally {
    await pool.end();
  }
}

function rotating<T>(items: T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length];
}

const nextToken = rotating(tokens);
const nextEmail = rotating(emails);
const apiGet = (name: string, seconds = duration): Scenario => ({
  name,
  method: 'GET',
  path: '/api/get',
  connections,
  duration: seconds,
  next: () => ({ headers: { authorization: `Bearer ${nextToken()}` } }),
});
const login = (name: string): Scenario => ({
  name,
  method: 'POST',
  path: '/login',
  connections,
  duration,
  next: () => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: nextEmail(), password: BENCH_PASSWORD }) }),
});

/** Fails early, with a reason, when the server or the data is not what the scenarios expect. */
async function preflight(): Promise<void> {
  const health = await fetch(`${baseUrl}/api/health`).catch((err: Error) => {
    throw new Error(`No server at ${baseUrl} (${err.message}). Start it first: see bench/README.md.`);
  });
  if (!health.ok) throw new Error(`${baseUrl}/api/health answered ${health.status}`);
  const me = await fetch(`${baseUrl}/api/get`, { headers: { authorization: `Bearer ${tokens[0]}` } });
  if (me.status !== 200) throw new Error(`GET /api/get with a bench token answered ${me.status}: is the server using the bench database?`);
  const res = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: emails[0], password: BENCH_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`POST /login as ${emails[0]} answered ${res.status}: ${await res.text()}`);
}

function log(r: ScenarioResult) {
  const l = r.latency_ms;
  console.log(`  ${r.scenario}: ${r.rps} req/s, p50 ${l.p50} ms, p95 ${l.p95} ms, p99 ${l.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`);
}

/** Runs scenarios side by side and attaches the CPU use of the whole run to each of them. */
async function measured(...scenarios: Scenario[]): Promise<ScenarioResult[]> {
  meter.start();
  const out = await Promise.all(scenarios.map((s) => runScenario(baseUrl, s)));
  meter.stop();
  const cpu = meter.usage(out.reduce((n, r) => n + r.responses, 0));
  for (const r of out) {
    r.cpu = cpu;
    log(r);
  }
  return out;
}

await preflight();
console.log(`Target ${baseUrl}; ${tokens.length} sessions, ${emails.length} login e-mails; ${connections} connections, ${duration} s per scenario.`);
console.log(serverPid ? `CPU accounting: server pid ${serverPid}, backends of database ${dbName}.` : 'CPU accounting: server process not found (pass --server-pid).');
const results: ScenarioResult[] = [];

if (warmup > 0) {
  console.log(`warm-up ${warmup} s (not recorded)`);
  await runScenario(baseUrl, apiGet('warm-up', warmup));
}
if (which === 'all' || which === 'api-get') {
  results.push(...(await measured(apiGet('a. GET /api/get'))));
  await sleep(2000);
}
if (which === 'all' || which === 'login') {
  results.push(...(await measured(login('b. POST /login'))));
  await sleep(2000);
}
if (which === 'all' || which === 'mixed') {
  results.push(...(await measured(apiGet('c. GET /api/get during logins'), login('c. POST /login during GETs'))));
}

console.log('');
printTable(
  ['scenario', 'conns', 'req/s', 'p50 ms', 'p95 ms', 'p97.5 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors'],
  results.map((r) => [
    r.scenario,
    r.connections,
    r.rps,
    r.latency_ms.p50,
    r.latency_ms.p95,
    r.latency_ms.p97_5,
    r.latency_ms.p99,
    r.latency_ms.max,
    r.non2xx,
    r.errors + r.timeouts,
  ]),
);

if (results.some((r) => r.cpu)) {
  console.log('\nCPU (ms per request; cores in use on average; "others" = processes outside this benchmark)');
  printTable(
    ['scenario', 'server ms/req', 'db ms/req', 'loadgen ms/req', 'server cores', 'db cores', 'loadgen cores', 'others cores'],
    results
      .filter((r) => r.cpu && !r.scenario.startsWith('c. POST'))
      .map((r) => {
        const c = r.cpu!;
        const name = r.scenario.startsWith('c.') ? 'c. both halves together' : r.scenario;
        return [name, c.server_ms_per_req ?? '-', c.db_ms_per_req, c.loadgen_ms_per_req, c.cores.server ?? '-', c.cores.db, c.cores.loadgen, c.cores.others];
      }),
  );
}

const alone = results.find((r) => r.scenario.startsWith('a.'));
const during = results.find((r) => r.scenario === 'c. GET /api/get during logins');
const summary: Record<string, unknown> = {};
if (alone) {
  summary.api_get_p50_budget_ms = budgetP50;
  summary.api_get_p50_ok = alone.latency_ms.p50 < budgetP50;
  console.log(`\nBudget: GET /api/get p50 at ${connections} connections ${alone.latency_ms.p50} ms, budget < ${budgetP50} ms: ${alone.latency_ms.p50 < budgetP50 ? 'PASS' : 'FAIL'}`);
}
if (alone && during) {
  summary.api_get_during_login = {
    p50_alone: alone.latency_ms.p50,
    p50_during: during.latency_ms.p50,
    p99_alone: alone.latency_ms.p99,
    p99_during: during.latency_ms.p99,
    rps_alone: alone.rps,
    rps_during: during.rps,
  };
  console.log(
    `GET /api/get alone vs during logins: p50 ${alone.latency_ms.p50} -> ${during.latency_ms.p50} ms, p99 ${alone.latency_ms.p99} -> ${during.latency_ms.p99} ms, ${alone.rps} -> ${during.rps} req/s`,
  );
}

const file = writeResult('load', { base_url: baseUrl, server_pid: serverPid, database: dbName, started_at: new Date().toISOString(), connections, duration_s: duration, summary, results });
console.log(`\nJSON: ${file}`);
