// Print flood bench (issue 18): how one account's burst of prints affects another user's single print.
// Usage (from the repo root):  npx tsx bench/src/print-flood.ts [--kind registration-list|certificate]
//   [--mode identical,distinct] [--rounds 6] [--flood 60] [--converters 2] [--label after]
//   (DATABASE_URL set: a fresh database edu_bench_print_flood on that PostgreSQL server; otherwise a
//   fresh PGlite in /tmp). The same script runs against older code (it only uses what both have).
// 1. Builds the app in-process on 127.0.0.1, migrated and seeded; a registration list (HTML, Chromium)
//    or a certificate (.docx, LibreOffice) template; the flooder with `--flood` entries, the other user
//    with one.
// 2. Quiet: `--rounds` times, the other user's profile changes (so the print misses the cache) and
//    the other user prints once: p50, p95.
// 3. Flood, per mode, `--rounds` times: both profiles change, the flooder sends `--flood` requests at
//    once (identical: the same entry's document, as a client hammering the button; distinct: a
//    different entry each), 50 ms later the other user prints once. The other user's print: p50, p95,
//    max, and (registration lists) its own conversion inside the converter, queue included; the
//    flood: renders made (conversions), answers by status, wall time.
// 4. Crowd (`--mode crowd`, issue 29): `--accounts` free accounts (unpaid entries only), each keeping
//    `--inflight` prints in flight (each worker its own entry, the account's organisation changed
//    before every new print, so no print is ever served from the cache; a refused print (429/503) is
//    tried again `--retry-ms` (1000) later), each account from its own address: `--crowd-net distinct` (each its
//    own IPv6 /64, as a botnet) or `subnet` (all in one IPv4 /24); the victim (a paying client, from
//    another address) prints `--rounds` times in a row during the flood, its profile changed before
//    each. Quiet is measured in the same run just before (and `--rounds` times after) the flood. The
//    addresses travel in X-Forwarded-For (the app trusts the proxy in the bench; all traffic stays on
//    127.0.0.1).
// Results: a table on stdout, JSON in bench/results/print-flood-*.json.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/platform/config.ts';
import { openDatabase, rows } from '../../server/src/platform/db.ts';
import { createMailer } from '../../server/src/platform/mail.ts';
import { prepareDatabase } from '../../server/src/platform/startup.ts';
import { createSession } from '../../server/src/platform/auth.ts';
import { makeDocx } from '../../server/src/platform/converters/minimal-docx.ts';
import { parseArgs } from './lib/args.ts';
import { printTable, writeResult } from './lib/results.ts';

const args = parseArgs();
const kind = args.string('kind', 'registration-list') as 'registration-list' | 'certificate';
const modes = args.string('mode', 'identical,distinct').split(',') as ('identical' | 'distinct' | 'crowd')[];
const accounts = args.number('accounts', 18);
const inflight = args.number('inflight', 2);
const crowdNet = args.string('crowd-net', 'distinct') as 'distinct' | 'subnet';
const retryMs = args.number('retry-ms', 1000);
const rounds = args.number('rounds', 6);
const flood = args.number('flood', 60);
const converters = args.number('converters', 2);
const label = args.string('label', 'run');

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-bench-flood-'));
if (process.env.DATABASE_URL) {
  const server = new URL(process.env.DATABASE_URL);
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  await admin.query('drop database if exists edu_bench_print_flood with (force)');
  await admin.query('create database edu_bench_print_flood');
  await admin.end();
  server.pathname = '/edu_bench_print_flood';
  process.env.DATABASE_URL = server.toString();
}
const config = loadConfig(process.env, {
  dataDir,
  requestLog: false,
  jobsIntervalMs: 0,
  officeConverters: kind === 'certificate' ? converters : 0,
  seedDemo: false,
  port: 0,
  // The crowd's addresses come in X-Forwarded-For (all requests are sent to 127.0.0.1).
  trustProxy: true,
});
const database = await openDatabase(config);
await prepareDatabase(database, config);
const app = await buildApp({
  config,
  database,
  logger: false,
  mailer: (a) => createMailer({ outboxDir: path.join(dataDir, 'mail'), from: config.mailFrom, log: a.log }),
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const db = app.db;

// Conversions, counted on whichever converter this kind uses (both old and new code have toPdf).
// For registration lists, also the time of the other user's own conversion (its document names
// 'Другова'): waiting for a page plus converting, i.e. what the flood costs it inside the converter.
let conversions = 0;
let otherConvertMs: number[] = [];
const converter = (kind === 'certificate' ? app.converters.office : app.converters.html) as unknown as { toPdf: (...a: unknown[]) => Promise<Buffer> };
const original = converter.toPdf.bind(converter);
converter.toPdf = async (...a: unknown[]) => {
  conversions++;
  const t0 = performance.now();
  const pdf = await original(...a);
  if (typeof a[0] === 'string' && a[0].includes('Другова')) otherConvertMs.push(performance.now() - t0);
  return pdf;
};

async function person(email: string, last: string): Promise<{ id: number; token: string }> {
  const [u] = await rows<{ id: number }>(
    db,
    sql`insert into users (email, last_name, first_name, middle_name, organization) values (${email}, ${last}, 'Анна', 'Сергеевна', 'Школа № 1') returning id`,
  );
  return { id: u.id, token: (await createSession(db, { userId: u.id, remember: true })).access_token };
}

async function setup() {
  let templateId: number;
  if (kind === 'certificate') {
    const file = await app.files.save(db, {
      userId: null,
      name: 'certificate.docx',
      mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ext: 'docx',
      buffer: makeDocx(['СЕРТИФИКАТ', 'выдан ${user.fio_dative}', '${user.organization}', 'за участие в «${service.title}»', '№ ${entry.certificate_number}']),
    });
    [{ id: templateId }] = await rows<{ id: number }>(
      db,
      sql`insert into templates (title, dict_type_id, file_id) values ('Сертификат (bench)', 1, ${file.id}) returning id`,
    );
  } else {
    const rowsHtml = Array.from({ length: 25 }, (_, i) => `<tr><td>${i + 1}</td><td>\${user.fio}</td><td>\${user.organization}</td><td></td></tr>`).join('');
    const content = `<h1>Регистрационный лист</h1><p>\${service.title}</p><p>Участник: \${user.fio}, \${user.organization}</p><table><tr><th>№</th><th>ФИО</th><th>Организация</th><th>Подпись</th></tr>${rowsHtml}</table>`;
    [{ id: templateId }] = await rows<{ id: number }>(
      db,
      sql`insert into templates (title, dict_type_id, content) values ('Регистрационный лист (bench)', 3, ${content}) returning id`,
    );
  }
  const [service] = await rows<{ id: number }>(
    db,
    kind === 'certificate'
      ? sql`insert into services (title, dict_type_id, price, hours, template_certificate_id) values ('Вебинар «Печать под нагрузкой»', 2, 500, 6, ${templateId}) returning id`
      : sql`insert into services (title, dict_type_id, price, hours, template_participation_id) values ('Семинар «Печать под нагрузкой»', 2, 500, 6, ${templateId}) returning id`,
  );
  const entriesOf = async (userId: number, n: number, prefix: string) =>
    (
      await rows<{ id: number }>(
        db,
        sql`insert into entries (number, created_by, service_id, price, status, done_at)
            select ${prefix} || g, ${userId}, ${service.id}, 500, 3, now() from generate_series(1, ${n}) g returning id`,
      )
    ).map((r) => r.id);
  const flooder = await person('flooder@example.com', 'Флудова');
  const other = await person('other@example.com', 'Другова');
  // The crowd: free accounts (unpaid entries, status 1), `inflight` entries each.
  const crowd = [];
  if (modes.includes('crowd')) {
    for (let i = 0; i < accounts; i++) {
      const p = await person(`crowd${i}@example.com`, `Толпова${i}`);
      const list = (
        await rows<{ id: number }>(
          db,
          sql`insert into entries (number, created_by, service_id, price, status)
              select ${`C${i}-`} || g, ${p.id}, ${service.id}, 500, 1 from generate_series(1, ${inflight}) g returning id`,
        )
      ).map((r) => r.id);
      crowd.push({ ...p, entries: list, ip: crowdNet === 'subnet' ? `203.0.113.${i + 1}` : `2001:db8:${(i + 1).toString(16)}::1` });
    }
  }
  return {
    flooder: { ...flooder, entries: await entriesOf(flooder.id, flood, 'F') },
    other: { ...other, entries: await entriesOf(other.id, 1, 'O') },
    crowd,
  };
}

const VICTIM_IP = '192.0.2.10';

async function print(entryId: number, token: string, ip = VICTIM_IP): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/entry/${entryId}/print/${kind}`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': ip } });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
}

let profileSeq = 0;
/** A profile change: the organization is on the document, so its cached file no longer fits. */
const changeProfile = (userId: number) => db.execute(sql`update users set organization = ${`Школа № ${++profileSeq}`} where id = ${userId}`);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const summary = (list: number[]) => {
  const s = [...list].sort((a, b) => a - b);
  return { n: s.length, p50_ms: Math.round(percentile(s, 50)), p95_ms: Math.round(percentile(s, 95)), max_ms: Math.round(s[s.length - 1]) };
};

try {
  const { flooder, other, crowd } = await setup();
  // Warm: the converter started, first document made.
  await changeProfile(other.id);
  const warm = await print(other.entries[0], other.token);
  if (warm.status !== 200) throw new Error(`warm print: ${warm.status}`);

  const quiet: number[] = [];
  otherConvertMs = [];
  for (let r = 0; r < rounds; r++) {
    await changeProfile(other.id);
    const res = await print(other.entries[0], other.token);
    if (res.status !== 200) throw new Error(`quiet print: ${res.status}`);
    quiet.push(res.ms);
  }

  const quietConvert = otherConvertMs.length ? summary(otherConvertMs) : null;
  const floods: Record<string, unknown> = {};
  for (const mode of modes) {
    if (mode === 'crowd') continue;
    otherConvertMs = [];
    const otherMs: number[] = [];
    const statuses: Record<string, number> = {};
    const renders: number[] = [];
    const walls: number[] = [];
    for (let r = 0; r < rounds; r++) {
      await changeProfile(flooder.id);
      await changeProfile(other.id);
      const c0 = conversions;
      const t0 = performance.now();
      const burst = Promise.all(Array.from({ length: flood }, (_, i) => print(mode === 'identical' ? flooder.entries[0] : flooder.entries[i], flooder.token)));
      await new Promise((res) => setTimeout(res, 50));
      const mine = await print(other.entries[0], other.token);
      if (mine.status !== 200) throw new Error(`the other user's print: ${mine.status}`);
      otherMs.push(mine.ms);
      for (const a of await burst) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      walls.push(performance.now() - t0);
      renders.push(conversions - c0 - 1);
      // Let the converter drain before the next round.
      await new Promise((res) => setTimeout(res, 200));
    }
    floods[mode] = {
      other_print: summary(otherMs),
      other_convert: otherConvertMs.length ? summary(otherConvertMs) : null,
      flood_renders_per_round: renders,
      flood_answers: statuses,
      flood_wall: summary(walls),
    };
  }

  let crowdResult: Record<string, unknown> | null = null;
  if (modes.includes('crowd')) {
    // A refused print of the victim (503 on older code) is counted and its time kept.
    const victimRefused: Record<string, number> = {};
    const victim = async () => {
      await changeProfile(other.id);
      const res = await print(other.entries[0], other.token);
      if (res.status !== 200) victimRefused[res.status] = (victimRefused[res.status] ?? 0) + 1;
      return res.ms;
    };
    // Quiet, in this run, right before the flood.
    const quietBefore: number[] = [];
    otherConvertMs = [];
    for (let r = 0; r < rounds; r++) quietBefore.push(await victim());
    const convertQuiet = otherConvertMs;
    otherConvertMs = [];
    const answers: Record<string, number> = {};
    let stop = false;
    let done = 0;
    const c0 = conversions;
    const load0 = os.loadavg()[0];
    const worker = async (who: (typeof crowd)[number], entryId: number) => {
      let fresh = false;
      while (!stop) {
        // A new organisation before each new print (a refused one is still fresh when tried again).
        if (!fresh) await changeProfile(who.id);
        const res = await print(entryId, who.token, who.ip);
        answers[res.status] = (answers[res.status] ?? 0) + 1;
        fresh = res.status !== 200;
        if (res.status === 200) done++;
        else await new Promise((r) => setTimeout(r, retryMs));
      }
    };
    const t0 = performance.now();
    const workers = crowd.flatMap((who) => who.entries.map((e) => worker(who, e)));
    // Let the crowd fill the queues first.
    await new Promise((r) => setTimeout(r, 3000));
    const during: number[] = [];
    for (let r = 0; r < rounds; r++) {
      during.push(await victim());
      await new Promise((res) => setTimeout(res, 200));
    }
    const convertDuring = otherConvertMs;
    stop = true;
    await Promise.all(workers);
    const floodMs = performance.now() - t0;
    const floodConversions = conversions - c0 - during.length;
    await new Promise((r) => setTimeout(r, 500));
    const quietAfter: number[] = [];
    for (let r = 0; r < rounds; r++) quietAfter.push(await victim());
    const quietAll = summary([...quietBefore, ...quietAfter]);
    const duringS = summary(during);
    crowdResult = {
      accounts,
      inflight,
      crowd_net: crowdNet,
      retry_ms: retryMs,
      victim_quiet_before: summary(quietBefore),
      victim_quiet_after: summary(quietAfter),
      victim_quiet: quietAll,
      victim_during: duringS,
      // The victim's own conversion (waiting for a page, then rendering), before and during the crowd.
      victim_convert_quiet: summary(convertQuiet),
      victim_convert_during: summary(convertDuring),
      ratio_p50: Number((duringS.p50_ms / quietAll.p50_ms).toFixed(2)),
      ratio_p95: Number((duringS.p95_ms / quietAll.p95_ms).toFixed(2)),
      victim_refused: victimRefused,
      flood_answers: answers,
      flood_prints_done: done,
      flood_conversions: floodConversions,
      flood_seconds: Number((floodMs / 1000).toFixed(1)),
      loadavg_1m_during: [Number(load0.toFixed(1)), Number(os.loadavg()[0].toFixed(1))],
    };
  }

  const result = {
    label,
    kind,
    flood,
    rounds,
    converters: kind === 'certificate' ? converters : 'chromium (2 pages)',
    machine: { cpus: os.cpus().length, node: process.version, loadavg_1m: Number(os.loadavg()[0].toFixed(1)), database: database.kind },
    quiet: summary(quiet),
    quiet_convert: quietConvert,
    floods,
    crowd: crowdResult,
  };
  const conv = (c: ReturnType<typeof summary> | null) => (c ? `${c.p50_ms} / ${c.p95_ms} ms` : '-');
  const tableRows: (string | number)[][] = [
    [`other user's print, quiet`, `${result.quiet.p50_ms} / ${result.quiet.p95_ms} / ${result.quiet.max_ms} ms`, conv(quietConvert), '', ''],
  ];
  for (const [mode, f] of Object.entries(floods) as [
    string,
    {
      other_print: ReturnType<typeof summary>;
      other_convert: ReturnType<typeof summary> | null;
      flood_renders_per_round: number[];
      flood_answers: Record<string, number>;
      flood_wall: ReturnType<typeof summary>;
    },
  ][]) {
    tableRows.push([
      `other user's print, ${flood} ${mode} prints of one account`,
      `${f.other_print.p50_ms} / ${f.other_print.p95_ms} / ${f.other_print.max_ms} ms`,
      conv(f.other_convert),
      `renders ${f.flood_renders_per_round.join(',')}; ${Object.entries(f.flood_answers)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
      `${f.flood_wall.p50_ms} ms`,
    ]);
  }
  if (crowdResult) {
    const c = crowdResult as {
      victim_quiet: ReturnType<typeof summary>;
      victim_during: ReturnType<typeof summary>;
      victim_convert_quiet: ReturnType<typeof summary>;
      victim_convert_during: ReturnType<typeof summary>;
      ratio_p50: number;
      ratio_p95: number;
      flood_answers: Record<string, number>;
      flood_prints_done: number;
      flood_seconds: number;
    };
    tableRows.push([
      `victim (paying), quiet before+after`,
      `${c.victim_quiet.p50_ms} / ${c.victim_quiet.p95_ms} / ${c.victim_quiet.max_ms} ms`,
      `${c.victim_convert_quiet.p50_ms} / ${c.victim_convert_quiet.p95_ms} ms (before)`,
      '',
      '',
    ]);
    tableRows.push([
      `victim during ${accounts} free accounts × ${inflight} in flight (${crowdNet}, retry ${retryMs} ms)`,
      `${c.victim_during.p50_ms} / ${c.victim_during.p95_ms} / ${c.victim_during.max_ms} ms`,
      `${c.victim_convert_during.p50_ms} / ${c.victim_convert_during.p95_ms} ms`,
      `ratio p50 ${c.ratio_p50}, p95 ${c.ratio_p95}; ${Object.entries(c.flood_answers)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
      `${c.flood_seconds} s`,
    ]);
  }
  printTable([`${label}: ${kind}`, 'p50 / p95 / max', 'its conversion p50 / p95', 'flood: renders per round; answers', 'flood wall p50'], tableRows);
  console.log(writeResult(`print-flood-${label}`, result));
} finally {
  await app.close();
  await database.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}
