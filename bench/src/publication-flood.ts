// Publication flood bench (issue 29): what long publication texts cost everyone else.
//   npx tsx bench/src/publication-flood.ts [--port 8291] [--seconds 60] [--chars 480000] [--checks 5] [--label run]
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<name> …  a fresh database <name> on that server
//   (dropped and created); without it the embedded PGlite in a fresh DATA_DIR in /tmp.
//   BENCH_SERVER_NODE_ARGS='--trace-gc' …  Node's flags for the server; BENCH_SERVER_OUT=<file>  its stdout.
// It starts the server itself as `npm start -w server` does (tsx server/src/main.ts, the job runner
// every 500 ms, the demo seed, no office converters) in its own process, so the clients' work (making
// 480 000-character texts) does not share the server's event loop, and stops it at the end.
// Accounts are registered through /register; each makes its publications through POST /api/publication.
// Phases, each sampled by GET /api/health every 50 ms (fired on time, not after the previous answer)
// and other users' short saves ("the victim": PUT /api/publication/{id}, a ~4 000-character text,
// one every `--victim-ms` (500), round-robin over `--victims` (3) accounts of five publications each,
// so that no account's own limits are what is measured: a user may have five checks waiting and save
// one publication ten times a minute while its check waits); the first save of a phase is sent
// together with the phase's big saves, and is also given alone as "first", the others' p95 beside it:
//   idle     `--idle` seconds, nothing else;
//   flood    one account's `--seconds` loop of PUT saves of a `--chars` text (random Russian words, a
//            new one after every accepted save; a refused one is sent again), one after another;
//   checks   `--checks` accounts each save a new `--chars` text at once; until their checks are stored
//            (`--rounds` times, on new publications);
//   degenerate  two accounts save «а а а …» (`--chars`) at once; until both checks are stored.
// Prints p50/p95/p99/max of health and of the victim's save per phase and the ratios to idle; JSON in
// bench/results/publication-flood-<label>-*.json.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { waitFor } from './lib/wait-for.ts';
import { parseArgs } from './lib/args.ts';
import { printTable, writeResult } from './lib/results.ts';
import { degenerateHtml, russianHtml } from './lib/russian-text.ts';

const args = parseArgs();
const port = args.number('port', 8291);
const seconds = args.number('seconds', 60);
const idleSeconds = args.number('idle', 15);
const chars = args.number('chars', 480_000);
const checks = args.number('checks', 5);
/** How many times the checks phase runs, each on new publications. */
const rounds = args.number('rounds', 1);
/** The victim's cadence: enough saves in each phase for its p95 to be more than its slowest one. */
const victimMs = args.number('victim-ms', 500);
const victimAccounts = args.number('victims', 3);
const label = args.string('label', 'run');
/** A folder for a CPU profile of the server (node --cpu-prof), written when it stops. */
const profileDir = args.string('profile', '');
/** Prints the checks phase's saves and events in order (a slow save beside what happened then). */
const showTimeline = args.flag('timeline');
/**
 * How often a waiting publication's check state is read (GET /api/publication/{id}/uniqueness-state):
 * the cabinet's own interval while a check waits or runs (CHECK_POLL_MS in web/), unless told.
 */
const pollMs = args.number('poll-ms', 3000);
const base = `http://127.0.0.1:${port}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').trim();

async function freshDatabase(): Promise<string | undefined> {
  const url = process.env.DATABASE_URL;
  if (!url) return undefined;
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  return url;
}

interface Account {
  token: string;
  h: Record<string, string>;
}

let accountSeq = 0;
async function register(last: string): Promise<Account> {
  const email = `flood-${process.pid}-${++accountSeq}@bench.local`;
  const res = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({
      data: {
        type: 'token',
        attributes: {
          last_name: last,
          first_name: 'Анна',
          middle_name: 'Сергеевна',
          phone: `+7 (912) 345-${String(10 + (accountSeq % 90)).padStart(2, '0')}-${String(process.pid % 100).padStart(2, '0')}`,
          email,
          organization: 'МБОУ СОШ № 5',
          job_title: 'Учитель',
          password: 'parol123',
          password_confirmation: 'parol123',
          agree: true,
          consent: true,
        },
      },
    }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  const { access_token } = (await res.json()) as { access_token: string };
  return { token: access_token, h: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' } };
}

/** A journal publication (subtype 4: no limit on the text's length, a file required: a tiny PDF), multipart as the form sends it. */
async function createPublication(a: Account, text: string, title: string): Promise<number> {
  const form = new FormData();
  const fields = { dict_subtype_id: '4', release_id: String(journalRelease), title, text, dict_category_id: '2', authors_num: '1' };
  for (const [k, val] of Object.entries(fields)) form.append(k, val);
  form.append('file', new Blob([MINIMAL_PDF], { type: 'application/pdf' }), 'statya.pdf');
  const res = await fetch(`${base}/api/publication`, { method: 'POST', headers: { authorization: a.h.authorization }, body: form });
  if (res.status !== 200) throw new Error(`create: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

const MINIMAL_PDF =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';
let journalRelease = 0;

/** An open release of the journal subtype (4), as the form lists them. */
async function findJournalRelease(a: Account): Promise<number> {
  const res = await fetch(`${base}/api/publication-release?dict_service_subtype_id=4`, { headers: a.h });
  const body = (await res.json()) as { data: Array<{ id: number; dict_service_subtype_id: number | null; is_hidden: boolean }> };
  const r = body.data.find((x) => x.dict_service_subtype_id === 4 && !x.is_hidden);
  if (!r) throw new Error(`no open journal release: ${JSON.stringify(body).slice(0, 300)}`);
  return r.id;
}

/**
 * The last body sent, by its text: a refused save is sent again as it was, already encoded. The server
 * sees the same bytes; the bench does not spend the shared CPU on serialising, checking and encoding
 * 480 000 characters again for every attempt (a string body cost undici about 5 ms of its own each,
 * at 80 attempts a second most of the bench's CPU, on the cores the server has).
 */
let lastBody: { text: string; body: Uint8Array } | null = null;
function saveBody(text: string): Uint8Array {
  if (lastBody?.text !== text) lastBody = { text, body: encodeSave(text) };
  return lastBody.body;
}
const encodeSave = (text: string) =>
  new TextEncoder().encode(JSON.stringify({ title: 'Статья', text, dict_category_id: 2, release_id: journalRelease, authors_num: 1 }));

/** Events of the running phase (big saves answered, polls), ms from its start: `--timeline` prints them beside the slow saves. */
let phaseStart = 0;
let marks: Array<[number, string]> = [];
const mark = (what: string) => marks.push([Math.round(performance.now() - phaseStart), what]);

/** A save of `text`, or of a body encoded before the phase (encodeSave), so that making it is not part of what a phase measures. */
async function save(a: Account, id: number, text: string | Uint8Array): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const body = typeof text === 'string' ? saveBody(text) : text;
  const res = await fetch(`${base}/api/publication/${id}`, { method: 'PUT', headers: a.h, body });
  await res.arrayBuffer();
  if (body.length > 100_000) mark(`big save ${id} answered ${res.status}`);
  return { status: res.status, ms: performance.now() - t0 };
}

/**
 * What the cabinet reads while a check waits or runs: the check's state (GET …/uniqueness-state, no
 * text); once it is done, the whole publication once (its percent and matches).
 */
async function checkState(a: Account, id: number): Promise<string | null> {
  mark(`poll ${id}`);
  const res = await fetch(`${base}/api/publication/${id}/uniqueness-state`, { headers: a.h });
  const state = ((await res.json()) as { data: { uniqueness_state: string | null } }).data.uniqueness_state;
  mark(`poll ${id} answered ${state}`);
  if (state === null) {
    await (await fetch(`${base}/api/publication/${id}`, { headers: a.h })).arrayBuffer();
    mark(`publication ${id} read`);
  }
  return state;
}

async function untilChecked(pubs: Array<{ a: Account; id: number }>, maxMs: number): Promise<number> {
  const t0 = performance.now();
  // A publication whose check is done is not polled again.
  let waiting = pubs;
  while (performance.now() - t0 < maxMs) {
    const states = await Promise.all(waiting.map((p) => checkState(p.a, p.id)));
    waiting = waiting.filter((_, k) => states[k] !== null);
    if (waiting.length === 0) return performance.now() - t0;
    await sleep(pollMs);
  }
  return NaN;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
function summary(list: number[]) {
  const s = [...list].sort((a, b) => a - b);
  const r = (x: number | undefined) => (x === undefined ? NaN : Math.round(x));
  return { n: s.length, p50: r(percentile(s, 50)), p95: r(percentile(s, 95)), p99: r(percentile(s, 99)), max: r(s[s.length - 1]) };
}
type Summary = ReturnType<typeof summary>;

/** Samples health every 50 ms and the victim's saves until `work` settles. */
async function sampled(victim: Array<{ a: Account; id: number }>, work: () => Promise<unknown>) {
  const health: number[] = [];
  const victimTimes: number[] = [];
  /** Each accepted save's start, ms from the phase's start, beside its time (the slow ones, printed with --timeline). */
  const victimStarts: number[] = [];
  const victimStatus: Record<string, number> = {};
  const pending: Promise<void>[] = [];
  let done = false;
  const healthTimer = setInterval(() => {
    const t0 = performance.now();
    pending.push(
      fetch(`${base}/api/health`)
        .then((r) => r.arrayBuffer())
        .then(() => void health.push(performance.now() - t0)),
    );
  }, 50);
  const t0 = performance.now();
  phaseStart = t0;
  marks = [];
  const victimLoop = (async () => {
    let k = 0;
    while (!done) {
      const started = performance.now();
      const { a, id } = victim[k % victim.length];
      const r = await save(a, id, russianHtml(4000, 1000 + k));
      k++;
      victimStatus[r.status] = (victimStatus[r.status] ?? 0) + 1;
      if (r.status === 200) {
        victimTimes.push(r.ms);
        victimStarts.push(started - t0);
      }
      await sleep(Math.max(0, victimMs - (performance.now() - started)));
    }
  })();
  const out = await work();
  const wall = performance.now() - t0;
  done = true;
  clearInterval(healthTimer);
  await victimLoop;
  await Promise.all(pending);
  return {
    out,
    wall_s: Math.round(wall / 100) / 10,
    health: summary(health),
    victim: summary(victimTimes),
    victim_first: Math.round(victimTimes[0] ?? NaN),
    /** The phase's saves after the one sent together with its big saves. */
    victim_rest: summary(victimTimes.slice(1)),
    victim_status: victimStatus,
    /** The accepted saves [start ms, ms] and the phase's other events [ms, what], in order. */
    timeline: { started_at: Math.round(performance.timeOrigin + t0), victim: victimStarts.map((s, k) => [Math.round(s), Math.round(victimTimes[k])]), marks },
  };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edu-bench-pubflood-'));
const databaseUrl = await freshDatabase();
const loadBefore = loadavg();
const startedAt = performance.now();
const server: ChildProcess = spawn(
  process.execPath,
  [
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : []),
    ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    '--import',
    'tsx',
    'server/src/main.ts',
  ],
  {
    env: {
      ...process.env,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '' }),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      JOBS_INTERVAL_MS: '500',
      LOG_LEVEL: 'warn',
      OFFICE_CONVERTERS: '0',
      REGISTER_LIMIT_PER_IP: '100',
    },
    stdio: ['ignore', process.env.BENCH_SERVER_OUT ? fs.openSync(process.env.BENCH_SERVER_OUT, 'w') : 'ignore', 'inherit'],
    detached: true,
  },
);
try {
  await waitFor(`${base}/api/health`, 180_000);
  const flooder = await register('Флудова');
  const victims = await Promise.all(Array.from({ length: victimAccounts }, (_, k) => register(`Другова${k}`)));
  journalRelease = await findJournalRelease(flooder);
  const checkers = await Promise.all(Array.from({ length: checks }, (_, k) => register(`Проверкина${k}`)));
  const flooderPub = await createPublication(flooder, russianHtml(chars, 1), 'Длинная статья');
  // Round-robin over the accounts first: consecutive saves come from different users.
  const v: Array<{ a: Account; id: number }> = [];
  for (let k = 0; k < 5; k++) {
    for (const [n, a] of victims.entries()) v.push({ a, id: await createPublication(a, russianHtml(4000, 500 + 10 * n + k), `Короткая статья ${k}`) });
  }
  const checkerPubs: number[] = [];
  for (const [k, c] of checkers.entries()) checkerPubs.push(await createPublication(c, russianHtml(4000, 700 + k), `Статья ${k}`));
  // The degenerate phase's own publications, checked long before it: a text just checked (as the
  // checks phase's are) waits up to a minute for its next check.
  const pair = checkers.slice(0, 2);
  const degeneratePubs: number[] = [];
  for (const [k, c] of pair.entries()) degeneratePubs.push(await createPublication(c, russianHtml(4000, 800 + k), `Ещё статья ${k}`));
  await untilChecked(
    [{ a: flooder, id: flooderPub }, ...v, ...checkerPubs.map((id, k) => ({ a: checkers[k], id })), ...degeneratePubs.map((id, k) => ({ a: pair[k], id }))],
    300_000,
  );
  // Warm: the victim's save path once on each publication, and their checks done before idle starts.
  for (const { a, id } of v) await save(a, id, russianHtml(4000, 999));
  await untilChecked(v, 300_000);

  const phases: Record<string, Awaited<ReturnType<typeof sampled>> & { extra?: unknown }> = {};
  if (profileDir) console.log(`idle from ${((performance.now() - startedAt) / 1000).toFixed(1)} s after the server's start`);
  phases.idle = await sampled(v, () => sleep(idleSeconds * 1000));

  let seq = 0;
  const floodStatus: Record<string, number> = {};
  if (profileDir) console.log(`flood from ${((performance.now() - startedAt) / 1000).toFixed(1)} s after the server's start`);
  phases.flood = await sampled(v, async () => {
    const until = performance.now() + seconds * 1000;
    const ms: number[] = [];
    // A new text after each accepted save. A refused save (429, answered before its body is read) is
    // sent again with the same text: the server sees the same bytes, and the bench does not spend
    // the machine's CPU making 480 000 characters the server never reads (about 13 ms each, 15-20
    // times a second, on the cores the server shares with it).
    let text = russianHtml(chars, 10_000 + ++seq);
    while (performance.now() < until) {
      const r = await save(flooder, flooderPub, text);
      if (r.status === 200) text = russianHtml(chars, 10_000 + ++seq);
      floodStatus[r.status] = (floodStatus[r.status] ?? 0) + 1;
      ms.push(r.ms);
    }
    return summary(ms);
  });
  phases.flood.extra = { saves: floodStatus };
  const drain = await untilChecked([{ a: flooder, id: flooderPub }], 300_000);

  if (profileDir) console.log(`checks from ${((performance.now() - startedAt) / 1000).toFixed(1)} s after the server's start`);
  // `--rounds` repeats the phase on new publications without a text, never checked (a text checked
  // seconds before waits up to a minute for its next check): one colliding save per round. The five
  // bodies are made before each round: 50-60 ms of the bench's own event loop, which would otherwise
  // delay the save sent together with them and be counted as the server's.
  for (let round = 1; round <= rounds; round++) {
    const pubs = round === 1 ? checkerPubs : await Promise.all(checkers.map((c, k) => createPublication(c, '', `Статья ${round}.${k}`)));
    if (round > 1)
      await untilChecked(
        pubs.map((id, k) => ({ a: checkers[k], id })),
        300_000,
      );
    const checkBodies = checkers.map((_, k) => encodeSave(russianHtml(chars, 20_000 + 10 * round + k)));
    phases[round === 1 ? 'checks' : `checks${round}`] = await sampled(v, async () => {
      const saved = await Promise.all(checkers.map((c, k) => save(c, pubs[k], checkBodies[k])));
      const ms = await untilChecked(
        pubs.map((id, k) => ({ a: checkers[k], id })),
        600_000,
      );
      return { saves: saved.map((s) => s.status), checked_s: Math.round(ms / 100) / 10 };
    });
  }

  if (profileDir) console.log(`degenerate from ${((performance.now() - startedAt) / 1000).toFixed(1)} s after the server's start`);
  const degenerateBody = encodeSave(degenerateHtml(chars));
  phases.degenerate = await sampled(v, async () => {
    const saved = await Promise.all(pair.map((c, k) => save(c, degeneratePubs[k], degenerateBody)));
    const ms = await untilChecked(
      pair.map((c, k) => ({ a: c, id: degeneratePubs[k] })),
      600_000,
    );
    return { saves: saved.map((s) => s.status), checked_s: Math.round(ms / 100) / 10 };
  });

  const idle = phases.idle;
  const ratio = (x: number, y: number) => Math.round((x / y) * 10) / 10;
  const table: (string | number)[][] = [];
  for (const [name, p] of Object.entries(phases)) {
    const f = (s: Summary) => `${s.p50} / ${s.p95} / ${s.p99} / ${s.max}`;
    table.push([
      name,
      `${p.wall_s} s`,
      f(p.health),
      f(p.victim),
      `${ratio(p.victim.p95, idle.victim.p95)}×`,
      p.victim_first,
      `${p.victim_rest.p95} (${ratio(p.victim_rest.p95, idle.victim.p95)}×)`,
      JSON.stringify(p.victim_status),
      JSON.stringify(p.extra ?? p.out ?? ''),
    ]);
  }
  const result = {
    label,
    database: databaseUrl ? 'postgresql' : 'pglite',
    chars,
    seconds,
    checks,
    victim_ms: victimMs,
    victim_accounts: victimAccounts,
    machine: { cpus: os.cpus().length, node: process.version, loadavg_before: loadBefore, loadavg_after: loadavg() },
    flood_drain_ms: Math.round(drain),
    phases,
  };
  printTable(
    [
      `${label} (${result.database})`,
      'wall',
      'health p50/p95/p99/max ms',
      'victim save p50/p95/p99/max ms',
      'victim p95 / idle',
      'first',
      'the rest p95 (/ idle)',
      'victim answers',
      'load',
    ],
    table,
  );
  if (rounds > 1) {
    const all = Object.entries(phases).filter(([name]) => name.startsWith('checks'));
    const pooled = summary(all.flatMap(([, p]) => p.timeline.victim.map(([, ms]) => ms)));
    console.log(
      `checks, ${rounds} rounds: first saves ${all.map(([, p]) => p.victim_first).join(', ')} ms; all ${pooled.n} saves p50 / p95 ${pooled.p50} / ${pooled.p95} ms (${ratio(pooled.p95, idle.victim.p95)}× idle p95)`,
    );
  }
  console.log(`loadavg before: ${loadBefore}; after: ${result.machine.loadavg_after}; flood's checks drained in ${result.flood_drain_ms} ms`);
  if (showTimeline) {
    const { victim, marks: events } = phases.checks.timeline;
    const lines = [...victim.map(([at, ms]) => [at, `other user's save: ${ms} ms`] as const), ...events].sort((x, y) => x[0] - y[0]);
    console.log(`checks phase, ms from its start (${phases.checks.timeline.started_at} ms since 1970):`);
    for (const [at, what] of lines) console.log(`${String(at).padStart(7)}  ${what}`);
  }
  console.log(writeResult(`publication-flood-${label}`, result));
} finally {
  const exited = new Promise((r) => server.once('exit', r));
  if (server.pid) process.kill(-server.pid, 'SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  await sleep(2000);
  try {
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  } catch {
    console.log(`left ${dataDir}`);
  }
}
