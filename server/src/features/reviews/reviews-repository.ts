import { sql, type SQL } from 'drizzle-orm';
import { formatDate } from '@edu/domain/common/format';
import { fullName } from '@edu/domain/users/current-user';
import { ReviewStatus } from '@edu/domain/common/codes';
import type { PendingReview } from '@edu/domain/reviews/review';
import { reviews } from '../../db/schema/index.ts';
import { rows, type Queryable } from '../../platform/db.ts';

export type Review = typeof reviews.$inferSelect;

interface ReviewRow {
  id: number;
  user_id: number;
  text: string;
  status: number;
  created_at: Date | string;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  avatar_key: string | null;
}

const toPending = (r: ReviewRow): PendingReview => ({
  id: r.id,
  user_id: r.user_id,
  text: r.text,
  status: r.status,
  user: { id: r.user_id, fio: fullName(r), avatar_url: r.avatar_key ? `/api/avatar/${r.avatar_key}` : null },
  created_at_formatted: formatDate(r.created_at),
});

const SELECT = sql`select r.id, r.user_id, r.text, r.status, r.created_at, u.last_name, u.first_name, u.middle_name,
    (select f.storage_key from files f where f.id = u.avatar_id) as avatar_key
  from reviews r join users u on u.id = r.user_id`;

export async function insertReview(db: Queryable, values: { user_id: number; text: string; status?: number }): Promise<Review> {
  const [row] = await db.insert(reviews).values(values).returning();
  return row;
}

/** Whether a review may be written for this author (an existing, not deleted user). */
export async function isLiveUser(db: Queryable, userId: number): Promise<boolean> {
  const [author] = await rows<{ id: number }>(db, sql`select id from users where id = ${userId} and deleted_at is null`);
  return Boolean(author);
}

export async function findReview(db: Queryable, id: number): Promise<PendingReview | undefined> {
  const [row] = await rows<ReviewRow>(db, sql`${SELECT} where r.id = ${id}`);
  return row && toPending(row);
}

export async function reviewExists(db: Queryable, id: number): Promise<boolean> {
  const [exists] = await rows<{ id: number }>(db, sql`select id from reviews where id = ${id} and deleted_at is null`);
  return Boolean(exists);
}

/** Pending reviews, oldest first, one page of them and their total. */
export async function listPendingReviews(db: Queryable, page: { page: number; per_page: number }): Promise<{ list: PendingReview[]; total: number }> {
  const where = sql`r.status = ${ReviewStatus.pending} and r.deleted_at is null`;
  const [{ total }] = await rows<{ total: number }>(db, sql`select count(*)::int as total from reviews r where ${where}`);
  const list = await rows<ReviewRow>(
    db,
    sql`${SELECT} where ${where} order by r.created_at, r.id limit ${page.per_page} offset ${(page.page - 1) * page.per_page}`,
  );
  return { list: list.map(toPending), total: Number(total) };
}

/** Only a pending review changes, in one conditional update (two operators cannot both act on it); true when it changed. */
async function changePending(db: Queryable, id: number, set: SQL): Promise<boolean> {
  const changed = await rows<{ id: number }>(
    db,
    sql`update reviews set ${set}, updated_at = now() where id = ${id} and status = ${ReviewStatus.pending} and deleted_at is null returning id`,
  );
  return changed.length > 0;
}

export const acceptPendingReview = (db: Queryable, id: number) => changePending(db, id, sql`status = ${ReviewStatus.accepted}`);
export const editPendingReview = (db: Queryable, id: number, text: string) => changePending(db, id, sql`text = ${text}`);
export const deletePendingReview = (db: Queryable, id: number) => changePending(db, id, sql`deleted_at = now()`);
