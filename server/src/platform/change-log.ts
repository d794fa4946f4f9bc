import type { ChangeDiff, ChangeLogType } from '@edu/domain/logs/log';
import { changeLogs } from '../db/schema/index.ts';
import { currentImpersonator } from './auth.ts';
import type { Queryable } from './db.ts';

type Values = Record<string, unknown>;

/** Never written to the log as values: a change shows only that it happened. */
const SECRET = new Set(['password', 'password_hash', 'token', 'token_hash']);
export const SECRET_MARK = '••••••';

/** The fields that changed between two versions of a row, ignoring id, user_id and timestamps. */
export function diffOf(before: Values | null, after: Values | null): ChangeDiff {
  const ignored = new Set(['id', 'user_id', 'created_at', 'updated_at']);
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const diff: ChangeDiff = {};
  for (const k of keys) {
    if (ignored.has(k)) continue;
    const o = normalise(before?.[k]);
    const n = normalise(after?.[k]);
    if (JSON.stringify(o) === JSON.stringify(n)) continue;
    diff[k] = SECRET.has(k) ? { old: o == null ? null : SECRET_MARK, new: n == null ? null : SECRET_MARK } : { old: o ?? null, new: n ?? null };
  }
  return diff;
}

function normalise(v: unknown): unknown {
  return v instanceof Date ? v.toISOString() : v;
}

export interface ChangeLogEntry {
  type: ChangeLogType;
  entityId: number;
  /** Who acted; null is the system (jobs, the payment provider). */
  userId: number | null;
  before: Values | null;
  after: Values | null;
}

/**
 * Writes a change-log row of users, services, entries, payments or publications: call it with the
 * transaction of the change, so the change and its row commit together. Nothing is written when
 * nothing changed. In a "login as user" session the row also names the operator who acted
 * (impersonator_id, from the request's context), so the log shows both.
 */
export async function logChange(db: Queryable, entry: ChangeLogEntry): Promise<void> {
  const diff = diffOf(entry.before, entry.after);
  if (Object.keys(diff).length === 0) return;
  await logEvent(db, { type: entry.type, entityId: entry.entityId, userId: entry.userId, diff });
}

/** A log row that is an event rather than a field change (e.g. an operator logging in as a user). */
export async function logEvent(db: Queryable, entry: { type: ChangeLogType; entityId: number; userId: number | null; diff: ChangeDiff }): Promise<void> {
  const impersonator = currentImpersonator();
  await db.insert(changeLogs).values({
    type: entry.type,
    entity_id: entry.entityId,
    user_id: entry.userId,
    impersonator_id: impersonator !== null && impersonator !== entry.userId ? impersonator : null,
    diff: entry.diff,
  });
}
