// The queries of `npm run backup` and `npm run restore`, the same on PGlite and PostgreSQL.
import { sql } from 'drizzle-orm';
import { rows, type Queryable } from '../platform/db.ts';

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The tables of the install (every schema but the system ones), as `schema.table`, sorted. */
export async function listTables(db: Queryable): Promise<string[]> {
  const found = await rows<{ s: string; t: string }>(
    db,
    sql`select table_schema as s, table_name as t from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
        order by 1, 2`,
  );
  return found.map((r) => `${r.s}.${r.t}`);
}

/** Rows of each table, in one statement (one snapshot). */
export async function countRows(db: Queryable): Promise<Record<string, number>> {
  const tables = await listTables(db);
  if (tables.length === 0) return {};
  const parts = tables.map((name, i) => {
    const [schema, table] = [name.slice(0, name.indexOf('.')), name.slice(name.indexOf('.') + 1)];
    return `select ${i} as i, count(*)::bigint::text as n from ${ident(schema)}.${ident(table)}`;
  });
  const counted = await rows<{ i: number; n: string }>(db, sql.raw(parts.join(' union all ')));
  const result: Record<string, number> = {};
  for (const r of counted) result[tables[Number(r.i)]] = Number(r.n);
  return Object.fromEntries(tables.map((t) => [t, result[t] ?? 0]));
}

/** The `when` (journal time) of the latest migration applied, or null on a database never migrated. */
export async function latestMigrationWhen(db: Queryable): Promise<number | null> {
  const [table] = await rows<{ ok: boolean }>(db, sql`select to_regclass('drizzle.__drizzle_migrations') is not null as ok`);
  if (!table.ok) return null;
  const [r] = await rows<{ w: string | null }>(db, sql`select max(created_at)::text as w from drizzle.__drizzle_migrations`);
  return r.w === null ? null : Number(r.w);
}

/** Whether the install holds people's data (any account): an empty install has at most dictionaries and shipped templates. */
export async function hasAccounts(db: Queryable): Promise<boolean> {
  const [table] = await rows<{ ok: boolean }>(db, sql`select to_regclass('public.users') is not null as ok`);
  if (!table.ok) return false;
  const [r] = await rows<{ any: boolean }>(db, sql`select exists (select 1 from public.users) as any`);
  return r.any;
}

/** Storage keys of the files rows whose bytes should be in the store (not purged after retention). */
export async function storedFileKeys(db: Queryable): Promise<string[]> {
  const [table] = await rows<{ ok: boolean }>(db, sql`select to_regclass('public.files') is not null as ok`);
  if (!table.ok) return [];
  const found = await rows<{ k: string }>(db, sql`select storage_key as k from public.files where purged_at is null order by id`);
  return found.map((r) => r.k);
}
