// «Все услуги» (GET /api/service/overview, issue 22) on the generated catalogue: the server's own
// listServiceOverview for each filter and sort, its median time over --runs calls, and
// EXPLAIN (ANALYZE, BUFFERS) of the statements it sends (bench/results/service-overview-explain.txt).
//
//   DATABASE_URL=... npx tsx bench/src/service-overview.ts [--runs 5] [--explain]
import fs from 'node:fs';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import { parseArgs } from './lib/args.ts';
import { printTable, resultsPath, writeResult } from './lib/results.ts';
import type { SortValue } from '@edu/domain/common/pagination';
import type { ServiceOverviewSort } from '@edu/domain/services/service-overview';

const args = parseArgs();
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const runs = args.number('runs', 5);

const { openPostgres } = await import('@edu/server/src/platform/db.ts');
const { listServiceOverview } = await import('@edu/server/src/features/services/services-repository.ts');

const database = openPostgres(url, 4);
const dialect = new PgDialect();
let captured: Array<{ sql: string; params: unknown[] }> = [];
const capture = (query: SQL) => {
  const q = dialect.sqlToQuery(query);
  captured.push({ sql: q.sql, params: q.params });
};
// The same database, with every statement it runs noted (for EXPLAIN).
const db = new Proxy(database.db, {
  get(target, prop, receiver) {
    if (prop === 'execute') {
      return (query: SQL) => {
        capture(query);
        return target.execute(query);
      };
    }
    return Reflect.get(target, prop, receiver) as unknown;
  },
});
const watched = {
  ...database,
  db,
  prepared: <T>(name: string | null, query: SQL) => {
    capture(query);
    return database.prepared<T>(name, query);
  },
};

const pool = new pg.Pool({ connectionString: url, max: 1 });
const { rows: counts } = await pool.query<{ services: number; entries: number }>(
  'select (select count(*)::int from services) as services, (select count(*)::int from entries) as entries',
);
const [{ services, entries }] = counts;

const SCENARIOS: Array<{ key: string; filters: Record<string, unknown>; sort?: SortValue<ServiceOverviewSort> }> = [
  { key: 'default', filters: {} },
  { key: 'title', filters: {}, sort: 'title' },
  { key: 'begda desc', filters: {}, sort: '-begda' },
  { key: 'price desc', filters: {}, sort: '-price' },
  { key: 'entries desc', filters: {}, sort: '-entries' },
  { key: 'income desc', filters: {}, sort: '-income' },
  { key: 'free asc', filters: {}, sort: 'free' },
  { key: 'type 2', filters: { dict_type_id: 2 } },
  { key: 'type 2 + income desc', filters: { dict_type_id: 2 }, sort: '-income' },
  { key: 'search «семинар»', filters: { q: 'семинар' } },
  { key: 'hidden', filters: { is_visible: false } },
  { key: 'dates 01.09-31.12.2026', filters: { date_from: '01.09.2026', date_to: '31.12.2026' } },
];

const table: Array<Array<string | number>> = [];
const results: Array<{ key: string; median_ms: number; total: number }> = [];
const plans: string[] = [];
for (const s of SCENARIOS) {
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < runs; i++) {
    captured = [];
    const started = performance.now();
    const page = await listServiceOverview(watched, s.filters, { page: 1, per_page: 15, sort: s.sort });
    times.push(performance.now() - started);
    total = page.meta.total;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  results.push({ key: s.key, median_ms: Math.round(median * 10) / 10, total });
  table.push([s.key, total, median.toFixed(1), captured.length]);
  if (args.flag('explain')) {
    for (const c of captured) {
      const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${c.sql}`, c.params);
      plans.push(`### ${s.key}\n${c.sql}\n${JSON.stringify(c.params)}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
    }
  }
}

console.log(`services ${services}, entries ${entries}; median of ${runs} calls (ms), page of 15`);
printTable(['scenario', 'total', 'median ms', 'statements'], table);
writeResult('service-overview', { services, entries, runs, results });
if (plans.length) {
  fs.writeFileSync(resultsPath('service-overview-explain.txt'), plans.join('\n'));
  console.log(`plans: ${resultsPath('service-overview-explain.txt')}`);
}
await database.close();
await pool.end();
