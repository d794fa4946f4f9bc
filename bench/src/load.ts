// HTTP load against a running server (this script starts nothing). Usage (from the repo root):
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/edu_bench npx tsx bench/src/load.ts --duration 20
// Options: --base-url URL (BASE_URL or http://127.0.0.1:8080)  --duration S (20)  --connections N (50)
//          --scenario all | a comma list of api-get,login,mixed,entries-user,entries-operator,search (all)
//          --warmup S (3)  --budget-p50 MS (15, GET /api/get)  --budget-list-p50 MS (20, the entry and search calls)
//          --server-pid PID (found from the listening port when the server runs on this machine)
// Scenarios: (a) api-get: GET /api/get, Bearer tokens rotating over the bench sessions;
// (b) login: POST /login rotating over bench users' e-mails (argon2id verify on every request);
// (c) mixed: (a) and (b) at the same time, each with its own connections, to see whether slow logins
// starve the cheap requests;
// (d) entries-user: GET /api/entry (default page) rotating over the busiest clients (tokens.json `heavy`);
// (e) entries-operator: GET /api/entry as the bench operator, filters rotating: service_id=<one of
//     the 200 busiest services>, status=1&type=<1..12>, number=<the first 9-12 characters of a number>;
// (f) search: POST /api/service/search {keywords} with 1-2 title words (lib/search-words.ts), as clients.
// Manager area (issue 10), run with --scenario manager (or a comma list of keys, or entry-*, users-*,
// stats-*) and --connections 8: one scenario per filter of the operator's entry list and users list,
// and each dashboard statistic, as the bench operator (lib/manager-scenarios.ts); budget p95 < 50 ms.
// Results: a table on stdout, JSON in bench/results/load-*.json.
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from './lib/args.ts';
import { runScenario, type Scenario, type ScenarioResult } from './lib/cannon.ts';
import { CpuMeter, findListeningPid } from './lib/cpu.ts';
import { openPool } from './lib/db.ts';
import { printTable, writeResult } from './lib/results.ts';
import { expandManager, MANAGER_KEYS, managerScenarios, requestPath, type ManagerScenario } from './lib/manager-scenarios.ts';
import { searchQueries, type SearchQuery } from './lib/search-words.ts';
import { BENCH_NOTE, BENCH_PASSWORD, readTokens } from './lib/sessions.ts';
import { Random } from './lib/random.ts';

const args = parseArgs();
const baseUrl = args.string('base-url', process.env.BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const duration = args.number('duration', 20);
const connections = args.number('connections', 50);
const ALL = ['api-get', 'login', 'mixed', 'entries-user', 'entries-operator', 'search'];
const KNOWN: string[] = [...ALL, ...MANAGER_KEYS];
const whichArg = args.string('scenario', 'all');
const which = new Set(whichArg === 'all' ? ALL : expandManager(whichArg.split(',')));
for (const w of which) if (!KNOWN.includes(w)) throw new Error(`Unknown scenario ${w}: ${KNOWN.join(', ')} (manager = all manager-area ones)`);
const managerWanted = MANAGER_KEYS.filter((k) => which.has(k));
const budgetManagerP95 = args.number('budget-manager-p95', 50);
const warmup = args.number('warmup', 3);
const budgetP50 = args.number('budget-p50', 15);
const budgetListP50 = args.number('budget-list-p50', 20);
const loginUsers = args.number('login-users', 5000);

const port = Number(new URL(baseUrl).port || 80);
const serverPid = args.has('server-pid') ? args.number('server-pid', 0) : findListeningPid(port);
const dbName = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL).pathname.slice(1) : 'edu_bench';
const meter = new CpuMeter(serverPid, dbName);

const tokenFile = readTokens();
const tokens = tokenFile.sessions.map((s) => s.token);
const emails = which.has('login') || which.has('mixed') ? await loadEmails(loginUsers) : [];
const needsData = which.has('entries-user') || which.has('entries-operator') || which.has('search') || managerWanted.length > 0;
if (needsData && !process.env.DATABASE_URL) throw new Error('Set DATABASE_URL: the entry and search scenarios read their parameters from the database.');
if ((which.has('entries-user') || which.has('entries-operator') || managerWanted.length > 0) && (!tokenFile.heavy?.length || !tokenFile.operator)) {
  throw new Error('tokens.json has no heavy/operator sessions: run generate.ts with --entries.');
}
const { filters, queries } = needsData ? await loadParameters() : { filters: [] as string[], queries: [] as SearchQuery[] };
const managerList: ManagerScenario[] = managerWanted.length > 0 ? await loadManager() : [];

async function loadManager(): Promise<ManagerScenario[]> {
  const pool = openPool(1);
  try {
    return await managerScenarios(pool, new Set(managerWanted));
  } finally {
    await pool.end();
  }
}

/** Operator filters (service_id, status+type, number prefix, in turn) and search keywords. */
async function loadParameters(): Promise<{ filters: string[]; queries: SearchQuery[] }> {
  const pool = openPool(1);
  try {
    const r = new Random(20_251_122);
    const { rows: services } = await pool.query<{ id: number }>(
      'select service_id as id from entries where deleted_at is null group by service_id order by count(*) desc limit 200',
    );
    const { rows: numbers } = await pool.query<{ number: string }>('select number from entries tablesample system (1) repeatable (7) limit 300');
    const filters: string[] = [];
    for (let i = 0; i < 300; i++) {
      filters.push(`service_id=${r.pick(services).id}`);
      filters.push(`status=1&type=${r.int(1, 12)}`);
      filters.push(`number=${encodeURIComponent(r.pick(numbers).number.slice(0, r.int(9, 12)))}`);
    }
    return { filters, queries: await searchQueries(pool) };
  } finally {
    await pool.end();
  }
}

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
const nextHeavy = rotating((tokenFile.heavy ?? []).map((h) => h.token));
const nextFilter = rotating(filters);
const nextQuery = rotating(queries);
const operatorToken = tokenFile.operator?.token ?? '';
const apiGet = (name: string, seconds = duration): Scenario => ({
  key: 'api-get',
  name,
  method: 'GET',
  path: '/api/get',
  connections,
  duration: seconds,
  next: () => ({ headers: { authorization: `Bearer ${nextToken()}` } }),
});
const login = (name: string): Scenario => ({
  key: 'login',
  name,
  method: 'POST',
  path: '/login',
  connections,
  duration,
  next: () => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: nextEmail(), password: BENCH_PASSWORD }) }),
});

const entriesUser: Scenario = {
  key: 'entries-user',
  name: 'd. GET /api/entry as a busy client',
  method: 'GET',
  path: '/api/entry',
  connections,
  duration,
  next: () => ({ headers: { authorization: `Bearer ${nextHeavy()}` } }),
};
const entriesOperator: Scenario = {
  key: 'entries-operator',
  name: 'e. GET /api/entry?<filter> as operator',
  method: 'GET',
  path: '/api/entry?<filter>',
  connections,
  duration,
  next: () => ({ path: `/api/entry?${nextFilter()}`, headers: { authorization: `Bearer ${operatorToken}` } }),
};
const search: Scenario = {
  key: 'search',
  name: 'f. POST /api/service/search',
  method: 'POST',
  path: '/api/service/search',
  connections,
  duration,
  next: () => ({
    headers: { authorization: `Bearer ${nextToken()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ keywords: nextQuery().keywords }),
  }),
};

/** One manager-area scenario: its filter's values in turn, as the bench operator. */
function managerScenario(m: ManagerScenario): Scenario {
  const paths = m.values.map((v) => requestPath(m, v));
  const nextPath = rotating(paths);
  return {
    key: m.key,
    name: `${m.key}: ${m.name}`,
    method: 'GET',
    path: paths[0],
    connections,
    duration,
    next: () => ({ path: nextPath(), headers: { authorization: `Bearer ${operatorToken}` } }),
  };
}
const managerScenarioList = managerList.map(managerScenario);

/** Fails early, with a reason, when the server or the data is not what the scenarios expect. */
async function preflight(): Promise<void> {
  const health = await fetch(`${baseUrl}/api/health`).catch((err: Error) => {
    throw new Error(`No server at ${baseUrl} (${err.message}). Start it first: see bench/README.md.`);
  });
  if (!health.ok) throw new Error(`${baseUrl}/api/health answered ${health.status}`);
  const me = await fetch(`${baseUrl}/api/get`, { headers: { authorization: `Bearer ${tokens[0]}` } });
  if (me.status !== 200) throw new Error(`GET /api/get with a bench token answered ${me.status}: is the server using the bench database?`);
  if (emails.length > 0) {
    const res = await fetch(`${baseUrl}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: emails[0], password: BENCH_PASSWORD }),
    });
    if (res.status !== 200) throw new Error(`POST /login as ${emails[0]} answered ${res.status}: ${await res.text()}`);
  }
  for (const s of [entriesUser, entriesOperator, search, ...managerScenarioList].filter((x) => which.has(x.key))) {
    const req = s.next();
    const res = await fetch(`${baseUrl}${req.path ?? s.path}`, { method: s.method, headers: req.headers, body: req.body });
    if (res.status !== 200) throw new Error(`${s.name} answered ${res.status}: ${await res.text()}`);
  }
}

function log(r: ScenarioResult) {
  const l = r.latency_ms;
  console.log(`  ${r.scenario}: ${r.rps} req/s, p50 ${l.p50} ms, p95 ${l.p95} ms, p99 ${l.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`);
}

/**
 * Waits until the database has no active query of the server: requests still running when a slow
 * scenario ends would otherwise eat into the next one (autocannon stops waiting, the server does not).
 */
async function waitForIdle(maxSeconds = 120): Promise<void> {
  if (!process.env.DATABASE_URL) return sleep(2000).then(() => undefined);
  const pool = openPool(1);
  try {
    const started = Date.now();
    for (;;) {
      const { rows } = await pool.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
      );
      if (rows[0].n === 0) return;
      if (Date.now() - started > maxSeconds * 1000) {
        console.warn(`  the database is still busy after ${maxSeconds} s; going on`);
        return;
      }
      await sleep(500);
    }
  } finally {
    await pool.end();
  }
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
console.log(
  `Target ${baseUrl}; ${tokens.length} sessions, ${tokenFile.heavy?.length ?? 0} busy clients, ${emails.length} login e-mails, ` +
    `${filters.length} operator filters, ${queries.length} search queries; ${connections} connections, ${duration} s per scenario.`,
);
console.log(
  serverPid ? `CPU accounting: server pid ${serverPid}, backends of database ${dbName}.` : 'CPU accounting: server process not found (pass --server-pid).',
);
const results: ScenarioResult[] = [];

const steps: Array<[string, () => Scenario[]]> = [
  ['api-get', () => [apiGet('a. GET /api/get')]],
  ['login', () => [login('b. POST /login')]],
  ['mixed', () => [apiGet('c. GET /api/get during logins'), login('c. POST /login during GETs')]],
  ['entries-user', () => [entriesUser]],
  ['entries-operator', () => [entriesOperator]],
  ['search', () => [search]],
  ...managerScenarioList.map((m): [string, () => Scenario[]] => [m.key, () => [m]]),
];
for (const [key, make] of steps.filter(([k]) => which.has(k))) {
  if (results.length > 0) await sleep(2000);
  if (warmup > 0) {
    // Each scenario first runs alone for a few seconds, unrecorded: connections, caches, JIT.
    console.log(`${key}: warm-up ${warmup} s (not recorded)`);
    await runScenario(baseUrl, { ...make()[0], name: 'warm-up', duration: warmup });
    await waitForIdle();
  }
  const out = await measured(...make());
  if (key === 'mixed') out[0].key = 'api-get-during-login';
  results.push(...out);
  await waitForIdle();
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

const summary: Record<string, unknown> = {};
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

for (const r of results.filter((x) => ['entries-user', 'entries-operator', 'search'].includes(x.key))) {
  const ok = r.responses > 0 && r.latency_ms.p50 < budgetListP50;
  summary[`${r.key}_p50_ok`] = ok;
  console.log(`Budget: ${r.scenario} p50 ${r.latency_ms.p50} ms, budget < ${budgetListP50} ms: ${ok ? 'PASS' : 'FAIL'}`);
}
for (const r of results.filter((x) => (MANAGER_KEYS as readonly string[]).includes(x.key))) {
  const ok = r.responses > 0 && r.non2xx === 0 && r.latency_ms.p95 < budgetManagerP95;
  summary[`${r.key}_p95_ok`] = ok;
  console.log(`Budget: ${r.key} at ${r.connections} connections: p95 ${r.latency_ms.p95} ms, budget < ${budgetManagerP95} ms: ${ok ? 'PASS' : 'FAIL'}`);
}
const alone = results.find((r) => r.scenario.startsWith('a.'));
const during = results.find((r) => r.scenario === 'c. GET /api/get during logins');
if (alone) {
  summary.api_get_p50_budget_ms = budgetP50;
  summary.api_get_p50_ok = alone.latency_ms.p50 < budgetP50;
  console.log(
    `\nBudget: GET /api/get p50 at ${connections} connections ${alone.latency_ms.p50} ms, budget < ${budgetP50} ms: ${alone.latency_ms.p50 < budgetP50 ? 'PASS' : 'FAIL'}`,
  );
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

const file = writeResult('load', {
  base_url: baseUrl,
  server_pid: serverPid,
  database: dbName,
  started_at: new Date().toISOString(),
  connections,
  duration_s: duration,
  summary,
  results,
});
console.log(`\nJSON: ${file}`);
