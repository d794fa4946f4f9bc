import { eq, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { publicationFingerprints, publicationMatches, publications } from '../../db/schema/index.ts';
import { rows } from '../../platform/db.ts';
import { nextNightRun, scheduleStopListRefresh, scheduleUniquenessCheck, STOP_LIST_JOB } from './jobs.ts';
import {
  checkPublication,
  checkText,
  INDEX_CHUNK,
  indexPublication as indexPrepared,
  QUERY_CHUNK,
  refreshStopList,
  type PublicationUniqueness,
} from './uniqueness-repository.ts';
import { MAX_REPEATS } from './uniqueness/fingerprint.ts';
import { analyse, inProcessWork as work, prepareText } from './uniqueness/engine.ts';
import { publicationPlainText } from './uniqueness/plain-text.ts';

const projects =
  'Хороший проект начинается не с темы, а с вопроса. Когда шестиклассник спрашивает, почему на школьном окне зимой ' +
  'появляются узоры только с одной стороны, у него уже есть исследовательская задача. Учителю остаётся лишь помочь ' +
  'сформулировать гипотезу, подобрать простые приборы и составить план наблюдений. Тема, предложенная сверху, почти ' +
  'всегда проигрывает вопросу, который возник у самого ученика.';
const forest =
  'Основу леса составляют деревья. Ель хорошо переносит тень и со временем вытесняет светолюбивые берёзу и осину. ' +
  'Однако после пожара или вырубки первыми на освободившемся месте появляются именно лиственные породы. Под их пологом ' +
  'постепенно поднимаются молодые ели, и через несколько десятилетий лес снова становится хвойным.';
const own =
  'Наша школа третий год проводит весеннюю неделю науки. Младшие классы показывают опыты с водой и светом, старшие ' +
  'защищают собственные исследования перед жюри из родителей и выпускников.';

let t: TestApp;
let userId: number;

async function publication(text: string | null, attrs: Partial<typeof publications.$inferInsert> = {}): Promise<number> {
  const [row] = await t.database.db
    .insert(publications)
    .values({ title: 'Статья', text, created_by: userId, ...attrs })
    .returning({ id: publications.id });
  return row.id;
}

async function fingerprintCount(id: number): Promise<number> {
  const [r] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from publication_fingerprints where publication_id = ${id}`);
  return r.n;
}

/** Indexes a publication text as the check does (its plain text, prepared in process). */
const indexPublication = (db: typeof t.database.db, id: number, text: string | null) =>
  indexPrepared(db, id, text ? prepareText(publicationPlainText(text)) : null);

/** Checks a publication in process; no edit runs meanwhile here, so the answer is never 'stale'. */
async function check(id: number): Promise<PublicationUniqueness | null> {
  const result = await checkPublication(t.database.db, id, work);
  if (result === 'stale') throw new Error('stale');
  return result;
}

beforeAll(async () => {
  t = await createTestApp();
  userId = (await t.createUser()).id;
});
afterAll(() => t.close());

describe('uniqueness repository', () => {
  it('indexes a text as (hash, publication, position) rows and replaces them on edit', async () => {
    const id = await publication(projects);
    const first = await indexPublication(t.database.db, id, projects);
    expect(first).toBeGreaterThan(5);
    expect(await fingerprintCount(id)).toBe(first);
    const stored = await t.database.db.select().from(publicationFingerprints).where(eq(publicationFingerprints.publication_id, id));
    expect(typeof stored[0].hash).toBe('bigint');
    expect(stored.every((f) => f.position >= 0)).toBe(true);
    const second = await indexPublication(t.database.db, id, own);
    expect(await fingerprintCount(id)).toBe(second);
    expect(second).not.toBe(first);
    // The stem codes alignment needs: 4 bytes a word of the current text.
    const [stems] = await rows<{ n: number }>(t.database.db, sql`select length(codes)::int as n from publication_stems where publication_id = ${id}`);
    expect(stems.n).toBe(4 * analyse(own).tokens.length);
    await indexPublication(t.database.db, id, null);
    expect(await fingerprintCount(id)).toBe(0);
    expect(await rows(t.database.db, sql`select 1 from publication_stems where publication_id = ${id}`)).toEqual([]);
  });

  it('checks a publication against the stored ones and stores percent, words, spans and sources', async () => {
    const source = await publication(forest, { url: 'https://example.org/les' });
    await check(source);
    const copied = forest.slice(forest.indexOf('Однако'));
    const text = `<p>${own}</p><p>${copied}</p>`;
    const id = await publication(text);
    const result = await check(id);
    const plain = publicationPlainText(text);
    expect(result?.matches.map((m) => [m.source_publication_id, m.url])).toEqual([[source, 'https://example.org/les']]);
    expect(result!.spans.map(([s, e]) => plain.slice(s, e))).toEqual([copied]);
    expect(result!.uniqueness).toBeGreaterThan(30);
    expect(result!.uniqueness).toBeLessThan(60);

    const [pub] = await t.database.db.select().from(publications).where(eq(publications.id, id));
    expect(pub.uniqueness).toBe(result!.uniqueness);
    expect(pub.highlight).toEqual(result!.highlight);
    expect(pub.uniqueness_spans).toEqual(result!.spans);
    expect(pub.uniqueness_checked_at).toBeInstanceOf(Date);
    const matches = await t.database.db.select().from(publicationMatches).where(eq(publicationMatches.publication_id, id));
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({
      source_publication_id: source,
      url: 'https://example.org/les',
      percent: result!.matches[0].percent,
      spans: [[plain.indexOf(copied), plain.length]],
    });
    expect(matches[0].highlight.length).toBeGreaterThan(10);

    // A second check replaces the matches instead of adding to them.
    await check(id);
    expect(await t.database.db.select().from(publicationMatches).where(eq(publicationMatches.publication_id, id))).toHaveLength(1);
  });

  it('never matches a publication with itself, and forgets deleted publications', async () => {
    const a = await publication(projects);
    expect((await check(a))!.uniqueness).toBe(100);
    const b = await publication(projects);
    expect((await check(b))!.matches.map((m) => m.source_publication_id)).toContain(a);
    await t.database.db.update(publications).set({ deleted_at: new Date() }).where(eq(publications.id, a));
    const again = await check(b);
    expect(again!.matches.map((m) => m.source_publication_id)).not.toContain(a);
    expect(await check(a)).toBeNull();
    expect(await fingerprintCount(a)).toBe(0);
  });

  it('answers null and changes nothing for a file-only or missing publication', async () => {
    const id = await publication(null);
    expect(await check(id)).toBeNull();
    const [pub] = await t.database.db.select().from(publications).where(eq(publications.id, id));
    expect(pub.uniqueness).toBeNull();
    expect(await check(999_999)).toBeNull();
  });

  it('aligns with the stored stem codes, falling back to the text of a publication indexed without them', async () => {
    const source = await publication(forest);
    await indexPublication(t.database.db, source, forest);
    const text = `${own} ${forest}`;
    const fromCodes = await checkText(t.database.db, text, { work });
    const fromText = await checkText(t.database.db, text, { work, storedStems: false });
    expect(fromCodes.result.matches.length).toBeGreaterThan(0);
    expect(fromCodes.result).toEqual(fromText.result);
    await t.database.db.execute(
      sql`delete from publication_stems where publication_id in (${sql.join(
        fromCodes.result.matches.map((m) => sql`${m.source}`),
        sql`, `,
      )}, ${source})`,
    );
    expect((await checkText(t.database.db, text, { work })).result).toEqual(fromText.result);
  });

  it('skips hashes shared by too many stored texts', async () => {
    const phrase = 'Федеральный государственный образовательный стандарт основного общего образования определяет требования к результатам.';
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(await publication(`${phrase} Своя часть номер ${i}: ${['море', 'горы', 'поле', 'город'][i]} и ещё немного слов.`));
    for (const id of ids) await indexPublication(t.database.db, id, (await t.database.db.select().from(publications).where(eq(publications.id, id)))[0].text);
    const { sources } = await checkText(t.database.db, `${phrase} ${own}`, {
      work,
      candidates: { maxPostings: 3, minShared: 1, minChain: 1, chainWords: 60, chainSlack: 20, maxCandidates: 30 },
    });
    expect([...sources.keys()].filter((id) => ids.includes(id))).toEqual([]);
    // The common hashes are remembered with how many texts were seen (a lower bound) and not probed again.
    const common = await rows<{ postings: number }>(t.database.db, sql`select postings from publication_common_hashes`);
    expect(common.length).toBeGreaterThan(0);
    expect(common.every((c) => c.postings === 4)).toBe(true);
    const { sources: again } = await checkText(t.database.db, `${phrase} ${own}`, {
      work,
      candidates: { maxPostings: 3, minShared: 1, minChain: 1, chainWords: 60, chainSlack: 20, maxCandidates: 30 },
    });
    expect([...again.keys()].filter((id) => ids.includes(id))).toEqual([]);
    const { sources: withCommon } = await checkText(t.database.db, `${phrase} ${own}`, {
      work,
      candidates: { maxPostings: 10, minShared: 1, minChain: 1, chainWords: 60, chainSlack: 20, maxCandidates: 30 },
    });
    expect([...withCommon.keys()].filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
  });

  it('refills the stop-list from every stored fingerprint, each night, as one self-rescheduling job', async () => {
    const phrase = 'Рабочая программа воспитания школы составлена на основе примерной программы и локальных актов организации.';
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await publication(`${phrase} Отдельный текст ${i}: ${['зима', 'весна', 'лето'][i]} приходит в свой срок.`));
    for (const id of ids) await indexPublication(t.database.db, id, (await t.database.db.select().from(publications).where(eq(publications.id, id)))[0].text);
    const before = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from publication_common_hashes where postings = 3`);
    await refreshStopList(t.database.db, 2);
    // Every hash of the shared phrase is now listed with its three texts; a text's own words are not.
    const listed = await rows<{ hash: string; postings: number }>(
      t.database.db,
      sql`select c.hash::text, c.postings from publication_common_hashes c where c.hash in (select hash from publication_fingerprints where publication_id = ${ids[0]})`,
    );
    expect(listed.length).toBeGreaterThan(before[0].n);
    expect(listed.every((c) => c.postings >= 3)).toBe(true);
    const [own0] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from publication_fingerprints f where f.publication_id = ${ids[0]} and not exists (select 1 from publication_common_hashes c where c.hash = f.hash)`,
    );
    expect(own0.n).toBeGreaterThan(0);

    // The job: one open row however many server starts schedule it, due at 03:00 Moscow time; after a run it waits for the next night.
    expect(nextNightRun(new Date('2026-11-25T10:00:00Z')).toISOString()).toBe('2026-11-26T00:00:00.000Z');
    expect(nextNightRun(new Date('2026-11-25T23:59:00Z')).toISOString()).toBe('2026-11-26T00:00:00.000Z');
    expect(nextNightRun(new Date('2026-11-26T00:00:00Z')).toISOString()).toBe('2026-11-27T00:00:00.000Z');
    await scheduleStopListRefresh(t.database.db, new Date(Date.now() - 2 * 86_400_000));
    await scheduleStopListRefresh(t.database.db);
    const open = () => rows<{ run_at: Date; done_at: Date | null }>(t.database.db, sql`select run_at, done_at from jobs where name = ${STOP_LIST_JOB}`);
    expect(await open()).toHaveLength(1);
    expect(new Date((await open())[0].run_at).getTime()).toBeLessThan(Date.now()); // due: the first schedule was in the past
    await t.app.jobs.runDue();
    const [job] = await open();
    expect(job.done_at).toBeNull();
    expect(new Date(job.run_at).getTime()).toBeGreaterThan(Date.now());
    expect(new Date(job.run_at).getUTCHours()).toBe(0);
  });

  it('runs as a durable job, once per publication however often it is scheduled', async () => {
    const river =
      'Весной река выходит из берегов и затапливает прибрежные луга. Рыбаки знают, что в это время лучше ловить у ' +
      'самого края разлива, где вода тёплая и спокойная. Когда уровень спадает, на лугах остаются небольшие озёра.';
    const mine = 'Мой дедушка каждое лето брал меня на рыбалку, и я до сих пор помню запах костра и утренний туман над водой.';
    const source = await publication(river);
    await indexPublication(t.database.db, source, river);
    const id = await publication(`${mine} ${river}`);
    await scheduleUniquenessCheck(t.database.db, id, userId);
    await scheduleUniquenessCheck(t.database.db, id, userId);
    const [queued] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from jobs where name = 'check-publication-uniqueness' and done_at is null`,
    );
    expect(queued.n).toBe(1);
    await t.app.jobs.runDue();
    const [pub] = await t.database.db.select().from(publications).where(eq(publications.id, id));
    expect(pub.uniqueness).toBeGreaterThan(25);
    expect(pub.uniqueness).toBeLessThan(45);
    const [done] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from jobs where name = 'check-publication-uniqueness' and done_at is not null and last_error is null`,
    );
    expect(done.n).toBe(1);
  });

  it('indexes and checks a long text in chunks: every fingerprint stored, a source found past the first chunk (issue 29)', async () => {
    // Numbered words: every shingle distinct, more fingerprints than one insert and one query chunk hold.
    const words = Array.from({ length: 12_000 }, (_, k) => `слово${k.toString(36)}ка`);
    const sourceText = words.slice(9000).join(' ');
    const source = await publication(`<p>${sourceText}</p>`);
    await check(source);
    const id = await publication(`<p>${words.join(' ')}</p>`);
    const prepared = prepareText(words.join(' '));
    expect(prepared.stored.hashes.length).toBeGreaterThan(2 * INDEX_CHUNK);
    expect(prepared.query.hashes.length).toBeGreaterThan(4 * QUERY_CHUNK);
    const result = await check(id);
    expect(await fingerprintCount(id)).toBe(prepared.stored.hashes.length);
    // The borrowed quarter lies at the text's end, past the first chunks of its hashes.
    expect(result!.matches.map((m) => m.source_publication_id)).toEqual([source]);
    expect(result!.uniqueness).toBeGreaterThan(70);
    expect(result!.uniqueness).toBeLessThan(80);
  });

  it("replaces a long text's index in short statements: one delete, inserts of at most INDEX_CHUNK rows, no bytea parameter (issue 29)", async () => {
    // The embedded PGlite runs one statement at a time: every statement of a check is one another
    // request may wait for. Deleting in chunks re-read the publication's index entries per chunk, and
    // PGlite turns a bytea parameter into text byte by byte (40 ms for a 480 000-character text's codes).
    const dialect = new PgDialect();
    const seen: Array<{ text: string; params: unknown[] }> = [];
    const db = t.database.db;
    const recording = new Proxy(db, {
      get(target, key, receiver) {
        if (key !== 'execute') return Reflect.get(target, key, receiver);
        return (query: SQL) => {
          const { sql: text, params } = dialect.sqlToQuery(query);
          seen.push({ text: text.replace(/\s+/g, ' ').trim(), params });
          return target.execute(query);
        };
      },
    });
    const words = Array.from({ length: 6_000 }, (_, k) => `речь${k.toString(36)}ой`);
    const id = await publication(`<p>${words.join(' ')}</p>`);
    await indexPublication(db, id, `<p>${words.join(' ')}</p>`);
    const before = await fingerprintCount(id);
    expect(before).toBeGreaterThan(2_000);

    const edited = words.slice(0, 4_000).join(' ');
    await indexPublication(recording, id, `<p>${edited}</p>`);
    const deletes = seen.filter((s) => s.text.startsWith('delete from publication_fingerprints'));
    expect(deletes).toHaveLength(1);
    const inserts = seen.filter((s) => s.text.startsWith('insert into publication_fingerprints'));
    expect(inserts.length).toBeGreaterThan(1);
    for (const s of inserts)
      for (const p of s.params) if (typeof p === 'string' && p.startsWith('{')) expect(p.split(',').length).toBeLessThanOrEqual(INDEX_CHUNK);
    expect(seen.flatMap((s) => s.params).filter((p) => p instanceof Uint8Array)).toEqual([]);
    expect(await fingerprintCount(id)).toBe(prepareText(publicationPlainText(`<p>${edited}</p>`)).stored.hashes.length);
    // The codes written as hex text are the bytes the check reads back: it finds the source by them.
    const copy = await publication(`<p>${edited}</p>`);
    const result = await check(copy);
    expect(result!.matches.map((m) => m.source_publication_id)).toEqual([id]);
    expect(result!.uniqueness).toBe(0);
  });

  it("stores a publication's text uncompressed, so a long save does not compress it (issue 29)", async () => {
    // pglz took a third of a 480 000-character save's UPDATE on PGlite, and every read decompressed it.
    const id = await publication(`<p>${'Учитель начальных классов. '.repeat(4_000)}</p>`);
    const [r] = await rows<{ compression: string | null; stored: number; length: number }>(
      t.database.db,
      sql`select pg_column_compression(text) as compression, pg_column_size(text)::int as stored, octet_length(text)::int as length from publications where id = ${id}`,
    );
    expect(r.compression).toBeNull();
    expect(r.stored).toBeGreaterThanOrEqual(r.length);
  });

  it('stores «а а а …» submitted twice with a handful of rows, not one per word (issue 29)', async () => {
    const degenerate = 'а '.repeat(10_000);
    const a = await publication(`<p>${degenerate}</p>`);
    const b = await publication(`<p>${degenerate}</p>`);
    await check(a);
    const second = await check(b);
    expect(second!.uniqueness).toBe(100);
    // Before: 9 995 rows each (every stop-word shingle kept).
    expect(await fingerprintCount(a)).toBeLessThanOrEqual(MAX_REPEATS);
    expect(await fingerprintCount(b)).toBeLessThanOrEqual(MAX_REPEATS);
  });
});
