import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { resultsPath } from './results.ts';

// Bulk loading: a million rows go in several times faster when the table's secondary indexes are
// built once afterwards instead of updated row by row. The definitions are saved to
// bench/results/dropped-indexes-<table>.json before they are dropped, so a run that dies half way
// puts them back at its next start (restoreIndexes).

interface SavedIndex {
  name: string;
  definition: string;
}

const savedFile = (table: string) => resultsPath(`dropped-indexes-${table}.json`);

/** Secondary indexes of a table: every index except those backing a constraint (primary key). */
async function secondaryIndexes(pool: pg.Pool, table: string): Promise<SavedIndex[]> {
  const { rows } = await pool.query<SavedIndex>(
    `select i.relname as name, pg_get_indexdef(i.oid) as definition
     from pg_index x join pg_class i on i.oid = x.indexrelid
     where x.indrelid = $1::regclass and not exists (select 1 from pg_constraint c where c.conindid = i.oid)
     order by i.relname`,
    [table],
  );
  return rows;
}

/** Creates the indexes a previous run dropped and did not restore. Returns their names. */
export async function restoreIndexes(pool: pg.Pool, table: string): Promise<string[]> {
  const file = savedFile(table);
  if (!fs.existsSync(file)) return [];
  const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedIndex[];
  const present = new Set((await secondaryIndexes(pool, table)).map((i) => i.name));
  const missing = saved.filter((i) => !present.has(i.name));
  await createIndexes(pool, missing);
  fs.rmSync(file);
  return missing.map((i) => i.name);
}

async function createIndexes(pool: pg.Pool, list: SavedIndex[]): Promise<void> {
  // Two at a time (this machine has two cores); each with generous sort memory.
  let next = 0;
  const worker = async () => {
    const client = await pool.connect();
    try {
      await client.query(`set maintenance_work_mem = '256MB'`);
      while (next < list.length) await client.query(list[next++].definition);
    } finally {
      client.release();
    }
  };
  await Promise.all([worker(), worker()]);
}

/** Runs fn with the table's secondary indexes dropped, then builds them again (also when fn fails). */
export async function withoutSecondaryIndexes<T>(
  pool: pg.Pool,
  table: string,
  fn: () => Promise<T>,
): Promise<{ result: T; indexes: string[]; rebuildMs: number }> {
  await restoreIndexes(pool, table);
  const list = await secondaryIndexes(pool, table);
  fs.writeFileSync(savedFile(table), JSON.stringify(list, null, 2) + '\n');
  for (const i of list) await pool.query(`drop index if exists "${i.name}"`);
  let result: T;
  let rebuildMs = 0;
  try {
    result = await fn();
  } finally {
    const t = performance.now();
    await createIndexes(pool, list);
    fs.rmSync(savedFile(table));
    rebuildMs = performance.now() - t;
  }
  return { result, indexes: list.map((i) => i.name), rebuildMs };
}
