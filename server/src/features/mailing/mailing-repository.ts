import { sql } from 'drizzle-orm';
import { formatDateTime } from '@edu/domain/common/format';
import { mailingStatusLabels, type MailingProgress, type MailingStatus } from '@edu/domain/mailing/mailing';
import { rows, type Queryable } from '../../platform/db.ts';

interface MailingRow {
  id: number;
  status: MailingStatus;
  text: string | null;
  recipients: number;
  created_at: Date;
  finished_at: Date | null;
  sent: number;
  failed: number;
  waiting: number;
  last_minute: number;
}

const EXCERPT = 140;

/** Counts come from the deliveries themselves, so the view is right even after a crash mid-mailing. */
const progressSelect = sql`select m.id, m.status, m.text, m.recipients, m.created_at, m.finished_at,
    coalesce(d.sent, 0)::int as sent, coalesce(d.failed, 0)::int as failed, coalesce(d.waiting, 0)::int as waiting,
    coalesce(d.last_minute, 0)::int as last_minute
  from mailings m
  left join lateral (
    select count(*) filter (where status = 1) as sent, count(*) filter (where status = 2) as failed,
           count(*) filter (where status = 0) as waiting,
           count(*) filter (where status = 1 and sent_at > now() - interval '1 minute') as last_minute
    from mailing_deliveries where mailing_id = m.id
  ) d on true`;

function toProgress(r: MailingRow, failures: MailingProgress['failures']): MailingProgress {
  const text = (r.text ?? '').replace(/\s+/g, ' ').trim();
  return {
    id: r.id,
    status: r.status,
    status_label: mailingStatusLabels[r.status],
    excerpt: text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text,
    recipients: r.recipients,
    sent: r.sent,
    failed: r.failed,
    left: r.status === 'done' ? 0 : r.status === 'queued' ? r.recipients : r.waiting,
    rate_per_minute: r.status === 'done' ? 0 : r.last_minute,
    created_at_formatted: formatDateTime(r.created_at),
    finished_at_formatted: r.finished_at ? formatDateTime(r.finished_at) : null,
    failures,
  };
}

export async function mailingProgress(db: Queryable, id: number): Promise<MailingProgress | null> {
  const [r] = await rows<MailingRow>(db, sql`${progressSelect} where m.id = ${id}`);
  if (!r) return null;
  const failures = await rows<{ email: string; error: string | null; attempts: number }>(
    db,
    sql`select email, last_error as error, attempts from mailing_deliveries where mailing_id = ${id} and status = 2 order by id limit 100`,
  );
  return toProgress(r, failures);
}

export async function listMailings(db: Queryable, limit: number): Promise<MailingProgress[]> {
  const list = await rows<MailingRow>(db, sql`${progressSelect} order by m.id desc limit ${limit}`);
  return list.map((r) => toProgress(r, []));
}
