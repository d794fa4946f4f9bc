import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { dictEvents } from '../db/schema/index.ts';
import type { Queryable } from './db.ts';
import { fillMacros, type Mailer } from './mail.ts';

/**
 * Sends the e-mail of a dictionary event (dict_events: subject dv, body content with macros) when
 * the event's mailing switch is on (or `always`, for mail the user asked for, such as a new password). Failures are logged, never thrown: mail must not undo the
 * action that caused it.
 */
export async function sendEventMail(
  deps: { db: Queryable; mailer: Mailer; log: FastifyBaseLogger },
  eventId: number,
  to: string,
  values: Record<string, string | number | null | undefined>,
  opts: { always?: boolean } = {},
): Promise<boolean> {
  try {
    const [event] = await deps.db.select().from(dictEvents).where(eq(dictEvents.id, eventId));
    if (!event || !event.content || (!event.is_mailing && !opts.always)) return false;
    await deps.mailer.send({ to, subject: fillMacros(event.dv ?? event.fdv, values), html: fillMacros(event.content, values) });
    return true;
  } catch (err) {
    deps.log.error({ err, eventId, to }, 'event mail failed');
    return false;
  }
}
