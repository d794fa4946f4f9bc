import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Release, ReleaseBody } from '@edu/domain/releases/release';
import { publicationReleases } from '../../db/schema/index.ts';
import { rows, type Queryable } from '../../platform/db.ts';

// Journal releases (spec 03 §2 'Выпуски журнала', §4).

interface ReleaseRow {
  id: number;
  title: string;
  dict_service_subtype_id: number | null;
  subtype_fdv: string | null;
  url: string | null;
  url_contents: string | null;
  is_hidden: boolean;
  is_published: boolean;
  publications_count: number;
}

const toRelease = (r: ReleaseRow): Release => ({
  id: r.id,
  title: r.title,
  dict_service_subtype_id: r.dict_service_subtype_id,
  subtype: r.dict_service_subtype_id && r.subtype_fdv ? { id: r.dict_service_subtype_id, fdv: r.subtype_fdv } : null,
  url: r.url,
  url_contents: r.url_contents,
  is_hidden: r.is_hidden,
  is_published: r.is_published,
  publications_count: Number(r.publications_count),
});

export async function listReleases(db: Queryable, f: { id?: number; subtype?: number; hidden?: boolean }): Promise<Release[]> {
  const list = await rows<ReleaseRow>(
    db,
    sql`select r.id, r.title, r.dict_service_subtype_id, st.fdv as subtype_fdv, r.url, r.url_contents, r.is_hidden, r.is_published,
          (select count(*)::int from publications p where p.release_id = r.id and p.deleted_at is null) as publications_count
        from publication_releases r left join dict_service_subtypes st on st.id = r.dict_service_subtype_id
        where r.deleted_at is null
          ${f.id !== undefined ? sql`and r.id = ${f.id}` : sql``}
          ${f.subtype !== undefined ? sql`and r.dict_service_subtype_id = ${f.subtype}` : sql``}
          ${f.hidden !== undefined ? sql`and r.is_hidden = ${f.hidden}` : sql``}
        order by r.id desc`,
  );
  return list.map(toRelease);
}

export async function findRelease(db: Queryable, id: number): Promise<Release | undefined> {
  const [release] = await listReleases(db, { id });
  return release;
}

export async function insertRelease(db: Queryable, body: ReleaseBody): Promise<number> {
  const [row] = await db.insert(publicationReleases).values(body).returning({ id: publicationReleases.id });
  return row.id;
}

/** The id of the updated release, or undefined when it does not exist (or is deleted). */
export async function updateRelease(db: Queryable, id: number, body: ReleaseBody): Promise<number | undefined> {
  const [row] = await db
    .update(publicationReleases)
    .set({ ...body, updated_at: new Date() })
    .where(and(eq(publicationReleases.id, id), isNull(publicationReleases.deleted_at)))
    .returning({ id: publicationReleases.id });
  return row?.id;
}

/** Locks a live release for the rest of the transaction; false when there is none. */
export async function lockRelease(tx: Queryable, id: number): Promise<boolean> {
  const [release] = await rows<{ id: number }>(tx, sql`select id from publication_releases where id = ${id} and deleted_at is null for update`);
  return Boolean(release);
}

export async function countReleasePublications(db: Queryable, id: number): Promise<number> {
  const [{ n }] = await rows<{ n: number }>(db, sql`select count(*)::int as n from publications where release_id = ${id} and deleted_at is null`);
  return Number(n);
}

export async function deleteRelease(db: Queryable, id: number): Promise<void> {
  await db.execute(sql`update publication_releases set deleted_at = now(), updated_at = now() where id = ${id}`);
}

/** Each state change is one conditional update, so two parallel clicks cannot both succeed; true when it changed. */
async function changeRelease(db: Queryable, id: number, set: ReturnType<typeof sql>, guard: ReturnType<typeof sql>): Promise<boolean> {
  const changed = await rows<{ id: number }>(
    db,
    sql`update publication_releases set ${set}, updated_at = now() where id = ${id} and deleted_at is null and ${guard} returning id`,
  );
  return changed.length > 0;
}

export const hideRelease = (db: Queryable, id: number) => changeRelease(db, id, sql`is_hidden = true`, sql`not is_hidden`);
export const publishRelease = (db: Queryable, id: number) => changeRelease(db, id, sql`is_published = true`, sql`is_hidden and not is_published`);
export const unpublishRelease = (db: Queryable, id: number) => changeRelease(db, id, sql`is_published = false`, sql`is_published`);
