// Co-authors with an account. A typed name is only a name; linking someone's account makes the
// publication theirs too (their list, their letters), so it needs that account's consent: a link
// made by a user is an invitation the invited person accepts or declines; an operator's link needs
// none (operators act for the centre).
import { sql } from 'drizzle-orm';
import { coAuthorInvitationText, CoAuthorMessages, type CoAuthorInvitation } from '@edu/domain/publications/co-authors';
import { publicationAuthors } from '../../db/schema/index.ts';
import { isOperator } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { fieldError, notFound } from '../../platform/errors.ts';
import { escapeHtml } from '../../platform/html.ts';
import { notify } from '../../platform/notify.ts';

/** Where the invited person answers (the cabinet's «Мои публикации»). */
const INVITATIONS_URL = '/user/publication';

/**
 * Replaces the co-authors (every author but the creator) of a publication. An account linked before
 * keeps its consent; a newly linked account is accepted at once when an operator links it, and is
 * otherwise invited (a notification asks it to accept). An account that declined this publication
 * is not invited again: a user's link to it is refused (422), an operator's is made.
 */
export async function replaceCoAuthors(
  tx: Queryable,
  o: { publicationId: number; creator: number; by: AuthUser; authors: Array<{ user_id: number | null; fio: string }> },
): Promise<void> {
  const before = await rows<{ user_id: number; accepted_at: Date | string | null }>(
    tx,
    sql`select user_id, accepted_at from publication_authors where publication_id = ${o.publicationId} and position > 0 and user_id is not null`,
  );
  const known = new Map(before.map((a) => [a.user_id, a.accepted_at]));
  if (!isOperator(o.by)) {
    const declined = new Set(
      (await rows<{ user_id: number }>(tx, sql`select user_id from publication_declined_co_authors where publication_id = ${o.publicationId}`)).map(
        (r) => r.user_id,
      ),
    );
    const again = o.authors.find((a) => a.user_id !== null && a.user_id !== o.creator && !known.has(a.user_id) && declined.has(a.user_id));
    if (again) throw fieldError('authors', CoAuthorMessages.declinedBefore(await accountName(tx, again.user_id!)));
  }
  await tx.execute(sql`delete from publication_authors where publication_id = ${o.publicationId} and position > 0`);
  const invited: number[] = [];
  let position = 1;
  for (const a of o.authors) {
    if (a.user_id === o.creator) continue;
    let acceptedAt: Date | null = null;
    if (a.user_id !== null) {
      const previous = known.get(a.user_id);
      if (previous) acceptedAt = new Date(previous);
      else if (isOperator(o.by)) acceptedAt = new Date();
      else if (previous === undefined && !invited.includes(a.user_id)) invited.push(a.user_id);
    }
    await tx
      .insert(publicationAuthors)
      .values({ publication_id: o.publicationId, user_id: a.user_id, fio: a.fio.slice(0, 255), position: position++, accepted_at: acceptedAt });
  }
  if (invited.length === 0) return;
  const [p] = await rows<{ title: string; inviter: string }>(
    tx,
    sql`select p.title, concat_ws(' ', u.last_name, u.first_name, u.middle_name) as inviter
        from publications p join users u on u.id = ${o.by.id} where p.id = ${o.publicationId}`,
  );
  for (const userId of invited) {
    await notify(tx, {
      userId,
      text: escapeHtml(coAuthorInvitationText(p?.inviter ?? '', p?.title ?? '')),
      icon: 'IconUsers',
      color: 'orange',
      url: INVITATIONS_URL,
    });
  }
}

async function accountName(tx: Queryable, userId: number): Promise<string> {
  const [u] = await rows<{ fio: string }>(tx, sql`select concat_ws(' ', last_name, first_name, middle_name) as fio from users where id = ${userId}`);
  return u?.fio ?? '';
}

/** The invitations waiting for this user's answer, newest first. */
export function pendingInvitations(db: Queryable, userId: number): Promise<CoAuthorInvitation[]> {
  return rows<CoAuthorInvitation>(
    db,
    sql`select p.id as publication_id, p.title, a.fio,
          concat_ws(' ', u.last_name, u.first_name, u.middle_name) as inviter
        from publication_authors a
        join publications p on p.id = a.publication_id and p.deleted_at is null
        join users u on u.id = p.created_by
        where a.user_id = ${userId} and a.accepted_at is null and a.position > 0
        order by a.id desc limit 100`,
  );
}

/**
 * The invited person's answer. Accepting links the account (the publication is theirs to read, and
 * they get its letters); declining keeps the typed name as a plain name and links nobody.
 */
export async function answerInvitation(tx: Queryable, me: AuthUser, publicationId: number, accept: boolean): Promise<string> {
  const [link] = await rows<{ id: number; fio: string }>(
    tx,
    sql`select a.id, a.fio from publication_authors a join publications p on p.id = a.publication_id and p.deleted_at is null
        where a.publication_id = ${publicationId} and a.user_id = ${me.id} and a.accepted_at is null and a.position > 0 for update of a`,
  );
  if (!link) throw notFound(CoAuthorMessages.noInvitation);
  if (accept) await tx.execute(sql`update publication_authors set accepted_at = now() where id = ${link.id}`);
  else {
    await tx.execute(sql`update publication_authors set user_id = null where id = ${link.id}`);
    // Remembered, so the author cannot invite this account to the publication again.
    await tx.execute(sql`insert into publication_declined_co_authors (publication_id, user_id) values (${publicationId}, ${me.id}) on conflict do nothing`);
  }
  await logChange(tx, {
    type: 'publication',
    entityId: publicationId,
    userId: me.id,
    before: { co_author_invitation: link.fio },
    after: { co_author_invitation: accept ? CoAuthorMessages.acceptedLog : CoAuthorMessages.declinedLog },
  });
  return accept ? CoAuthorMessages.accepted : CoAuthorMessages.declined;
}
