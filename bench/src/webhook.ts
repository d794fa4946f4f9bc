// Payment webhook bench (issue 4) against a running server in sandbox mode (no YOOKASSA_* settings).
// Usage (from the repo root):
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/edu_bench npx tsx bench/src/webhook.ts --entries 200
// Options: --base-url URL (BASE_URL or http://127.0.0.1:8080)  --entries N (200)  --mode waves|race (waves)
//          --create-concurrency N (10)  --server-pid PID
// 1. N bench clients (from tokens.json) each make one unpaid entry through the API (POST /api/entry)
//    and start paying it (POST /api/entry/{id}/pay -> {id: <sandbox payment uuid>}).
// 2. Each sandbox payment is marked succeeded in the database, without the sandbox's own webhook
//    (the server's handler fetches the payment from the sandbox API, so the stored state is what counts).
// 3. waves: N webhooks POST /api/yookassa/webhook {type, event: 'payment.succeeded', object: {id}} all at
//    once, then the same N again as duplicates; race: the 2N at once (each uuid twice, concurrently).
// 4. Checks in SQL that every entry is paid exactly once: status 2, one payments row per uuid, one
//    payment_entries row per entry, no is_double, one status change in change_logs, one notification.
// Results: a table on stdout, JSON in bench/results/webhook-*.json.
import { performance } from 'node:perf_hooks';
import { parseArgs } from './lib/args.ts';
import { CpuMeter, findListeningPid, type CpuUsage } from './lib/cpu.ts';
import { openPool } from './lib/db.ts';
import { Random } from './lib/random.ts';
import { printTable, writeResult } from './lib/results.ts';
import { readTokens } from './lib/sessions.ts';

const args = parseArgs();
const baseUrl = args.string('base-url', process.env.BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const count = args.number('entries', 200);
const mode = args.string('mode', 'waves');
const createConcurrency = args.number('create-concurrency', 10);
if (mode !== 'waves' && mode !== 'race') throw new Error('--mode waves or race');

const port = Number(new URL(baseUrl).port || 80);
const serverPid = args.has('server-pid') ? args.number('server-pid', 0) : findListeningPid(port);
const dbName = new URL(process.env.DATABASE_URL ?? 'postgres://x/edu_bench').pathname.slice(1);
const meter = new CpuMeter(serverPid, dbName);
const pool = openPool(2);
const tokens = readTokens();

interface Paid {
  user_id: number;
  token: string;
  service_id: number;
  entry_id: number;
  uuid: string;
}

interface WaveResult {
  wave: string;
  requests: number;
  wall_ms: number;
  latency_ms: { p50: number; p95: number; p99: number; max: number; min: number };
  statuses: Record<string, number>;
  results: Record<string, number>;
  cpu: CpuUsage | null;
}

async function api<T>(method: string, path: string, token: string | null, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
}

async function limited<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** Services a client can enrol in and pay online: visible, upcoming or permanent, priced, no sections, seats left. */
async function pickServices(userIds: number[]): Promise<Map<number, { id: number; extramural: number }>> {
  const { rows: candidates } = await pool.query<{ id: number; participation_type: number; free: number }>(
    `select s.id, s.participation_type,
       (case when s.max_participants > 0 then s.max_participants else 27 end)
         - (select count(*) from entries e where e.service_id = s.id and e.deleted_at is null)::int as free
     from services s
     where s.deleted_at is null and s.is_visible and not s.is_done and s.price > 0
       and (s.date_type <> 1 or s.begda > now() + interval '1 day')
       and not exists (select 1 from service_sections x where x.service_id = s.id and x.deleted_at is null)
     order by s.id`,
  );
  const usable = candidates.filter((c) => c.free >= 3);
  const { rows: taken } = await pool.query<{ created_by: number; service_id: number }>(
    'select created_by, service_id from entries where created_by = any($1) and deleted_at is null',
    [userIds],
  );
  const has = new Set(taken.map((t) => `${t.created_by}:${t.service_id}`));
  const used = new Map<number, number>();
  const r = new Random(Date.now() % 1_000_000);
  const out = new Map<number, { id: number; extramural: number }>();
  for (const uid of userIds) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const c = r.pick(usable);
      if (has.has(`${uid}:${c.id}`) || (used.get(c.id) ?? 0) >= c.free - 2) continue;
      used.set(c.id, (used.get(c.id) ?? 0) + 1);
      out.set(uid, { id: c.id, extramural: c.participation_type === 3 ? 1 : 0 });
      break;
    }
    if (!out.has(uid)) throw new Error(`no service left for user ${uid}`);
  }
  return out;
}

async function prepare(): Promise<Paid[]> {
  // Clients without an unpaid entry of a previous webhook run first, in a random order.
  const r = new Random(Date.now() % 1_000_000);
  const sessions = r.sample(tokens.sessions, tokens.sessions.length).slice(0, count);
  if (sessions.length < count) throw new Error(`tokens.json has ${tokens.sessions.length} sessions, fewer than --entries ${count}`);
  const services = await pickServices(sessions.map((s) => s.user_id));
  const paid: Paid[] = [];
  const failures: string[] = [];
  await limited(sessions, createConcurrency, async (s) => {
    const service = services.get(s.user_id)!;
    const created = await api<{ data?: { id: number }; message?: string }>('POST', '/api/entry', s.token, {
      service_id: service.id,
      pay_type: 3,
      is_extramural: service.extramural,
    });
    if (created.status !== 201 || !created.json.data) {
      failures.push(`POST /api/entry as ${s.user_id} on service ${service.id}: ${created.status} ${JSON.stringify(created.json)}`);
      return;
    }
    const pay = await api<{ id: string; confirmation?: unknown }>('POST', `/api/entry/${created.json.data.id}/pay`, s.token, {});
    if (pay.status !== 200 || typeof pay.json.id !== 'string') {
      failures.push(`POST /api/entry/${created.json.data.id}/pay: ${pay.status} ${JSON.stringify(pay.json)}`);
      return;
    }
    paid.push({ user_id: s.user_id, token: s.token, service_id: service.id, entry_id: created.json.data.id, uuid: pay.json.id });
  });
  if (failures.length) throw new Error(`${failures.length} entries could not be made:\n${failures.slice(0, 5).join('\n')}`);
  return paid;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const round = (n: number) => Math.round(n * 100) / 100;

async function wave(name: string, uuids: string[]): Promise<WaveResult> {
  const statuses: Record<string, number> = {};
  const results: Record<string, number> = {};
  const times: number[] = [];
  meter.start();
  const t0 = performance.now();
  await Promise.all(
    uuids.map(async (id) => {
      const t = performance.now();
      try {
        const res = await api<{ ok?: boolean; result?: string }>('POST', '/api/yookassa/webhook', null, {
          type: 'notification',
          event: 'payment.succeeded',
          object: { id },
        });
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const result = res.json?.result ?? 'none';
        results[result] = (results[result] ?? 0) + 1;
      } catch (err) {
        statuses.error = (statuses.error ?? 0) + 1;
        results[(err as Error).message] = (results[(err as Error).message] ?? 0) + 1;
      }
      times.push(performance.now() - t);
    }),
  );
  const wall = performance.now() - t0;
  meter.stop();
  const sorted = times.sort((a, b) => a - b);
  return {
    wave: name,
    requests: uuids.length,
    wall_ms: round(wall),
    latency_ms: { min: round(sorted[0]), p50: round(pct(sorted, 50)), p95: round(pct(sorted, 95)), p99: round(pct(sorted, 99)), max: round(sorted.at(-1)!) },
    statuses,
    results,
    cpu: meter.usage(uuids.length),
  };
}

interface Check {
  check: string;
  expected: number;
  actual: number;
}

async function verify(paid: Paid[]): Promise<Check[]> {
  const ids = paid.map((p) => p.entry_id);
  const uuids = paid.map((p) => p.uuid);
  const n = paid.length;
  const q = async (sql: string, params: unknown[]) => Number((await pool.query<{ n: string }>(sql, params)).rows[0].n);
  return [
    {
      check: 'entries paid (status 2, paid_at, pay_type 3, its payment_uuid)',
      expected: n,
      actual: await q(
        `select count(*) as n from entries e join unnest($1::int[], $2::text[]) x(id, uuid) on x.id = e.id
       where e.status = 2 and e.paid_at is not null and e.pay_type = 3 and e.payment_uuid = x.uuid and e.deleted_at is null`,
        [ids, uuids],
      ),
    },
    { check: 'payments rows of these uuids', expected: n, actual: await q('select count(*) as n from payments where uuid = any($1)', [uuids]) },
    { check: 'distinct uuids among them', expected: n, actual: await q('select count(distinct uuid) as n from payments where uuid = any($1)', [uuids]) },
    { check: 'payments marked is_double', expected: 0, actual: await q('select count(*) as n from payments where uuid = any($1) and is_double', [uuids]) },
    {
      check: 'payment_entries rows of these entries',
      expected: n,
      actual: await q('select count(*) as n from payment_entries where entry_id = any($1)', [ids]),
    },
    {
      check: 'payment_entries linking each entry to the payment of its own uuid, sum = price',
      expected: n,
      actual: await q(
        `select count(*) as n from payment_entries pe join payments p on p.id = pe.payment_id join entries e on e.id = pe.entry_id
       where pe.entry_id = any($1) and p.uuid = e.payment_uuid and pe.sum = e.price and p.sum = e.price and p.pay_type = 3`,
        [ids],
      ),
    },
    {
      check: 'card transactions succeeded',
      expected: n,
      actual: await q(`select count(*) as n from card_transactions where uuid = any($1) and status = 'succeeded'`, [uuids]),
    },
    {
      check: 'status changes to 2 in change_logs (one per entry)',
      expected: n,
      actual: await q(`select count(*) as n from change_logs where type = 'entry' and entity_id = any($1) and diff->'status'->>'new' = '2'`, [ids]),
    },
    {
      check: "'оплачена' notifications (one per entry)",
      expected: n,
      actual: await q(
        `select count(*) as n from notifications x join entries e on e.created_by = x.user_id and x.text like '%' || e.number || '%оплачена%'
       where e.id = any($1)`,
        [ids],
      ),
    },
  ];
}

const health = await fetch(`${baseUrl}/api/health`).catch((err: Error) => {
  throw new Error(`No server at ${baseUrl} (${err.message}). Start it first: see bench/README.md.`);
});
if (!health.ok) throw new Error(`${baseUrl}/api/health answered ${health.status}`);
const sandbox = await fetch(`${baseUrl}/sandbox/yookassa/v3/payments/none`, {
  headers: { authorization: `Basic ${Buffer.from('sandbox:sandbox-secret').toString('base64')}` },
});
if (sandbox.status !== 404)
  throw new Error(
    `The server does not run the built-in YooKassa sandbox (GET /sandbox/yookassa/v3/payments/none -> ${sandbox.status}): start it without YOOKASSA_* settings.`,
  );

try {
  let t = performance.now();
  const paid = await prepare();
  const prepareMs = performance.now() - t;
  console.log(
    `${paid.length} unpaid entries made and sent to the sandbox in ${(prepareMs / 1000).toFixed(1)} s (POST /api/entry + POST /api/entry/{id}/pay each)`,
  );

  t = performance.now();
  const { rowCount } = await pool.query(
    `update sandbox_payments set status = 'succeeded', body = jsonb_set(jsonb_set(body, '{status}', '"succeeded"'), '{paid}', 'true'), updated_at = now()
     where id = any($1) and status = 'pending'`,
    [paid.map((p) => p.uuid)],
  );
  if (rowCount !== paid.length) throw new Error(`${rowCount} of ${paid.length} sandbox payments were pending`);
  console.log(`sandbox payments marked succeeded in the database (no sandbox webhook): ${rowCount}`);

  const uuids = paid.map((p) => p.uuid);
  const waves: WaveResult[] = [];
  if (mode === 'waves') {
    waves.push(await wave(`1. ${uuids.length} webhooks at once`, uuids));
    waves.push(await wave(`2. the same ${uuids.length} again (duplicates)`, uuids));
  } else {
    waves.push(await wave(`${uuids.length * 2} at once (each uuid twice)`, [...uuids, ...uuids].sort()));
  }
  const total = waves.reduce((a, w) => a + w.wall_ms, 0);

  console.log('');
  printTable(
    ['wave', 'requests', 'wall ms', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'HTTP statuses', 'results', 'server ms/req', 'db ms/req', 'others cores'],
    waves.map((w) => [
      w.wave,
      w.requests,
      w.wall_ms,
      w.latency_ms.p50,
      w.latency_ms.p95,
      w.latency_ms.p99,
      w.latency_ms.max,
      JSON.stringify(w.statuses),
      JSON.stringify(w.results),
      w.cpu?.server_ms_per_req ?? '-',
      w.cpu?.db_ms_per_req ?? '-',
      w.cpu?.cores.others ?? '-',
    ]),
  );
  console.log(`total webhook time: ${total.toFixed(0)} ms`);

  const checks = await verify(paid);
  console.log('');
  printTable(
    ['check', 'expected', 'actual', ''],
    checks.map((c) => [c.check, c.expected, c.actual, c.actual === c.expected ? 'ok' : 'FAIL']),
  );
  const ok = checks.every((c) => c.actual === c.expected);
  console.log(ok ? '\nEvery entry is paid exactly once.' : '\nFAIL: see the checks above.');
  const file = writeResult('webhook', {
    base_url: baseUrl,
    mode,
    entries: paid.length,
    prepare_ms: round(prepareMs),
    waves,
    total_ms: round(total),
    checks,
    ok,
    paid,
  });
  console.log(`JSON: ${file}`);
  if (!ok) process.exitCode = 1;
} finally {
  await pool.end();
}
