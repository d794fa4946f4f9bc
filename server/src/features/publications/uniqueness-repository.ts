// Storage of the uniqueness engine: fingerprints of every publication text as (hash, publication,
// position) rows behind a btree on the hash, the candidate query, and the check of one publication
// whose result is stored on it. The job (jobs.ts) and the publication screens call checkPublication.
import { sql } from 'drizzle-orm';
import { rows, type Queryable } from '../../platform/db.ts';
import { bigintArray, intArray } from '../../platform/list-query.ts';
import {
  DEFAULT_CANDIDATES,
  selectCandidates,
  stemCodesFromBytes,
  stemCodesToBytes,
  type CandidateOptions,
  type CheckResult,
  type CompareSource,
  type Posting,
  type PreparedText,
  type UniquenessWork,
} from './uniqueness/engine.ts';
import { publicationPlainText } from './uniqueness/plain-text.ts';

/** Replaces the stored fingerprints and stem codes of a publication with those of its prepared plain text (none for no text). */
export async function indexPublication(db: Queryable, publicationId: number, prepared: PreparedText | null): Promise<number> {
  await db.execute(sql`delete from publication_fingerprints where publication_id = ${publicationId}`);
  await db.execute(sql`delete from publication_stems where publication_id = ${publicationId}`);
  const fingerprints = prepared?.stored ?? [];
  if (!prepared || fingerprints.length === 0) return 0;
  await db.execute(sql`
    insert into publication_fingerprints (hash, publication_id, position)
    select h, ${publicationId}, p from unnest(${bigintArray(fingerprints.map((f) => f.hash))}, ${intArray(fingerprints.map((f) => f.position))}) as t(h, p)`);
  const codes = stemCodesToBytes(prepared.codes);
  await db.execute(
    sql`insert into publication_stems (publication_id, codes) values (${publicationId}, ${Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength)})`,
  );
  return fingerprints.length;
}

/** Removes a publication from the stored texts (deleted publications are no source). */
export async function removePublicationIndex(db: Queryable, publicationId: number): Promise<void> {
  await db.execute(sql`delete from publication_fingerprints where publication_id = ${publicationId}`);
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
 * The candidate query: the postings of the checked text's hashes, one `LATERAL ... LIMIT
 * maxPostings + 1` probe per hash over the btree (hash, publication_id, position) (an index-only
 * scan). Hashes the stop-list (`publication_common_hashes`) knows to be stored for more than
 * `maxPostings` texts are not probed; hashes found so now are answered as `common` rows (no
 * publication) for the caller to add to it. Only the `limit` stored texts sharing most distinct
 * hashes (at least `minShared`) return their postings.
 */
export function candidateQuery(fingerprints: Array<{ hash: bigint; position: number }>, excludeId: number, c: CandidateOptions, limit = CANDIDATE_ROWS) {
  return sql`with q as (select h, p from unnest(${bigintArray(fingerprints.map((f) => f.hash))}, ${intArray(fingerprints.map((f) => f.position))}) as t(h, p)
                  where not exists (select 1 from publication_common_hashes c where c.hash = t.h and c.postings > ${c.maxPostings})),
        hits as materialized (
          select q.h, q.p, f.publication_id, f.position from q
          cross join lateral (select publication_id, position from publication_fingerprints f
                              where f.hash = q.h and f.publication_id <> ${excludeId} limit ${c.maxPostings + 1}) f
        ),
        common as (select h, count(distinct publication_id)::int as n from hits group by h having count(distinct publication_id) > ${c.maxPostings}),
        kept as materialized (select * from hits where h not in (select h from common)),
        ranked as (select publication_id from kept group by publication_id having count(distinct h) >= ${c.minShared}
                   order by count(distinct h) desc, publication_id limit ${limit})
        select publication_id, h::text as h, p as check_position, position from kept where publication_id in (select publication_id from ranked)
        union all
        select null, h::text, n, null from common`;
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
  if (fingerprints.length === 0) return { result: await opts.work.compare(prepared, []), sources, timings, prepared };
  const exclude = opts.excludeId ?? -1;
  const hits = await rows<{ publication_id: number | null; h: string; check_position: number; position: number | null }>(
    db,
    candidateQuery(fingerprints, exclude, c),
  );
  const postings: Array<Posting<number>> = [];
  const common: Array<{ hash: string; n: number }> = [];
  for (const r of hits) {
    if (r.publication_id === null) common.push({ hash: r.h, n: r.check_position });
    else postings.push({ hash: BigInt(r.h), source: r.publication_id, checkPosition: r.check_position, position: r.position! });
  }
  if (common.length) {
    await db.execute(sql`
      insert into publication_common_hashes (hash, postings)
      select h, n from unnest(${bigintArray(common.map((x) => x.hash))}, ${intArray(common.map((x) => x.n))}) as t(h, n)
      on conflict (hash) do update set postings = greatest(publication_common_hashes.postings, excluded.postings)`);
  }
  const ids = selectCandidates(postings, c);
  const t2 = performance.now();
  // The candidates' stored stem codes; the text only of one indexed before codes were stored.
  const candidates = ids.length
    ? await rows<{ id: number; url: string | null; codes: Uint8Array | string | null; text: string | null }>(
        db,
        sql`select p.id, p.url, s.codes, case when s.codes is null or ${opts.storedStems === false} then p.text end as text
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
    if (s.text !== null) sourceList.push({ id: s.id, text: publicationPlainText(s.text) });
    else if (s.codes !== null)
      sourceList.push({ id: s.id, codes: stemCodesFromBytes(typeof s.codes === 'string' ? Buffer.from(s.codes.slice(2), 'hex') : s.codes) });
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
  const [pub] = await rows<{ text: string | null; deleted_at: Date | null }>(db, sql`select text, deleted_at from publications where id = ${publicationId}`);
  if (!pub || pub.deleted_at) {
    if (pub) await removePublicationIndex(db, publicationId);
    return null;
  }
  const plain = pub.text ? publicationPlainText(pub.text) : '';
  if (!plain.trim()) {
    await indexPublication(db, publicationId, null);
    return null;
  }
  const { result, sources, prepared } = await checkText(db, plain, { excludeId: publicationId, work });
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
  return db.transaction(async (tx) => {
    // The row lock serialises two stores of one publication (the job and the 'Проверить' button).
    const [now] = await rows<{ text: string | null; deleted_at: Date | null }>(
      tx,
      sql`select text, deleted_at from publications where id = ${publicationId} for update`,
    );
    if (!now || now.deleted_at) {
      if (now) await removePublicationIndex(tx, publicationId);
      return null;
    }
    if (now.text !== pub.text) return 'stale' as const;
    await indexPublication(tx, publicationId, prepared);
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
