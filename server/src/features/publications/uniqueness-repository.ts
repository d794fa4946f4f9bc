// Storage of the uniqueness engine: fingerprints of every publication text as (hash, publication,
// position) rows behind a btree on the hash, the candidate query, and the check of one publication
// whose result is stored on it. The job (jobs.ts) and the publication screens call checkPublication.
import { sql } from 'drizzle-orm';
import { rows, type Queryable } from '../../platform/db.ts';
import { bigintArray, intArray } from '../../platform/list-query.ts';
import {
  DEFAULT_CANDIDATES,
  stemCodesFromBytes,
  stemCodesToBytes,
  type CandidateOptions,
  type CheckResult,
  type Fingerprints,
  type CompareSource,
  type PreparedText,
  type UniquenessWork,
} from './uniqueness/engine.ts';
import { sliceFingerprints } from './uniqueness/fingerprint.ts';

/**
 * Fingerprint rows one insert writes at most. The embedded PGlite runs one statement at a time and
 * cannot even take a request's statement in while one runs: 20 000 fingerprint rows in one insert
 * held it for 1.3 s, 1 000 rows for 20-30 ms (issue 29), which each of a request's statements could
 * wait for in turn. 250 rows take 5-8 ms there; the loop yields between them.
 */
export const INDEX_CHUNK = 250;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Deletes a publication's fingerprints in one statement: a delete only marks its rows, about 10 ms
 * for a 480 000-character text's 15 000 on PGlite, where deleting them `INDEX_CHUNK` rows at a time
 * read the publication's index entries again for every chunk (20 times the work, issue 29).
 */
async function deleteFingerprints(db: Queryable, publicationId: number): Promise<void> {
  await db.execute(sql`delete from publication_fingerprints where publication_id = ${publicationId}`);
}

/**
 * Replaces the stored fingerprints and stem codes of a publication with those of its prepared plain
 * text (none for no text), written `INDEX_CHUNK` rows a statement.
 */
export async function indexPublication(db: Queryable, publicationId: number, prepared: PreparedText | null): Promise<number> {
  await deleteFingerprints(db, publicationId);
  await db.execute(sql`delete from publication_stems where publication_id = ${publicationId}`);
  const count = prepared?.stored.hashes.length ?? 0;
  if (!prepared || count === 0) return 0;
  for (let from = 0; from < count; from += INDEX_CHUNK) {
    const part = sliceFingerprints(prepared.stored, from, from + INDEX_CHUNK);
    await yieldToRequests();
    await db.execute(sql`
      insert into publication_fingerprints (hash, publication_id, position)
      select h, ${publicationId}, p from unnest(${bigintArray(part.hashes)}, ${intArray(part.positions)}) as t(h, p)`);
  }
  const codes = stemCodesToBytes(prepared.codes);
  // As hex text: PGlite turns a bytea parameter into text byte by byte (40 ms for 280 000 bytes, against 7).
  await db.execute(
    sql`insert into publication_stems (publication_id, codes) values (${publicationId}, decode(${Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength).toString('hex')}, 'hex'))`,
  );
  return count;
}

/** Removes a publication from the stored texts (deleted publications are no source). */
export async function removePublicationIndex(db: Queryable, publicationId: number): Promise<void> {
  await deleteFingerprints(db, publicationId);
  await db.execute(sql`delete from publication_stems where publication_id = ${publicationId}`);
}

export interface UniquenessSource {
  id: number;
  url: string | null;
}

/** Milliseconds spent in each stage of one check, and how many candidate texts were aligned. */
export interface CheckTimings {
  /** Normalising, tokenising and stemming the checked text, and its winnowed fingerprints. */
  analyse: number;
  /** The candidate query (postings of the shared hashes). */
  query: number;
  /** Loading the candidates' texts. */
  fetch: number;
  /** Aligning and scoring (a candidate stored without stem codes is analysed here). */
  align: number;
  candidates: number;
}

/**
 * The candidate query runs over the checked text's hashes `QUERY_CHUNK` at a time (each hash one
 * index probe): on PGlite one query over the 19 500 hashes of a 480 000-character text held the
 * request thread for 1.7 s (issue 29).
 */
export const QUERY_CHUNK = 500;

/** Hashes of the chunk not on the stop-list, and their postings (at most `maxPostings + 1` each). */
function chunkHits(fingerprints: Fingerprints, excludeId: number, c: CandidateOptions) {
  return sql`q as (select h, p from unnest(${bigintArray(fingerprints.hashes)}, ${intArray(fingerprints.positions)}) as t(h, p)
                  where not exists (select 1 from publication_common_hashes c where c.hash = t.h and c.postings > ${c.maxPostings})),
        hits as materialized (
          select q.h, q.p, f.publication_id, f.position from q
          cross join lateral (select publication_id, position from publication_fingerprints f
                              where f.hash = q.h and f.publication_id <> ${excludeId} limit ${c.maxPostings + 1}) f
        ),
        common as (select h, count(distinct publication_id)::int as n from hits group by h having count(distinct publication_id) > ${c.maxPostings})`;
}

/**
 * The candidate query's first pass, over one chunk of the checked text's (distinct) hashes: one
 * `LATERAL ... LIMIT maxPostings + 1` probe per hash over the btree (hash, publication_id, position)
 * (an index-only scan). Hashes the stop-list (`publication_common_hashes`) knows to be stored for
 * more than `maxPostings` texts are not probed; hashes found so now come back in `common`
 * ('hash:texts' joined by ';') for the caller to add to it. `shared` tells, for each stored text,
 * how many of the chunk's other hashes it holds ('publication:count' joined by ';').
 */
export function candidateQuery(fingerprints: Fingerprints, excludeId: number, c: CandidateOptions) {
  return sql`with ${chunkHits(fingerprints, excludeId, c)},
        shared as (select publication_id, count(distinct h) as n from hits where h not in (select h from common) group by publication_id)
        select (select string_agg(publication_id || ':' || n, ';') from shared) as shared,
               (select string_agg(h || ':' || n, ';') from common) as common`;
}

/** The second pass, over the same chunk: the postings of the chosen texts (CandidatePostings, one text). */
function postingsQuery(fingerprints: Fingerprints, excludeId: number, c: CandidateOptions, ids: number[]) {
  return sql`with ${chunkHits(fingerprints, excludeId, c)}
        select string_agg(publication_id || ',' || h || ',' || p || ',' || position, ';') as postings from hits
        where h not in (select h from common) and publication_id = any(${intArray(ids)})`;
}

/**
 * Stored texts whose postings the candidate query returns, most shared hashes first: the chain
 * filter then keeps at most `maxCandidates` of them. Several times that many, so texts sharing
 * scattered chance hashes do not crowd out a real source.
 */
const CANDIDATE_ROWS = 200;

/**
 * Checks a text against the stored publications (all but `excludeId` and deleted ones). Hashes
 * stored for more than `maxPostings` texts are stock phrases and are skipped (and remembered in the
 * stop-list); the postings of the others pick the candidates (selectCandidates), whose stem codes
 * are aligned with the checked text. Analysis and alignment are handed to `work` (worker threads in
 * the app); a text already prepared is not analysed again.
 */
export async function checkText(
  db: Queryable,
  input: string | PreparedText,
  opts: { work: UniquenessWork; excludeId?: number; candidates?: CandidateOptions; storedStems?: boolean },
): Promise<{ result: CheckResult<number>; sources: Map<number, UniquenessSource>; timings: CheckTimings; prepared: PreparedText }> {
  const c = opts.candidates ?? DEFAULT_CANDIDATES;
  const t0 = performance.now();
  const prepared = typeof input === 'string' ? await opts.work.prepare(input) : input;
  const fingerprints = prepared.query;
  const sources = new Map<number, UniquenessSource>();
  const t1 = performance.now();
  const timings: CheckTimings = { analyse: t1 - t0, query: 0, fetch: 0, align: 0, candidates: 0 };
  const count = fingerprints.hashes.length;
  if (count === 0) return { result: await opts.work.compare(prepared, []), sources, timings, prepared };
  const exclude = opts.excludeId ?? -1;
  // First pass: the distinct shared hashes of every stored text (the chunks' hashes are disjoint,
  // so the counts add up) and the hashes stored for too many texts.
  const shared = new Map<number, number>();
  const common: Array<{ hash: string; n: number }> = [];
  for (let from = 0; from < count; from += QUERY_CHUNK) {
    const [r] = await rows<{ shared: string | null; common: string | null }>(
      db,
      candidateQuery(sliceFingerprints(fingerprints, from, from + QUERY_CHUNK), exclude, c),
    );
    for (const pair of r.shared ? r.shared.split(';') : []) {
      const [id, n] = pair.split(':');
      shared.set(Number(id), (shared.get(Number(id)) ?? 0) + Number(n));
    }
    for (const pair of r.common ? r.common.split(';') : []) {
      const [hash, n] = pair.split(':');
      common.push({ hash, n: Number(n) });
    }
  }
  if (common.length) {
    await db.execute(sql`
      insert into publication_common_hashes (hash, postings)
      select h, n from unnest(${bigintArray(common.map((x) => x.hash))}, ${intArray(common.map((x) => x.n))}) as t(h, n)
      on conflict (hash) do update set postings = greatest(publication_common_hashes.postings, excluded.postings)`);
  }
  // Only the `CANDIDATE_ROWS` texts sharing most distinct hashes (at least `minShared`) return their
  // postings; they are parsed and filtered (selectCandidates) in `work`.
  const ranked = [...shared]
    .filter(([, n]) => n >= c.minShared)
    .sort((x, y) => y[1] - x[1] || x[0] - y[0])
    .slice(0, CANDIDATE_ROWS)
    .map(([id]) => id);
  const postings: string[] = [];
  if (ranked.length) {
    for (let from = 0; from < count; from += QUERY_CHUNK) {
      const [r] = await rows<{ postings: string | null }>(db, postingsQuery(sliceFingerprints(fingerprints, from, from + QUERY_CHUNK), exclude, c, ranked));
      if (r.postings) postings.push(r.postings);
    }
  }
  const ids = postings.length ? await opts.work.select(postings, c) : [];
  const t2 = performance.now();
  // The candidates' stored stem codes; the text only of one indexed before codes were stored.
  const candidates = ids.length
    ? await rows<{ id: number; url: string | null; codes: string | null; text: string | null }>(
        db,
        // The codes as hex text: PGlite parses a bytea answer byte by byte (29 ms for 280 000 bytes, against 2).
        sql`select p.id, p.url, encode(s.codes, 'hex') as codes, case when s.codes is null or ${opts.storedStems === false} then p.text end as text
            from publications p left join publication_stems s on s.publication_id = p.id
            where p.id in (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )}) and p.deleted_at is null and p.text is not null`,
      )
    : [];
  const t3 = performance.now();
  const sourceList: Array<CompareSource<number>> = [];
  for (const s of candidates) {
    sources.set(s.id, { id: s.id, url: s.url });
    if (s.text !== null) sourceList.push({ id: s.id, html: s.text });
    else if (s.codes !== null) sourceList.push({ id: s.id, codes: stemCodesFromBytes(Buffer.from(s.codes, 'hex')) });
  }
  const result = await opts.work.compare(prepared, sourceList);
  Object.assign(timings, { query: t2 - t1, fetch: t3 - t2, align: performance.now() - t3, candidates: candidates.length });
  return { result, sources, timings, prepared };
}

/**
 * Refills the stop-list from every stored fingerprint: each hash stored for more than `maxPostings`
 * texts, with its count (one pass over the hash index; 47 s at 100 000 texts). The checks learn
 * the list only from what they probe, and miss a hash repeated inside texts; this pass does not.
 * Hashes already listed stay (a stock phrase stays one when its texts are deleted). Answers how
 * many hashes the list holds.
 */
export async function refreshStopList(db: Queryable, maxPostings = DEFAULT_CANDIDATES.maxPostings): Promise<number> {
  await db.execute(sql`
    insert into publication_common_hashes (hash, postings)
    select hash, count(distinct publication_id)::int from publication_fingerprints group by hash having count(distinct publication_id) > ${maxPostings}
    on conflict (hash) do update set postings = greatest(publication_common_hashes.postings, excluded.postings)`);
  const [{ n }] = await rows<{ n: number }>(db, sql`select count(*)::int as n from publication_common_hashes`);
  return n;
}

export interface PublicationUniqueness {
  uniqueness: number;
  /** Borrowed word indexes and character spans of the publication's plain text. */
  highlight: number[];
  spans: Array<[number, number]>;
  matches: Array<{ source_publication_id: number; url: string; percent: number; highlight: number[]; spans: Array<[number, number]> }>;
}

/**
 * Indexes a publication's current text (replacing what was stored for it) and checks it against the
 * other stored publications; the percent, the highlighted words and spans, and the matching sources
 * are stored on the publication. Answers null, changing nothing, for a deleted or missing publication
 * or one without text (a file only: the spec disables the check for it).
 *
 * The analysis and the alignment run outside any transaction (in `work`: worker threads in the app),
 * so a long text holds no row lock and no connection meanwhile; the result is stored in one short
 * transaction under the row lock, and only if the text is still the one checked (an edit made
 * meanwhile answers 'stale': its own check is due).
 */
export async function checkPublication(db: Queryable, publicationId: number, work: UniquenessWork): Promise<PublicationUniqueness | null | 'stale'> {
  const [pub] = await rows<{ text: string | null; digest: string | null; deleted_at: Date | null }>(
    db,
    sql`select text, text_digest as digest, deleted_at from publications where id = ${publicationId}`,
  );
  if (!pub || pub.deleted_at) {
    if (pub) await removePublicationIndex(db, publicationId);
    return null;
  }
  // The plain text, its analysis and fingerprints are made in `work` (a worker), not here.
  const prepared = pub.text ? await work.prepareHtml(pub.text) : null;
  if (!prepared || !prepared.text.trim()) {
    await indexPublication(db, publicationId, null);
    return null;
  }
  const { result, sources } = await checkText(db, prepared, { excludeId: publicationId, work });
  const outcome: PublicationUniqueness = {
    uniqueness: result.uniqueness,
    highlight: result.words,
    spans: result.spans,
    matches: result.matches.map((m) => ({
      source_publication_id: m.source,
      url: sources.get(m.source)?.url ?? '',
      percent: m.percent,
      highlight: m.words,
      spans: m.spans,
    })),
  };
  // The index is replaced before the result is stored, in short statements outside the transaction
  // (on PGlite a transaction holds the database for everyone: a 20 000-row index written inside it
  // made every other request wait). An edit or a second check meanwhile is harmless: the edit's
  // check ('stale' below) replaces the index again, and the candidate query counts distinct hashes.
  const [still] = await rows<{ same: boolean }>(
    db,
    sql`select text_digest is not distinct from ${pub.digest} and deleted_at is null as same from publications where id = ${publicationId}`,
  );
  if (!still?.same) return 'stale';
  await indexPublication(db, publicationId, prepared);
  return db.transaction(async (tx) => {
    // The row lock serialises two stores of one publication (the job and the 'Проверить' button).
    const [now] = await rows<{ digest: string | null; deleted_at: Date | null }>(
      tx,
      sql`select text_digest as digest, deleted_at from publications where id = ${publicationId} for update`,
    );
    if (!now || now.deleted_at) {
      if (now) await removePublicationIndex(tx, publicationId);
      return null;
    }
    if (now.digest !== pub.digest) return 'stale' as const;
    await tx.execute(sql`
      update publications set uniqueness = ${outcome.uniqueness}, highlight = ${JSON.stringify(outcome.highlight)}::jsonb,
        uniqueness_spans = ${JSON.stringify(outcome.spans)}::jsonb, uniqueness_checked_at = now()
      where id = ${publicationId}`);
    await tx.execute(sql`delete from publication_matches where publication_id = ${publicationId}`);
    for (const m of outcome.matches) {
      await tx.execute(sql`
        insert into publication_matches (publication_id, url, source_publication_id, percent, highlight, spans)
        values (${publicationId}, ${m.url}, ${m.source_publication_id}, ${m.percent}, ${JSON.stringify(m.highlight)}::jsonb, ${JSON.stringify(m.spans)}::jsonb)`);
    }
    return outcome;
  });
}
