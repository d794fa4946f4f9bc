// Reading publications: the list (operators all, users what they created or co-author), one
// publication, and the shape the API answers (domain/src/publications/publication.ts Publication).
import { sql } from 'drizzle-orm';
import { formatDate } from '@edu/domain/common/format';
import { isPaidStatus, PAID_ENTRY_STATUSES } from '@edu/domain/common/codes';
import type { PageQuery, SortValue } from '@edu/domain/common/pagination';
import { LOGGED_TEXT_HEAD, LOGGED_TEXT_MAX, loggedTextOf } from '@edu/domain/logs/log';
import {
  cut,
  DisplayCuts,
  INTERNET_SUBTYPE_ID,
  ownerSeesComment,
  PACKAGE_PUBLICATION_AUTHORS,
  publicationPlainText,
  publicationStatusColors,
  publicationStatusLabels,
  userMayDelete,
  userMayEdit,
  type Publication,
  type PublicationCheckState,
  type PublicationEntryRef,
  type PublicationFileRef,
  type PublicationMatch,
  type PublicationSlot,
  type PublicationStatusCode,
  type UniquenessState,
  type PublicationSortKey,
} from '@edu/domain/publications/publication';
import { publicationAuthors, publications } from '../../db/schema/index.ts';
import { isOperator as isOperatorUser } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { publicationVisibleTo } from './publication-policy.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { uniquenessStateSql } from './jobs.ts';
import {
  allOf,
  containsPattern,
  fioCondition,
  listPage,
  listSort,
  prefixPattern,
  sortSql,
  when,
  type ListPage,
  type SortColumn,
} from '../../platform/list-query.ts';

export interface PublicationRow {
  id: number;
  title: string;
  text: string | null;
  file_id: number | null;
  file_name: string | null;
  url: string | null;
  url_contents: string | null;
  status: number;
  release_id: number | null;
  release_title: string | null;
  is_journal: boolean;
  manager_comment: string | null;
  uniqueness: number | string | null;
  uniqueness_checked_at: Date | string | null;
  uniqueness_state: UniquenessState | null;
  highlight: number[] | null;
  uniqueness_spans: Array<[number, number]> | null;
  dict_category_id: number | null;
  type: number | null;
  price_id: number | null;
  price: number | string | null;
  authors_num: number | null;
  created_by: number;
  created_at: Date | string;
  service_id: number | null;
  service_title: string | null;
  dict_subtype_id: number | null;
  publication_has_file: boolean | null;
  entries: Array<{ id: number; number: string; status: number; price: number | string; user_id: number; fio: string }> | null;
  authors: Array<{ id: number; user_id: number | null; fio: string; pending: boolean }> | null;
  additional_files: Array<{ id: number; name: string }> | null;
  matches: Array<{
    url: string;
    percent: number | string;
    highlight: number[];
    spans: Array<[number, number]>;
    source: { id: number; title: string; number: string | null; author: string; status: number; created_by: number } | null;
  }> | null;
}

/** The columns of a publication; `full` adds the whole text, extra files and the matches (GET /{id}). */
/**
 * A co-author's name as shown and printed: the account's own name when an account is linked (an
 * invitation included), else the name the author typed (issue 29: a typed name is only a name).
 */
const authorName = (a: string) =>
  sql`coalesce((select nullif(concat_ws(' ', an.last_name, an.first_name, an.middle_name), '') from users an where an.id = ${sql.raw(a)}.user_id), ${sql.raw(a)}.fio)`;

const select = (full: boolean, textKnown = false) => sql`
  select p.id, p.title, ${textKnown ? sql`null::text as text` : full ? sql`p.text` : sql`left(p.text, 6000) as text`}, p.file_id, f.name as file_name, p.url, p.url_contents, p.status,
    p.release_id, r.title as release_title, p.is_journal, p.manager_comment, p.uniqueness, p.uniqueness_checked_at,
    ${uniquenessStateSql(sql`p.id`)} as uniqueness_state,
    ${full ? sql`p.highlight, p.uniqueness_spans` : sql`null::jsonb as highlight, null::jsonb as uniqueness_spans`},
    p.dict_category_id, p.type, p.price_id, pp.price, pp.authors_num, p.created_by, p.created_at,
    s.id as service_id, s.title as service_title, s.dict_subtype_id, st.publication_has_file,
    (select json_agg(json_build_object('id', e.id, 'number', e.number, 'status', e.status, 'price', e.price, 'user_id', e.created_by,
        'fio', concat_ws(' ', eu.last_name, eu.first_name, eu.middle_name)) order by e.id)
       from publication_entries pe join entries e on e.id = pe.entry_id join users eu on eu.id = e.created_by
       where pe.publication_id = p.id and e.deleted_at is null) as entries,
    (select json_agg(json_build_object('id', a.id, 'user_id', a.user_id, 'fio', ${authorName('a')}, 'pending', a.user_id is not null and a.accepted_at is null) order by a.position, a.id)
       from publication_authors a where a.publication_id = p.id) as authors,
    ${
      full
        ? sql`(select json_agg(json_build_object('id', af.id, 'name', af.name) order by af.id)
                 from publication_files pf join files af on af.id = pf.file_id where pf.publication_id = p.id and af.deleted_at is null) as additional_files,
              (select json_agg(json_build_object('url', coalesce(nullif(m.url, ''), sp.url, ''), 'percent', m.percent, 'highlight', m.highlight, 'spans', m.spans,
                   'source', case when sp.id is not null then json_build_object('id', sp.id, 'title', sp.title, 'status', sp.status, 'created_by', sp.created_by,
                     'number', (select e.number from publication_entries spe join entries e on e.id = spe.entry_id where spe.publication_id = sp.id order by e.id limit 1),
                     'author', coalesce((select ${authorName('a')} from publication_authors a where a.publication_id = sp.id order by a.position, a.id limit 1), ''))
                   end) order by m.percent desc, m.id)
                 from publication_matches m left join publications sp on sp.id = m.source_publication_id and sp.deleted_at is null
                 where m.publication_id = p.id) as matches`
        : sql`null::json as additional_files, null::json as matches`
    }`;

const FROM = sql`
  from publications p
  join users cu on cu.id = p.created_by
  left join publication_releases r on r.id = p.release_id
  left join publication_prices pp on pp.id = p.price_id
  left join files f on f.id = p.file_id and f.deleted_at is null
  left join lateral (select e.service_id from publication_entries pe join entries e on e.id = pe.entry_id
                     where pe.publication_id = p.id order by e.id limit 1) fe on true
  left join services s on s.id = fe.service_id
  left join dict_service_subtypes st on st.id = s.dict_subtype_id`;

/** The paid entry statuses (isPaidStatus), for SQL. */
const PAID_STATUSES = sql.join(
  PAID_ENTRY_STATUSES.map((s) => sql`${s}`),
  sql`, `,
);
/** Some live entry of the publication `p` is paid. */
const PUBLICATION_PAID = sql`exists (select 1 from publication_entries ppe join entries pe2 on pe2.id = ppe.entry_id
  where ppe.publication_id = p.id and pe2.deleted_at is null and pe2.status in (${PAID_STATUSES}))`;

/** What a user may see (the publication policy decides). */
const visibleTo = publicationVisibleTo;

export const fileUrl = (publicationId: number, fileId: number) => `/api/publication/${publicationId}/file/${fileId}`;

const num = (v: number | string | null) => (v === null ? null : Number(v));

export function toPublication(r: PublicationRow, user: AuthUser, full: boolean): Publication {
  const isOperator = isOperatorUser(user);
  const status = r.status as PublicationStatusCode;
  const entries: PublicationEntryRef[] = (r.entries ?? []).map((e) => ({
    id: e.id,
    number: e.number,
    status: e.status,
    is_paid: isPaidStatus(e.status),
    price: Number(e.price),
    user: { id: e.user_id, fio: e.fio },
  }));
  const file: PublicationFileRef | null = r.file_id ? { id: r.file_id, name: r.file_name ?? 'file', url: fileUrl(r.id, r.file_id) } : null;
  // Which publication a text was copied from is for operators (and for the creator of that one).
  const matches: PublicationMatch[] = (r.matches ?? []).map((m) => ({
    url: m.url,
    source:
      m.source && (isOperator || m.source.created_by === user.id)
        ? {
            id: m.source.id,
            title: m.source.title,
            number: m.source.number,
            author: m.source.author,
            status: m.source.status,
            statusLabel: publicationStatusLabels[m.source.status] ?? '',
          }
        : null,
    percent: Number(m.percent),
    highlight: m.highlight ?? [],
    spans: m.spans ?? [],
  }));
  const isCreator = r.created_by === user.id;
  return {
    id: r.id,
    title: r.title,
    text: r.text === null ? null : full ? r.text : cut(publicationPlainText(r.text), DisplayCuts.excerpt),
    file,
    additionalFiles: (r.additional_files ?? []).map((f) => ({ id: f.id, name: f.name, url: fileUrl(r.id, f.id) })),
    url: r.url,
    url_contents: r.url_contents,
    status,
    statusLabel: publicationStatusLabels[status] ?? '',
    statusColor: publicationStatusColors[status] ?? 'gray',
    entries,
    entry: entries[0] ?? null,
    is_paid: entries.some((e) => e.is_paid),
    service: r.service_id ? { id: r.service_id, title: r.service_title ?? '', dict_subtype_id: r.dict_subtype_id } : null,
    publication_has_file: Boolean(r.publication_has_file),
    release: r.release_id ? { id: r.release_id, title: r.release_title ?? '' } : null,
    release_id: r.release_id,
    is_journal: r.is_journal,
    manager_comment: isOperator || ownerSeesComment(status) ? r.manager_comment : null,
    uniqueness: num(r.uniqueness),
    uniqueness_checked_at: r.uniqueness_checked_at ? new Date(r.uniqueness_checked_at).toISOString() : null,
    uniqueness_state: r.uniqueness_state,
    matches,
    highlight: r.highlight ?? [],
    spans: r.uniqueness_spans ?? [],
    dict_category_id: r.dict_category_id,
    type: r.type,
    price_id: r.price_id,
    authors_num: r.authors_num,
    price: num(r.price),
    authors: r.authors ?? [],
    created_by: r.created_by,
    created_at: new Date(r.created_at).toISOString(),
    created_at_formatted: formatDate(r.created_at),
    can_edit: isOperator || (isCreator && userMayEdit(status)),
    can_delete: isOperator || (isCreator && userMayDelete(status)),
  };
}

export interface PublicationFilters {
  title?: string;
  entryNumber?: string;
  fio?: string;
  serviceId?: number;
  status?: number;
  isPaid?: boolean;
  isWithoutRelease?: boolean;
  release_id?: number;
  userId?: number;
  sort?: SortValue<PublicationSortKey>;
}

/** The sortable columns of the publication list (alias p); the id is the order of creation. */
const PUBLICATION_SORT_COLUMNS: Record<PublicationSortKey, SortColumn> = {
  created_at: { sql: sql`p.created_at`, type: 'timestamptz' },
  title: { sql: sql`p.title`, type: 'text' },
  status: { sql: sql`p.status`, type: 'int' },
};

export async function listPublications(db: Queryable, user: AuthUser, f: PublicationFilters, page: PageQuery): Promise<ListPage<Publication>> {
  const isOperator = isOperatorUser(user);
  const where = allOf([
    sql`p.deleted_at is null`,
    visibleTo(user),
    when(f.title, (v) => sql`p.title ilike ${containsPattern(v)}`),
    when(
      f.entryNumber,
      (v) => sql`exists (select 1 from publication_entries fpe join entries fe2 on fe2.id = fpe.entry_id
      where fpe.publication_id = p.id and fe2.number ilike ${prefixPattern(v)})`,
    ),
    isOperator &&
      Boolean(f.fio) &&
      sql`(${fioCondition(f.fio, 'cu')} or exists (select 1 from publication_authors fa where fa.publication_id = p.id and ${authorName('fa')} ilike ${containsPattern(f.fio ?? '')}))`,
    when(
      f.serviceId,
      (v) =>
        sql`exists (select 1 from publication_entries spe join entries se on se.id = spe.entry_id where spe.publication_id = p.id and se.service_id = ${v})`,
    ),
    when(f.status, (v) => sql`p.status = ${v}`),
    f.isPaid === true && PUBLICATION_PAID,
    f.isPaid === false && sql`not ${PUBLICATION_PAID}`,
    f.isWithoutRelease === true && sql`p.release_id is null`,
    when(f.release_id, (v) => sql`p.release_id = ${v}`),
    isOperator &&
      when(
        f.userId,
        (v) =>
          sql`(p.created_by = ${v} or exists (select 1 from publication_authors ua where ua.publication_id = p.id and ua.user_id = ${v} and ua.accepted_at is not null))`,
      ),
  ]);
  return listPage<PublicationRow, Publication>(db, {
    select: select(false),
    from: FROM,
    countFrom: sql`from publications p join users cu on cu.id = p.created_by`,
    where,
    order: sortSql(listSort(f.sort, PUBLICATION_SORT_COLUMNS, '-created_at', sql`p.id`)),
    page,
    map: (r) => toPublication(r, user, false),
  });
}

/** One publication the user may see (deleted ones are gone), or undefined. */
/**
 * One publication as GET /{id} answers it. `known.text`: the text a save has just stored, so the
 * answer does not read those characters back from the database.
 */
export async function findPublication(db: Queryable, user: AuthUser, id: number, known?: { text: string | null }): Promise<Publication | undefined> {
  const [r] = await rows<PublicationRow>(
    db,
    sql`${select(true, known !== undefined)} ${FROM} where p.id = ${id} and p.deleted_at is null and ${visibleTo(user)}`,
  );
  if (r && known) r.text = known.text;
  return r ? toPublication(r, user, true) : undefined;
}

/** The stored row of a live publication with its service's subtype (rules and transitions read it). */
export interface PublicationRecord {
  id: number;
  title: string;
  /** md5 of the text (textDigest), not the text: a save compares digests (loadPublicationText reads the text). */
  text_digest: string | null;
  /** The text as the change log keeps it (loggedLongText), read as that from the database. */
  text_logged: string | null;
  file_id: number | null;
  status: number;
  release_id: number | null;
  is_journal: boolean;
  manager_comment: string | null;
  dict_category_id: number | null;
  type: number | null;
  price_id: number | null;
  url: string | null;
  url_contents: string | null;
  created_by: number;
  service_id: number | null;
  dict_subtype_id: number | null;
  publication_has_file: boolean;
  authors_num: number | null;
  /** Some live entry is paid (an unpaid one is approved only with the operator's confirmation). */
  is_paid: boolean;
}

export async function loadRecord(db: Queryable, id: number, opts: { lock?: boolean } = {}): Promise<PublicationRecord | undefined> {
  const [r] = await rows<Omit<PublicationRecord, 'text_logged'> & { text_short: string | null; text_head: string | null; text_length: number | null }>(
    db,
    sql`select p.id, p.title, p.text_digest, p.text_length,
          case when p.text_length <= ${LOGGED_TEXT_MAX} then p.text end as text_short,
          case when p.text_length > ${LOGGED_TEXT_MAX} then left(p.text, ${LOGGED_TEXT_HEAD}) end as text_head,
          p.file_id, p.status, p.release_id, p.is_journal, p.manager_comment, p.dict_category_id, p.type,
          p.price_id, p.url, p.url_contents, p.created_by, s.id as service_id, s.dict_subtype_id,
          coalesce(st.publication_has_file, false) as publication_has_file, pp.authors_num, ${PUBLICATION_PAID} as is_paid
        from publications p
        left join publication_prices pp on pp.id = p.price_id
        left join lateral (select e.service_id from publication_entries pe join entries e on e.id = pe.entry_id
                           where pe.publication_id = p.id order by e.id limit 1) fe on true
        left join services s on s.id = fe.service_id
        left join dict_service_subtypes st on st.id = s.dict_subtype_id
        where p.id = ${id} and p.deleted_at is null ${opts.lock ? sql`for update of p` : sql``}`,
  );
  if (!r) return undefined;
  const { text_short, text_head, text_length, ...record } = r;
  return { ...record, text_logged: text_short ?? (text_head !== null && text_length !== null ? loggedTextOf(text_head, text_length) : null) };
}

/** A record's value of a field as its change-log row's `before` keeps it (the text: text_logged). */
export function loggedValue(record: PublicationRecord, field: string): unknown {
  return field === 'text' ? record.text_logged : ((record as unknown as Record<string, unknown>)[field] ?? null);
}

/** The whole stored text of a live publication (the operator's check, the site's article). */
export async function loadPublicationText(db: Queryable, id: number): Promise<string | null> {
  const [r] = await rows<{ text: string | null }>(db, sql`select p.text from publications p where p.id = ${id} and p.deleted_at is null`);
  return r?.text ?? null;
}

/** Can this user see the publication (creator, co-author, operator)? */
export async function canSee(db: Queryable, user: AuthUser, id: number): Promise<boolean> {
  const [r] = await rows<{ ok: boolean }>(db, sql`select true as ok from publications p where p.id = ${id} and p.deleted_at is null and ${visibleTo(user)}`);
  return Boolean(r);
}

/** The state of the uniqueness check of a live publication the user may see, as GET /{id}/uniqueness-state answers it (no text read). */
export async function findCheckState(db: Queryable, user: AuthUser, id: number): Promise<PublicationCheckState | undefined> {
  const [r] = await rows<{
    id: number;
    uniqueness: number | string | null;
    uniqueness_checked_at: Date | string | null;
    uniqueness_state: UniquenessState | null;
  }>(
    db,
    sql`select p.id, p.uniqueness, p.uniqueness_checked_at, ${uniquenessStateSql(sql`p.id`)} as uniqueness_state
        from publications p where p.id = ${id} and p.deleted_at is null and ${visibleTo(user)}`,
  );
  if (!r) return undefined;
  return { ...r, uniqueness: num(r.uniqueness), uniqueness_checked_at: r.uniqueness_checked_at ? new Date(r.uniqueness_checked_at).toISOString() : null };
}

/** The stored text's length in characters (0 without a text or publication): whether reading it is heavy work. */
export async function textLength(db: Queryable, id: number): Promise<number> {
  const [r] = await rows<{ n: number | null }>(db, sql`select text_length as n from publications where id = ${id}`);
  return r?.n ?? 0;
}

/** The main and the additional files of a publication (retired with it when it is deleted). */
export async function publicationFileIds(db: Queryable, publicationId: number): Promise<number[]> {
  const list = await rows<{ id: number }>(
    db,
    sql`select file_id as id from publications where id = ${publicationId} and file_id is not null
        union select file_id from publication_files where publication_id = ${publicationId}`,
  );
  return list.map((r) => r.id);
}

export interface AuthorOptionRow {
  id: number;
  fio: string;
}

/** Co-author search: live users and operators whose name matches every word of fio, 20 a page. */
export async function searchAuthors(db: Queryable, fio: string, offset: number): Promise<AuthorOptionRow[]> {
  return rows<AuthorOptionRow>(
    db,
    sql`select u.id, concat_ws(' ', u.last_name, u.first_name, u.middle_name) as fio from users u
      where u.deleted_at is null and u.role in (1, 2) and ${fioCondition(fio, 'u')}
      order by u.last_name, u.first_name, u.id limit 20 offset ${offset}`,
  );
}

export interface PublicationFileRow {
  name: string;
  mime: string;
  storage_key: string;
}

/** A live file of this publication: its main file or one of the additional ones. */
export async function findPublicationFile(db: Queryable, publicationId: number, fileId: number): Promise<PublicationFileRow | undefined> {
  const [file] = await rows<PublicationFileRow>(
    db,
    sql`select f.name, f.mime, f.storage_key from files f where f.id = ${fileId} and f.deleted_at is null
          and (f.id = (select file_id from publications where id = ${publicationId})
               or exists (select 1 from publication_files pf where pf.publication_id = ${publicationId} and pf.file_id = f.id))`,
  );
  return file;
}

/** Soft-deletes a publication (DELETE /api/publication/{id}; its files, index and entries are handled by the route). */
export async function softDeletePublication(db: Queryable, id: number, at: Date): Promise<void> {
  await db
    .update(publications)
    .set({ deleted_at: at })
    .where(sql`id = ${id}`);
}

/** The full name of a live user (a co-author picked by an operator), or undefined. */
export async function findLiveUserFio(db: Queryable, userId: number): Promise<{ fio: string } | undefined> {
  const [author] = await rows<{ fio: string }>(
    db,
    sql`select concat_ws(' ', last_name, first_name, middle_name) as fio from users where id = ${userId} and deleted_at is null`,
  );
  return author;
}

export interface PublicationAuthorPositionRow {
  user_id: number | null;
  position: number;
}

/** The accounts and places of a publication's authors (the creator is position 0). */
export async function publicationAuthorPositions(db: Queryable, publicationId: number): Promise<PublicationAuthorPositionRow[]> {
  return rows<PublicationAuthorPositionRow>(db, sql`select user_id, position from publication_authors where publication_id = ${publicationId}`);
}

/** Adds an author row (an operator's co-author, accepted at once). */
export async function insertPublicationAuthor(db: Queryable, values: typeof publicationAuthors.$inferInsert): Promise<void> {
  await db.insert(publicationAuthors).values(values);
}

export interface ApprovedInternetPublicationRow {
  id: number;
  title: string;
  text: string | null;
  joomla_category_id: number | null;
  rubric: string | null;
  authors: string | null;
  is_paid: boolean;
}

/** Approved live internet publications (subtype 5) with their rubric's site category and authors, to publish on the journal's site. */
export async function listApprovedInternetPublications(db: Queryable): Promise<ApprovedInternetPublicationRow[]> {
  return rows<ApprovedInternetPublicationRow>(
    db,
    sql`select p.id, p.title, p.text, c.joomla_category_id, c.fdv as rubric,
            (select string_agg(${authorName('a')}, ', ' order by a.position, a.id) from publication_authors a where a.publication_id = p.id) as authors,
            ${PUBLICATION_PAID} as is_paid
          from publications p
          left join dict_publication_categories c on c.id = p.dict_category_id
          where p.deleted_at is null and p.status = 2
            and exists (select 1 from publication_entries pe join entries e on e.id = pe.entry_id join services s on s.id = e.service_id
                        where pe.publication_id = p.id and s.dict_subtype_id = ${INTERNET_SUBTYPE_ID})
          order by p.id`,
  );
}

export interface LiveReleaseRow {
  id: number;
  dict_service_subtype_id: number | null;
}

/** A live release with its subtype, or undefined. */
export async function findLiveRelease(db: Queryable, releaseId: number): Promise<LiveReleaseRow | undefined> {
  const [release] = await rows<LiveReleaseRow>(
    db,
    sql`select id, dict_service_subtype_id from publication_releases where id = ${releaseId} and deleted_at is null`,
  );
  return release;
}

export interface ReleaseCandidateRow {
  id: number;
  release_id: number | null;
  dict_subtype_id: number | null;
  is_paid: boolean;
}

/** The live publications of these ids with their release and first entry's subtype, locked for the update. */
export async function lockPublicationsForRelease(db: Queryable, ids: number[]): Promise<ReleaseCandidateRow[]> {
  return rows<ReleaseCandidateRow>(
    db,
    sql`select p.id, p.release_id, (select s.dict_subtype_id from publication_entries pe join entries e on e.id = pe.entry_id
              join services s on s.id = e.service_id where pe.publication_id = p.id order by e.id limit 1) as dict_subtype_id,
              ${PUBLICATION_PAID} as is_paid
            from publications p where p.deleted_at is null and p.id in (${sql.join(
              ids.map((i) => sql`${i}`),
              sql`, `,
            )}) for update of p`,
  );
}

/** Puts a publication into a release. */
export async function setPublicationRelease(db: Queryable, id: number, releaseId: number): Promise<void> {
  await db
    .update(publications)
    .set({ release_id: releaseId, updated_at: new Date() })
    .where(sql`id = ${id}`);
}

interface SlotRow {
  entry_id: number;
  number: string;
  status: number;
  service_id: number;
  service_title: string;
  dict_subtype_id: number | null;
  package_title: string | null;
}

/**
 * The owner's slots (GET /api/publication/slots, and where createPublication puts a new article):
 * live entries of publication services with no live publication, best first: paid, then a
 * package's, then the oldest. `lock` locks them and looks again after the lock, so two articles
 * sent at once never share one slot.
 */
export async function listPublicationSlots(db: Queryable, ownerId: number, o: { lock?: boolean } = {}): Promise<PublicationSlot[]> {
  const free = sql`not exists (select 1 from publication_entries spe join publications sp on sp.id = spe.publication_id
    where spe.entry_id = e.id and sp.deleted_at is null)`;
  let list = await rows<SlotRow>(
    db,
    sql`select e.id as entry_id, e.number, e.status, s.id as service_id, s.title as service_title, s.dict_subtype_id, pk.title as package_title
        from entries e join services s on s.id = e.service_id
        left join dict_service_types t on t.id = s.dict_type_id
        left join package_enrollments pk on pk.id = e.package_enrollment_id
        where e.created_by = ${ownerId} and e.deleted_at is null and (s.is_publication or coalesce(t.is_publication, false)) and ${free}
        order by (e.status in (${PAID_STATUSES})) desc, (e.package_enrollment_id is not null) desc, e.id
        ${o.lock ? sql`for update of e` : sql``}`,
  );
  if (o.lock && list.length > 0) {
    // A publication committed while this waited for the lock is seen by a new statement only.
    const still = await rows<{ id: number }>(
      db,
      sql`select e.id from entries e where e.id in (${sql.join(
        list.map((r) => sql`${r.entry_id}`),
        sql`, `,
      )}) and ${free}`,
    );
    const ids = new Set(still.map((r) => r.id));
    list = list.filter((r) => ids.has(r.entry_id));
  }
  return list.map((r) => ({
    entry_id: r.entry_id,
    number: r.number,
    service: { id: r.service_id, title: r.service_title, dict_subtype_id: r.dict_subtype_id },
    package_title: r.package_title,
    is_paid: isPaidStatus(r.status),
    // A package buys the publication of one author (decision 025); an entry of its own takes the price for the number.
    authors_covered: r.package_title !== null ? PACKAGE_PUBLICATION_AUTHORS : null,
  }));
}
