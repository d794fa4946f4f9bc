import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { rows } from '../../platform/db.ts';
import { htmlToText } from '../../platform/html.ts';
import { eventValues, renderHtml, renderText } from './event-macros.ts';

/**
 * Sends an event's e-mail at once, whatever its mailing switch says, for mail the person asked for
 * and waits for (a new password). Such mail carries a secret, so it is not written to the outbox.
 * Answers whether it was sent; failures are logged, not thrown.
 */
export async function sendEventMailNow(
  app: FastifyInstance,
  eventId: number,
  user: { id: number; email: string },
  extra: Record<string, string>,
): Promise<boolean> {
  try {
    const [event] = await rows<{ fdv: string; dv: string | null; content: string | null }>(
      app.db,
      sql`select fdv, dv, content from dict_events where id = ${eventId}`,
    );
    if (!event?.content) return false;
    const values = await eventValues(app.db, { userId: user.id }, { 'app.url': app.config.appUrl, ...extra });
    const html = renderHtml(event.content, values);
    await app.mailer.send({ to: user.email, subject: renderText(event.dv || event.fdv, values), html, text: htmlToText(html) });
    return true;
  } catch (err) {
    app.log.error({ err, eventId }, 'event mail failed');
    return false;
  }
}
