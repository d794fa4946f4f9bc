import { sql, type SQL } from 'drizzle-orm';
import { pageMeta, sortParts, type PageMeta, type PageQuery, type SortValue } from '@edu/domain/common/pagination';
import { rows, type Database, type Queryable } from './db.ts';

// The one way operator lists are answered (GET /api/{resource}: filters, sort, page, per_page ->
// {data, meta: {current_page, last_page, total, per_page}}). A list route describes its filters
// as SQL conditions and its order; this file counts, pages and shapes the answer.

/** Escapes LIKE wildcards so user text is matched literally. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/** `%text%` for ILIKE: a substring match (served by pg_trgm indexes where they exist). */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;
/** `text%`: a prefix match (served by a btree index with text_pattern_ops or a plain one on C collation). */
export const prefixPattern = (text: string) => `${escapeLike(text)}%`;

/**
 * Whether a trigram index finds every `%text%` of these texts for any value, so a statement with
 * them bound can be planned once (prepared): each run of letters or digits has three or more
 * characters. A shorter run has no trigram to look up, and needs a plan made for its value.
 */
export const trigramsServe = (texts: string[]) =>
  texts.every((t) => t.split(/[^\p{L}\p{N}]+/u).every((run) => run === '' || run.length >= 3)) && texts.some((t) => /[\p{L}\p{N}]/u.test(t));

/** Condition parts; null, undefined and false are skipped. */
export type Condition = SQL | null | undefined | false;

/** The parts joined with AND; `true` when there are none. */
export function allOf(parts: Condition[]): SQL {
  const kept = parts.filter((p): p is SQL => Boolean(p));
  return kept.length ? sql.join(kept, sql` and `) : sql`true`;
}

/** A value of `?x=` kept only when filled in ('' and undefined mean no filter). */
export function when<T>(value: T | undefined | null | '', build: (v: T) => SQL): SQL | null {
  return value === undefined || value === null || value === '' ? null : build(value);
}

/**
 * A user's full name as one string, the expression of the trigram index users_full_name_trgm_idx
 * (migration 0014): a condition on it must be written exactly like this to use the index.
 */
export function fullNameExpression(alias = 'u'): SQL {
  const a = sql.raw(alias);
  return sql`(${a}.last_name || ' ' || ${a}.first_name || ' ' || coalesce(${a}.middle_name, ''))`;
}

/**
 * One typed word of a name, found in the last, first or middle name. A typed word has no spaces,
 * so matching it inside 'last first middle' is the same as matching it inside one of the three,
 * and one trigram index serves every word.
 */
export const nameWordMatches = (word: string, alias = 'u'): SQL => sql`${fullNameExpression(alias)} ilike ${containsPattern(word)}`;

/** The words of a typed full name (at most three). */
export const fioWords = (fio: string | undefined) => (fio ?? '').split(/\s+/).filter(Boolean).slice(0, 3);

/**
 * Up to three words of a full name, each found in the last, first or middle name (any order:
 * «Иванова Мария» and «Мария Иванова» find the same person). `alias` is the users table alias.
 */
export function fioCondition(fio: string | undefined, alias = 'u'): SQL | null {
  const words = fioWords(fio);
  if (words.length === 0) return null;
  return allOf(words.map((w) => nameWordMatches(w, alias)));
}

export interface ListSpec<Row, Out> {
  /** `select <columns>` without FROM. */
  select: SQL;
  /** `from <table> <alias> [joins]`, shared by the page and the count. */
  from: SQL;
  /** A cheaper FROM for the count, when the page joins tables the filter does not need. */
  countFrom?: SQL;
  where: SQL;
  order: SQL;
  page: PageQuery;
  map: (row: Row) => Out;
  /**
   * Count at most this many matches and report cap + 1 past it ('more than N'): a broad filter
   * over a huge table should not count a million rows for the page links.
   */
  countCap?: number;
  /**
   * Take the matches first, then sort only them: for filters whose matches the planner cannot
   * foresee (LIKE patterns), which otherwise walk the whole table in list order looking for them
   * (or semi-join every row of that walk with the matches). `matches` selects, from the filter's
   * own index, the key `id` and every column `order` reads, under `alias` (e.g. `select u.id,
   * u.created_at from users u where ...`); it is materialized and sorted alone, and the page reads
   * the rows of its page's keys by `key = any(...)` (a prepared statement). The total and the
   * page's keys come from one statement over the same matches.
   */
  idsFirst?: { matches: SQL; alias: string; key: SQL };
  /**
   * Run both statements as prepared statements on PostgreSQL (planned once per connection).
   * Leave off when a LIKE pattern is bound: its plan depends on the value.
   */
  prepared?: boolean;
}

export interface ListPage<Out> {
  data: Out[];
  meta: PageMeta;
}

/** A PostgreSQL array literal, {1,2,3}: one parameter however many values (bigints travel as text: they exceed JS numbers). */
export const arrayLiteral = (values: ReadonlyArray<bigint | number | string> | BigInt64Array | Int32Array) => `{${values.join(',')}}`;

/** An int[] parameter: `= any(${intArray(ids)})`. */
export const intArray = (ids: readonly number[] | Int32Array) => sql`${arrayLiteral(ids)}::int[]`;

/** A bigint[] parameter. */
export const bigintArray = (values: ReadonlyArray<bigint | number | string> | BigInt64Array) => sql`${arrayLiteral(values)}::bigint[]`;

/** Runs a list: one count and one page query; answers {data, meta}. */
export async function listPage<Row, Out>(database: Database | Queryable, spec: ListSpec<Row, Out>): Promise<ListPage<Out>> {
  const isDatabase = 'prepared' in database && 'db' in database;
  const plain = <T>(query: SQL): Promise<T[]> => (isDatabase ? rows<T>(database.db, query) : rows<T>(database as Queryable, query));
  const named = <T>(query: SQL): Promise<T[]> => (isDatabase ? database.prepared<T>(null, query) : rows<T>(database as Queryable, query));
  const run = spec.prepared ? named : plain;
  const from = spec.countFrom ?? spec.from;
  const limit = spec.countCap ? sql` limit ${spec.countCap + 1}` : sql``;
  const offset = (spec.page.page - 1) * spec.page.per_page;
  const ids = spec.idsFirst;
  if (ids) {
    // One statement finds the matches once for both the total and the page's keys; the wide select
    // of those keys has no pattern in it, so it is a prepared statement (planned once per connection).
    const alias = sql.raw(ids.alias);
    const [found] = await run<{ total: number; keys: number[] }>(
      sql`with m as materialized (${ids.matches})
        select (select count(*)::int from (select 1 from m${limit}) x) as total,
          array(select ${alias}.id from m ${alias} order by ${spec.order} limit ${spec.page.per_page} offset ${offset}) as keys`,
    );
    const list = found.keys.length
      ? await named<Row>(sql`${spec.select} ${spec.from} where ${ids.key} = any(${intArray(found.keys)}) order by ${spec.order}`)
      : [];
    return { data: list.map(spec.map), meta: pageMeta(found.total, spec.page) };
  }
  const count = spec.countCap
    ? sql`select count(*)::int as total from (select 1 ${from} where ${spec.where}${limit}) x`
    : sql`select count(*)::int as total ${from} where ${spec.where}`;
  const page = sql`${spec.select} ${spec.from} where ${spec.where} order by ${spec.order} limit ${spec.page.per_page} offset ${offset}`;
  const [[{ total }], list] = await Promise.all([run<{ total: number }>(count), run<Row>(page)]);
  return { data: list.map(spec.map), meta: pageMeta(total, spec.page) };
}

/**
 * One sortable column of a list: its SQL (never null, so pages and keyset batches compare it) and
 * the SQL type its value is read back as (the export's keyset passes the last row's key as text).
 */
export interface SortColumn {
  sql: SQL;
  type: 'timestamptz' | 'numeric' | 'text' | 'int';
}

/** A list's order: one column, its direction, and the id tie-breaker in the same direction. */
export interface ListSort {
  column: SortColumn;
  desc: boolean;
  /** The tie-breaker (the row's id): equal keys keep one order, so pages never repeat or skip a row. */
  tie: SQL;
}

/** The list's order for `?sort=` (already whitelisted by the query schema) or its default. */
export function listSort<K extends string>(
  sort: SortValue<K> | undefined,
  columns: Record<K, SortColumn>,
  fallback: SortValue<K>,
  tie: SQL,
): ListSort & { key: K } {
  const parts = sortParts(sort) ?? sortParts(fallback);
  const { key, desc } = parts as { key: K; desc: boolean };
  return { key, column: columns[key], desc, tie };
}

/** `<column> asc|desc, <id> asc|desc` (no ORDER BY keyword); `nullsLast` puts rows without a value last both ways (not for keyset batches). */
export function sortSql(s: ListSort, column: SQL = s.column.sql, tie: SQL = s.tie, nullsLast = false): SQL {
  const dir = sql.raw(s.desc ? 'desc' : 'asc');
  return nullsLast ? sql`${column} ${dir} nulls last, ${tie} ${dir}` : sql`${column} ${dir}, ${tie} ${dir}`;
}

/** The keyset condition of the rows after (key, id) in the sort's order, for batched exports. */
export function afterKey(s: ListSort, last: { key: string; id: number }): SQL {
  const cast = sql.raw(s.column.type);
  return s.desc ? sql`(${s.column.sql}, ${s.tie}) < (${last.key}::${cast}, ${last.id})` : sql`(${s.column.sql}, ${s.tie}) > (${last.key}::${cast}, ${last.id})`;
}
