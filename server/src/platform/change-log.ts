import { changeLogs } from '../db/schema/index.ts';
import type { Queryable } from './db.ts';

type Values = Record<string, unknown>;

/** The fields that changed between two versions of a row, ignoring id, user_id and timestamps. */
export function diffOf(before: Values | null, after: Values | null): Record<string, { old: unknown; new: unknown }> {
  const ignored = new Set(['id', 'user_id', 'created_at', 'updated_at']);
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const diff: Record<string, { old: unknown; new: unknown }> = {};
  for (const k of keys) {
    if (ignored.has(k)) continue;
    const o = normalise(before?.[k]);
    const n = normalise(after?.[k]);
    if (JSON.stringify(o) !== JSON.stringify(n)) diff[k] = { old: o ?? null, new: n ?? null };
  }
  return diff;
}

function normalise(v: unknown): unknown {
  return v instanceof Date ? v.toISOString() : v;
}

/** Writes a change-log row (same transaction as the change). Nothing is written when nothing changed. */
export async function logChange(db: Queryable, entry: { type: 'entry' | 'publication'; entityId: number; userId: number | null; before: Values | null; after: Values | null }): Promise<void> {
  const diff = diffOf(entry.before, entry.after);
  if (Object.keys(diff).length === 0) return;
  await db.insert(changeLogs).values({ type: entry.type, entity_id: entry.entityId, user_id: entry.userId, diff });
}
