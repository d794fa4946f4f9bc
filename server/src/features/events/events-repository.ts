import { sql } from 'drizzle-orm';
import { TemplateType } from '@edu/domain/common/codes';
import type { EventRow, NotificationTemplate } from '@edu/domain/events/event';
import { rows, type Queryable } from '../../platform/db.ts';

/** The columns of an event the 'События' screen saves. */
export interface EventChanges {
  dv?: string;
  content?: string | null;
  template_id?: number | null;
  is_mailing?: boolean;
  icon?: string | null;
  color?: string | null;
}

export type NotificationTemplateRow = NotificationTemplate;

/** Live notification templates (type 5), for the event's dropdown. */
export async function listNotificationTemplates(db: Queryable): Promise<NotificationTemplateRow[]> {
  return rows<NotificationTemplateRow>(
    db,
    sql`select id, title, content from templates where dict_type_id = ${TemplateType.notification} and deleted_at is null order by title, id`,
  );
}

export async function isNotificationTemplate(db: Queryable, id: number): Promise<boolean> {
  const [tpl] = await rows<{ id: number }>(
    db,
    sql`select id from templates where id = ${id} and dict_type_id = ${TemplateType.notification} and deleted_at is null`,
  );
  return Boolean(tpl);
}

export async function findEvent(db: Queryable, id: number): Promise<EventRow | undefined> {
  const [event] = await rows<EventRow>(db, sql`select * from dict_events where id = ${id}`);
  return event;
}

/** Writes the given columns only; nothing when there are none. */
export async function updateEvent(db: Queryable, id: number, changes: EventChanges): Promise<void> {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return;
  const assignments = sql.join(
    entries.map(([k, v]) => sql`${sql.identifier(k)} = ${v}`),
    sql`, `,
  );
  await db.execute(sql`update dict_events set ${assignments} where id = ${id}`);
}
