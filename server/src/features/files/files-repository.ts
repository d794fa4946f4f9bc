import { sql } from 'drizzle-orm';
import { rows, type Queryable } from '../../platform/db.ts';

/** Retired files whose retention ended and whose bytes are still in storage, oldest first. */
export async function filesToPurge(db: Queryable, retentionDays: number, limit: number): Promise<Array<{ id: number; storage_key: string }>> {
  return rows<{ id: number; storage_key: string }>(
    db,
    sql`select id, storage_key from files
        where purged_at is null and deleted_at is not null and deleted_at < now() - make_interval(days => ${retentionDays})
        order by deleted_at, id limit ${limit}`,
  );
}

export async function markPurged(db: Queryable, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(
    sql`update files set purged_at = now() where id in (${sql.join(
      ids.map((i) => sql`${i}`),
      sql`, `,
    )})`,
  );
}

export interface StoredFileRow {
  user_id: number | null;
  name: string;
  mime: string;
  storage_key: string;
}

/** A live (not deleted) stored file: its owner, name, type and storage key. */
export async function findStoredFile(db: Queryable, id: number): Promise<StoredFileRow | undefined> {
  const [file] = await rows<StoredFileRow>(db, sql`select user_id, name, mime, storage_key from files where id = ${id} and deleted_at is null`);
  return file;
}
