// Captures the SQL the server really sends for the benchmarked calls, from PostgreSQL's own log.
// Usage (from the repo root, as a user who can read the PostgreSQL log, against a generated database):
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/edu_bench npx tsx bench/src/capture-sql.ts
// Options: --port N (8091)  --log-file PATH (/var/log/postgresql/postgresql-15-main.log)
//          --probes all | a comma list of probe names (`manager` = the manager-area ones, issue 10)
//
// How: `ALTER DATABASE <db> SET log_statement = 'all'` (only sessions opened afterwards log), then a
// private server from the working tree on --port (so all its connections are new; jobs off), one
// request per probe, each probe's statements read back from the log, then the server stopped and
// the setting reset (also on failure or Ctrl-C). A server already running on another port keeps its
// connections, so it does not flood the log. pgbench.ts turns the result into pgbench scripts.
// Output: bench/results/captured-sql.json.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from './lib/args.ts';
import { databaseUrl, openPool } from './lib/db.ts';
import { DEFAULT_PG_LOG, logSize, readStatements } from './lib/pg-log.ts';
import { readCaptured, type CapturedProbe, type CapturedSql } from './lib/pgbench-scripts.ts';
import { resultsPath } from './lib/results.ts';
import { searchQueries } from './lib/search-words.ts';
import { hashToken, readTokens } from './lib/sessions.ts';
import { expandManager, managerScenarios, probePair, requestPath } from './lib/manager-scenarios.ts';

const args = parseArgs();
const port = args.number('port', 8091);
const logFile = args.string('log-file', DEFAULT_PG_LOG);
// --probes: a comma list of probe names, `manager` (every manager-area probe) or `all` (default).
const probeArg = args.string('probes', 'all');
const probeFilter = probeArg === 'all' ? null : new Set(expandManager(probeArg.split(',')));
const base = `http://127.0.0.1:${port}`;
const dbName = new URL(databaseUrl()).pathname.slice(1);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

fs.accessSync(logFile, fs.constants.R_OK);
const tokens = readTokens();
if (!tokens.heavy?.length || !tokens.operator) throw new Error('tokens.json has no heavy/operator sessions: run generate.ts with --entries first.');
const pool = openPool(1);
const heavy = tokens.heavy[Math.floor(tokens.heavy.length / 2)];
const client = tokens.sessions[Math.floor(tokens.sessions.length / 2)];
const [oneWord] = (await searchQueries(pool, 50)).filter((q) => q.words.length === 1);
const [twoWords] = (await searchQueries(pool, 50)).filter((q) => q.words.length === 2);
const { rows: popular } = await pool.query<{ id: number }>(
  'select service_id as id from entries where deleted_at is null group by service_id order by count(*) desc limit 1',
);
const { rows: someNumber } = await pool.query<{ number: string }>('select number from entries order by id desc offset 1000 limit 1');

type Request = CapturedProbe['request'];
const probes: Array<[string, Request, Record<string, string>, { request: Request; known: Record<string, string> }?]> = [
  ['api-get', { method: 'GET', path: '/api/get', token: client.token }, { uid: String(client.user_id), th: hashToken(client.token) }],
  ['entries-user', { method: 'GET', path: '/api/entry', token: heavy.token }, { uid: String(heavy.user_id), th: hashToken(heavy.token) }],
  [
    'entries-operator-service',
    { method: 'GET', path: `/api/entry?service_id=${popular[0].id}`, token: tokens.operator.token },
    { th: hashToken(tokens.operator.token) },
  ],
  [
    'entries-operator-status-type',
    { method: 'GET', path: '/api/entry?status=1&type=2', token: tokens.operator.token },
    { th: hashToken(tokens.operator.token) },
  ],
  [
    'entries-operator-number',
    { method: 'GET', path: `/api/entry?number=${someNumber[0].number.slice(0, 9)}`, token: tokens.operator.token },
    { th: hashToken(tokens.operator.token) },
  ],
  [
    'search-1',
    { method: 'POST', path: '/api/service/search', body: { keywords: oneWord.keywords }, token: client.token },
    { uid: String(client.user_id), th: hashToken(client.token), w1: `%${oneWord.words[0]}%` },
  ],
  [
    'search-2',
    { method: 'POST', path: '/api/service/search', body: { keywords: twoWords.keywords }, token: client.token },
    { uid: String(client.user_id), th: hashToken(client.token), w1: `%${twoWords.words[0]}%`, w2: `%${twoWords.words[1]}%` },
  ],
];

// The manager area (issue 10): one probe per filter, as the operator, with a value the pgbench
// script can map back to its variable (lib/manager-scenarios.ts).
for (const m of await managerScenarios(pool)) {
  const [v, alt] = probePair(m);
  const th = hashToken(tokens.operator.token);
  const request = (x: typeof v): Request => ({ method: 'GET', path: requestPath(m, x), token: tokens.operator!.token });
  probes.push([m.key, request(v), { th, ...v.vars }, alt ? { request: request(alt), known: { th, ...alt.vars } } : undefined]);
}
if (probeFilter) {
  for (const k of probeFilter) if (!probes.some(([name]) => name === k)) throw new Error(`Unknown probe ${k}: ${probes.map(([n]) => n).join(', ')}`);
  probes.splice(0, probes.length, ...probes.filter(([name]) => probeFilter.has(name)));
}

let server: ChildProcess | null = null;
const stopServer = async () => {
  if (!server?.pid || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server!.once('exit', resolve));
  process.kill(-server.pid, 'SIGTERM'); // its own process group: tsx and node
  await Promise.race([exited, sleep(5000)]);
};
const resetSetting = () => pool.query(`alter database "${dbName}" reset log_statement`);
process.once('SIGINT', () => {
  void stopServer()
    .then(resetSetting)
    .finally(() => process.exit(130));
});

// With --probes, the probes captured before and not asked for now are kept.
const previous = probeFilter ? readCaptured() : null;
const out: CapturedSql = { captured_at: new Date().toISOString(), database: dbName, probes: previous?.database === dbName ? { ...previous.probes } : {} };
try {
  await pool.query(`alter database "${dbName}" set log_statement = 'all'`);
  const serverLog = fs.openSync(resultsPath('capture-server.log'), 'w');
  server = spawn(path.join(repoRoot, 'node_modules/.bin/tsx'), ['src/main.ts'], {
    cwd: path.join(repoRoot, 'server'),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', APP_URL: base, JOBS_INTERVAL_MS: '0', DATA_DIR: '/tmp/edu-bench-capture', LOG_LEVEL: 'warn' },
    detached: true,
    stdio: ['ignore', serverLog, serverLog],
  });
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error(`the capture server exited (${server.exitCode}): see bench/results/capture-server.log`);
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 120) throw new Error('the capture server did not start in 60 s');
    await sleep(500);
  }
  // Warm-up: the first request of a connection also sets up prepared statements; capture the steady state.
  for (const [, req, , alt] of probes) {
    await send(req);
    if (alt) await send(alt.request);
  }
  await sleep(300);

  const capture = async (req: Request) => {
    const offset = logSize(logFile);
    const status = await send(req);
    await sleep(300); // the log is written by the backends; give it a moment
    return { status, statements: readStatements(logFile, offset, dbName) };
  };
  for (const [name, req, known, alt] of probes) {
    const { status, statements } = await capture(req);
    out.probes[name] = { request: req, known, status, statements };
    const reads = statements.filter((s) => /^\s*(select|with)\b/i.test(s.sql)).length;
    console.log(`${name}: ${req.method} ${req.path} -> ${status}; ${statements.length} statements (${reads} reads)`);
    if (alt) {
      // The same call with another value: tells the filter's parameters from the query's constants.
      out.probes[name].alt = { request: alt.request, known: alt.known, ...(await capture(alt.request)) };
      console.log(`  and ${alt.request.path} -> ${out.probes[name].alt!.status}`);
    }
  }
} finally {
  await stopServer();
  await resetSetting();
  await pool.end();
}

const file = resultsPath('captured-sql.json');
fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
console.log(`log_statement reset; JSON: ${file}`);

async function send(req: CapturedProbe['request']): Promise<number> {
  const res = await fetch(`${base}${req.path}`, {
    method: req.method,
    headers: { authorization: `Bearer ${req.token}`, ...(req.body ? { 'content-type': 'application/json' } : {}) },
    body: req.body ? JSON.stringify(req.body) : undefined,
  });
  await res.arrayBuffer();
  return res.status;
}
