// Main-thread stalls of one publication check, stage by stage (issue 29): how long the event loop
// is blocked (monitorEventLoopDelay max, and a 5 ms ticker's longest gap) while each step runs, in
// process, with the app's worker pool for the engine. Each line: the step's wall time and the longest
// the event loop went unserved meanwhile.
//   npx tsx bench/src/publication-stall.ts [--chars 480000]   (DATABASE_URL: that server; else PGlite in /tmp)
//   PGlite runs in its worker thread (decision 033); PGLITE_WORKER=0 runs it on this thread, as the
//   figures of bench/README.md's issue-29 stage table were taken.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase, rows } from '../../server/src/platform/db.ts';
import { loadConfig } from '../../server/src/platform/config.ts';
import { prepareDatabase } from '../../server/src/platform/startup.ts';
import { createUniquenessPool } from '../../server/src/features/publications/uniqueness-pool.ts';
import { candidateQuery, checkPublication, checkText, indexPublication, QUERY_CHUNK } from '../../server/src/features/publications/uniqueness-repository.ts';
import { publicationPlainText } from '../../server/src/features/publications/uniqueness/plain-text.ts';
import { sliceFingerprints } from '../../server/src/features/publications/uniqueness/fingerprint.ts';
import { DEFAULT_CANDIDATES } from '../../server/src/features/publications/uniqueness/engine.ts';
import { parseArgs } from './lib/args.ts';
import { degenerateHtml, russianHtml } from './lib/russian-text.ts';

const args = parseArgs();
const chars = args.number('chars', 480_000);
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-bench-stall-'));
const config = loadConfig(process.env, { dataDir, requestLog: false, jobsIntervalMs: 0, officeConverters: 0, seedDemo: false, port: 0 });
const database = await openDatabase(config);
await prepareDatabase(database, config);
const db = database.db;
const pool = createUniquenessPool({ size: 1, maxQueue: 8 });

/** Longest gap between ticks of a 5 ms timer while `fn` runs: the longest the loop could not answer. */
async function stall<T>(label: string, fn: () => Promise<T> | T): Promise<T> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 5);
  const t0 = performance.now();
  const out = await fn();
  const wall = performance.now() - t0;
  worst = Math.max(worst, performance.now() - last);
  clearInterval(timer);
  console.log(`${label.padEnd(58)} wall ${wall.toFixed(0).padStart(6)} ms   longest stall ${worst.toFixed(0).padStart(6)} ms`);
  return out;
}

try {
  const [u] = await rows<{ id: number }>(
    db,
    sql`insert into users (email, last_name, first_name) values ('stall@bench.local', 'Тестова', 'Анна') returning id`,
  );
  const insert = async (text: string) =>
    (await rows<{ id: number }>(db, sql`insert into publications (title, text, created_by) values ('Статья', ${text}, ${u.id}) returning id`))[0].id;
  const ordinary = russianHtml(chars, 1);
  const degenerate = degenerateHtml(chars);
  await pool.prepare('разогрев'); // the worker started
  await stall(`publicationPlainText, ordinary ${chars}`, () => publicationPlainText(ordinary));
  await stall(`publicationPlainText, degenerate ${chars}`, () => publicationPlainText(degenerate));
  const a = await insert(ordinary);
  await stall('checkPublication ordinary #1 (index, no candidates)', () => checkPublication(db, a, pool));
  const b = await insert(ordinary.slice(0, chars / 2) + russianHtml(chars / 2, 2));
  await stall('checkPublication ordinary #2 (half borrowed from #1)', () => checkPublication(db, b, pool));
  const c = await insert(ordinary);
  await stall('checkPublication ordinary #3 (copy of #1)', () => checkPublication(db, c, pool));
  const d = await insert(degenerate);
  await stall('checkPublication degenerate #1', () => checkPublication(db, d, pool));
  const e = await insert(degenerate);
  await stall('checkPublication degenerate #2', () => checkPublication(db, e, pool));
  // The steps of a check of a copy of #1, one by one.
  const plain = publicationPlainText(ordinary);
  const prepared = await pool.prepare(plain);
  const all = await stall(`candidate query, all ${prepared.query.hashes.length} hashes in one statement`, () =>
    rows(db, candidateQuery(prepared.query, -1, DEFAULT_CANDIDATES)),
  );
  void all;
  await stall(`candidate query, one chunk of ${QUERY_CHUNK} hashes`, () =>
    rows(db, candidateQuery(sliceFingerprints(prepared.query, 0, QUERY_CHUNK), -1, DEFAULT_CANDIDATES)),
  );
  await stall('checkText of the copy (all chunks, candidates selected in the worker)', () => checkText(db, prepared, { work: pool, excludeId: c }));
  await stall(`indexPublication ordinary (${prepared.stored.hashes.length} rows)`, () => db.transaction((tx) => indexPublication(tx, c, prepared)));
  const dp = await pool.prepare(publicationPlainText(degenerate));
  await stall(`indexPublication degenerate (${dp.stored.hashes.length} rows)`, () => db.transaction((tx) => indexPublication(tx, e, dp)));
  const n = await rows<{ id: number; n: number }>(db, sql`select publication_id as id, count(*)::int as n from publication_fingerprints group by 1 order by 1`);
  console.log('fingerprint rows per publication:', n.map((r) => `${r.id}: ${r.n}`).join(', '));
} finally {
  await pool.close();
  await database.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}
