import { sql, type SQL } from 'drizzle-orm';
import { formatDate } from '@edu/domain/common/format';
import { fullName } from '@edu/domain/users/current-user';
import { ReviewStatus } from '@edu/domain/common/codes';
import { reviewStateLabels, type PendingReview, type ReviewStatusFilter } from '@edu/domain/reviews/review';
import { reviews } from '../../db/schema/index.ts';
import { rows, type Queryable } from '../../platform/db.ts';

export type Review = typeof reviews.$inferSelect;

interface ReviewRow {
  id: number;
  user_id: number;
  text: string;
  status: number;
  created_at: Date | string;
  updated_at: Date | string | null;
  deleted_at: Date | string | null;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  avatar_key: string | null;
}

const stateOf = (r: ReviewRow): PendingReview['state'] => (r.deleted_at ? 'declined' : r.status === ReviewStatus.accepted ? 'published' : 'pending');

const toPending = (r: ReviewRow): PendingReview => {
  const state = stateOf(r);
  const handledAt = state === 'declined' ? r.deleted_at : state === 'published' ? (r.updated_at ?? r.created_at) : null;
  return {
    id: r.id,
    user_id: r.user_id,
    text: r.text,
    status: r.status,
    user: { id: r.user_id, fio: fullName(r), avatar_url: r.avatar_key ? `/api/avatar/${r.avatar_key}` : null },
    created_at_formatted: formatDate(r.created_at),
    state,
    state_label: reviewStateLabels[state],
    handled_at_formatted: handledAt ? formatDate(handledAt) : null,
  };
};

const SELECT = sql`select r.id, r.user_id, r.text, r.status, r.created_at, r.updated_at, r.deleted_at, u.last_name, u.first_name, u.middle_name,
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

/**
 * Reviews of one status, one page and their total: pending ones oldest first (the queue); the
 * history (published, declined, all) newest first.
 */
export async function listReviews(
  db: Queryable,
  q: { status: ReviewStatusFilter; page: number; per_page: number },
): Promise<{ list: PendingReview[]; total: number }> {
  const where = {
    '0': sql`r.status = ${ReviewStatus.pending} and r.deleted_at is null`,
    '1': sql`r.status = ${ReviewStatus.accepted} and r.deleted_at is null`,
    declined: sql`r.deleted_at is not null`,
    all: sql`true`,
  }[q.status];
  const order = q.status === '0' ? sql`r.created_at, r.id` : sql`coalesce(r.deleted_at, r.updated_at, r.created_at) desc, r.id desc`;
  const [{ total }] = await rows<{ total: number }>(db, sql`select count(*)::int as total from reviews r where ${where}`);
  const list = await rows<ReviewRow>(db, sql`${SELECT} where ${where} order by ${order} limit ${q.per_page} offset ${(q.page - 1) * q.per_page}`);
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
