// Same-machine A/B of the hot path: an older commit against this tree, the same data and this
// tree's load script, bracketed old-new-old so the machine's drift shows instead of hiding in the
// ratio. Each side runs alone (one server at a time), started from its own checkout.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/src/ab.ts --old e7e96bc
//
// Options: --old REF (required)  --new REF (default: this working tree, uncommitted changes included)
//          --scenario LIST (api-get,entries-user)  --duration S (15)  --connections N (50)
//          --rounds N (1: old-new-old; 2: old-new-old-new-old)  --port P (8095)
//          --users N (100000) --services N (20000) --entries N (1000000): the data of each side
// Each side has its own database on DATABASE_URL's server, `edu_ab_<commit>` (`edu_ab_work` for the
// working tree), made by that side's own server (migrations, seed) and filled by that side's own
// generate.ts with the same sizes: a schema changes between commits, so one database cannot serve
// both. Made once and reused (drop it to remake it); about 4 minutes each on 2 cores.
// An older commit's checkout is made once under /tmp/edu-ab/<sha> (git worktree, npm ci) and reused.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from './lib/args.ts';
import { printTable, readLatest, writeResult } from './lib/results.ts';

const args = parseArgs();
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const oldRef = args.string('old', '');
if (!oldRef) throw new Error('Give --old <commit> (for example e7e96bc).');
const newRef = args.string('new', '');
const scenarios = args.string('scenario', 'api-get,entries-user');
const duration = args.number('duration', 15);
const connections = args.number('connections', 50);
const rounds = args.number('rounds', 1);
const port = args.number('port', 8095);
const sizes = [
  '--users',
  String(args.number('users', 100_000)),
  '--services',
  String(args.number('services', 20_000)),
  '--entries',
  String(args.number('entries', 1_000_000)),
];
if (!process.env.DATABASE_URL) throw new Error('Set DATABASE_URL to a database on the bench PostgreSQL server (the sides get their own).');
const serverUrl = new URL(process.env.DATABASE_URL);
const urlOf = (db: string) => Object.assign(new URL(serverUrl), { pathname: `/${db}` }).toString();

const git = (...a: string[]) => execFileSync('git', ['-C', repo, ...a], { encoding: 'utf8' }).trim();

/** A checkout of `ref` with its dependencies installed (made once, reused). */
function checkout(ref: string): { dir: string; sha: string } {
  const sha = git('rev-parse', '--short=10', `${ref}^{commit}`);
  const dir = path.join('/tmp/edu-ab', sha);
  if (!fs.existsSync(path.join(dir, 'package.json'))) {
    fs.mkdirSync('/tmp/edu-ab', { recursive: true });
    git('worktree', 'add', '--detach', dir, sha);
  }
  if (!fs.existsSync(path.join(dir, 'node_modules'))) {
    console.log(`npm ci in ${dir} ...`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  }
  return { dir, sha };
}

interface Side {
  dir: string;
  sha: string;
  db: string;
}

async function startServer(side: Side): Promise<ChildProcess> {
  const dir = side.dir;
  // As in production: no answer-shape checks (development runs them), no demo seeding; payments
  // are not part of the scenarios, so the production server runs without a shop (PAYMENTS=off).
  const child = spawn('npx', ['tsx', 'server/src/main.ts'], {
    cwd: dir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PAYMENTS: 'off',
      DATABASE_URL: urlOf(side.db),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: `/tmp/edu-ab-data-${port}`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`The server in ${dir} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`The server in ${dir} did not answer /api/health in 120 s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function stopServer(child: ChildProcess) {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // gone already
  }
  await new Promise((r) => setTimeout(r, 2000));
}

interface LoadResult {
  key: string;
  rps: number;
  latency_ms: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  cpu?: { server_ms_per_req: number; db_ms_per_req: number };
}

const psql = (sqlText: string, db = 'postgres') => execFileSync('psql', [urlOf(db), '-tAc', sqlText], { encoding: 'utf8' }).trim();
const tokensOf = (side: Side) => path.join(side.dir, 'bench/results/tokens.json');

/** The machine's busy and total CPU ticks (/proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
}

/**
 * Waits until the machine is quiet after a server start (3 seconds in a row under 15 % busy, at
 * most 90 s): a server that warms its LibreOffice converters at start must not measure its own
 * warm-up against an older one that had none.
 */
async function settle() {
  const deadline = Date.now() + 90_000;
  let quiet = 0;
  while (quiet < 3 && Date.now() < deadline) {
    const a = machineTicks();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const b = machineTicks();
    quiet = (b.busy - a.busy) / Math.max(1, b.total - a.total) < 0.15 ? quiet + 1 : 0;
  }
}

/** The side's database: made by its own server and filled by its own generator, once. */
async function prepare(side: Side) {
  const exists = psql(`select 1 from pg_database where datname = '${side.db}'`) === '1';
  if (exists && fs.existsSync(tokensOf(side))) return;
  console.log(`\n=== preparing ${side.db}: ${side.sha}'s server migrates and seeds it, its generate.ts fills it (${sizes.join(' ')})`);
  psql(`drop database if exists ${side.db}`);
  psql(`create database ${side.db}`);
  const server = await startServer(side);
  try {
    execFileSync('npx', ['tsx', 'bench/src/generate.ts', ...sizes], {
      cwd: side.dir,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DATABASE_URL: urlOf(side.db) },
    });
  } finally {
    await stopServer(server);
  }
}

/** One side: its server alone, this tree's load script with the side's sessions, the JSON it wrote. */
async function measure(label: string, side: Side): Promise<LoadResult[]> {
  console.log(`\n=== ${label} (${side.dir}, ${side.db})`);
  const server = await startServer(side);
  try {
    await settle();
    execFileSync(
      'npx',
      [
        'tsx',
        'bench/src/load.ts',
        '--base-url',
        `http://127.0.0.1:${port}`,
        '--scenario',
        scenarios,
        '--duration',
        String(duration),
        '--connections',
        String(connections),
      ],
      {
        cwd: repo,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, DATABASE_URL: urlOf(side.db), BENCH_TOKENS: tokensOf(side) },
      },
    );
  } finally {
    await stopServer(server);
  }
  return readLatest<{ results: LoadResult[] }>('load')!.results;
}

const oldCheckout = checkout(oldRef);
const old: Side = { ...oldCheckout, db: `edu_ab_${oldCheckout.sha}` };
const fresh: Side = newRef
  ? { ...checkout(newRef), db: '' }
  : { dir: repo, sha: `${git('rev-parse', '--short=10', 'HEAD')}${git('status', '--porcelain') ? '+' : ''}`, db: 'edu_ab_work' };
if (!fresh.db) fresh.db = `edu_ab_${fresh.sha}`;
await prepare(old);
await prepare(fresh);
const order: Array<{ side: 'old' | 'new'; n: number }> = [{ side: 'old', n: 1 }];
for (let r = 1; r <= rounds; r++) order.push({ side: 'new', n: r }, { side: 'old', n: r + 1 });

const runs: Array<{ side: 'old' | 'new'; n: number; results: LoadResult[] }> = [];
for (const o of order) {
  const s = o.side === 'old' ? old : fresh;
  runs.push({ ...o, results: await measure(`${o.side} #${o.n} ${s.sha}`, s) });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const keys = runs[0].results.map((r) => r.key);
const rows: Array<Array<string | number>> = [];
const summary: Array<Record<string, unknown>> = [];
for (const key of keys) {
  const of = (side: 'old' | 'new') => runs.filter((r) => r.side === side).map((r) => r.results.find((x) => x.key === key)!);
  for (const r of runs) {
    const x = r.results.find((y) => y.key === key)!;
    rows.push([
      key,
      `${r.side} #${r.n}`,
      r.side === 'old' ? old.sha : fresh.sha,
      x.rps.toFixed(0),
      x.latency_ms.p50.toFixed(1),
      x.latency_ms.p99.toFixed(1),
      x.cpu?.server_ms_per_req ?? '',
      x.cpu?.db_ms_per_req ?? '',
      x.non2xx + x.errors,
    ]);
  }
  const oldRps = median(of('old').map((x) => x.rps));
  const newRps = median(of('new').map((x) => x.rps));
  summary.push({
    key,
    old_rps: oldRps,
    new_rps: newRps,
    ratio: Math.round((newRps / oldRps) * 100) / 100,
    old_p50: median(of('old').map((x) => x.latency_ms.p50)),
    new_p50: median(of('new').map((x) => x.latency_ms.p50)),
  });
}
console.log(`\nA/B at ${connections} connections, ${duration} s per scenario, one server at a time:`);
printTable(['scenario', 'run', 'commit', 'req/s', 'p50 ms', 'p99 ms', 'server ms/req', 'db ms/req', 'failed'], rows);
console.log('');
printTable(
  ['scenario', 'old req/s (median)', 'new req/s (median)', 'new ÷ old', 'old p50', 'new p50'],
  summary.map((s) => [
    String(s.key),
    Number(s.old_rps).toFixed(0),
    Number(s.new_rps).toFixed(0),
    String(s.ratio),
    Number(s.old_p50).toFixed(1),
    Number(s.new_p50).toFixed(1),
  ]),
);
console.log(`JSON: ${writeResult('ab', { old: old.sha, new: fresh.sha, connections, duration_s: duration, runs, summary })}`);
