import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { LINK_TOKEN_MINUTES, type TelegramState } from '@edu/domain/telegram/telegram';
import { rows, type Queryable } from '../../platform/db.ts';
import { logChange } from '../../platform/change-log.ts';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

interface LinkRow {
  user_id: number;
  chat_id: number;
  username: string | null;
  daily_summary: boolean;
  linked_at: Date;
}

export async function linkOf(db: Queryable, userId: number): Promise<LinkRow | undefined> {
  const [link] = await rows<LinkRow>(
    db,
    sql`select user_id, chat_id::float8 as chat_id, username, daily_summary, linked_at from telegram_links where user_id = ${userId}`,
  );
  return link;
}

export async function telegramState(db: Queryable, userId: number, opts: { configured: boolean; operator: boolean }): Promise<TelegramState> {
  const link = await linkOf(db, userId);
  return {
    configured: opts.configured,
    linked: Boolean(link),
    username: link?.username ?? null,
    linked_at: link ? new Date(link.linked_at).toISOString() : null,
    daily_summary: Boolean(link?.daily_summary),
    can_summary: opts.operator,
  };
}

/**
 * A fresh one-time token for `/start <token>`: random 32 bytes (base64url, 43 characters: within
 * the 64 a deep link's start parameter may hold), only its SHA-256 stored. The user's earlier
 * unused tokens stop working.
 */
export async function createLinkToken(db: Queryable, userId: number): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + LINK_TOKEN_MINUTES * 60_000);
  await db.execute(sql`delete from telegram_link_tokens where user_id = ${userId} and (used_at is null or expires_at < now())`);
  await db.execute(sql`insert into telegram_link_tokens (user_id, token_hash, expires_at) values (${userId}, ${hashToken(token)}, ${expiresAt})`);
  return { token, expiresAt };
}

/**
 * `/start <token>` from a private chat: uses the token (once, before it expires) and links the chat
 * to its user, in one transaction with the change-log rows. A chat linked to another account moves
 * to this one. Answers the user id, or null for an unknown, used or expired token.
 */
export async function linkChatByToken(db: Queryable, token: string, chat: { id: number; username: string | null }): Promise<number | null> {
  const [used] = await rows<{ user_id: number }>(
    db,
    sql`update telegram_link_tokens t set used_at = now()
        from users u
        where t.token_hash = ${hashToken(token)} and t.used_at is null and t.expires_at > now() and u.id = t.user_id and u.deleted_at is null
        returning t.user_id`,
  );
  if (!used) return null;
  const [other] = await rows<{ user_id: number }>(
    db,
    sql`delete from telegram_links where chat_id = ${chat.id} and user_id <> ${used.user_id} returning user_id`,
  );
  if (other) await logChange(db, { type: 'user', entityId: other.user_id, userId: null, before: { telegram: 'подключён' }, after: { telegram: null } });
  const before = await linkOf(db, used.user_id);
  await db.execute(
    sql`insert into telegram_links (user_id, chat_id, username) values (${used.user_id}, ${chat.id}, ${chat.username})
        on conflict (user_id) do update set chat_id = excluded.chat_id, username = excluded.username, linked_at = now()`,
  );
  await logChange(db, {
    type: 'user',
    entityId: used.user_id,
    userId: used.user_id,
    before: { telegram: before ? telegramLabel(before.username) : null },
    after: { telegram: telegramLabel(chat.username) },
  });
  return used.user_id;
}

const telegramLabel = (username: string | null) => (username ? `@${username}` : 'подключён');

/** Unlinks the user's chat; `actorId` is who did it (null: the system, after Telegram said the chat is gone). Answers the chat id. */
export async function unlinkUser(db: Queryable, userId: number, actorId: number | null): Promise<number | null> {
  const [gone] = await rows<{ chat_id: number; username: string | null }>(
    db,
    sql`delete from telegram_links where user_id = ${userId} returning chat_id::float8 as chat_id, username`,
  );
  if (!gone) return null;
  await logChange(db, { type: 'user', entityId: userId, userId: actorId, before: { telegram: telegramLabel(gone.username) }, after: { telegram: null } });
  return gone.chat_id;
}

/** Unlinks a chat (`/stop` from it, or the bot was blocked there); answers its user, if it was linked. */
export async function unlinkChat(db: Queryable, chatId: number, byUser: boolean): Promise<number | null> {
  const [gone] = await rows<{ user_id: number; username: string | null }>(
    db,
    sql`delete from telegram_links where chat_id = ${chatId} returning user_id, username`,
  );
  if (!gone) return null;
  await logChange(db, {
    type: 'user',
    entityId: gone.user_id,
    userId: byUser ? gone.user_id : null,
    before: { telegram: telegramLabel(gone.username) },
    after: { telegram: null },
  });
  return gone.user_id;
}

/** The operator's daily summary switch; false when no chat is linked. */
export async function setDailySummary(db: Queryable, userId: number, on: boolean): Promise<boolean> {
  const [row] = await rows<{ user_id: number }>(db, sql`update telegram_links set daily_summary = ${on} where user_id = ${userId} returning user_id`);
  return Boolean(row);
}

/** Records an update as handled; false when it was handled before (Telegram repeats a webhook call until it gets 2xx). */
export async function firstSeen(db: Queryable, updateId: number): Promise<boolean> {
  const [row] = await rows<{ update_id: number }>(
    db,
    sql`insert into telegram_updates (update_id) values (${updateId}) on conflict do nothing returning update_id::float8 as update_id`,
  );
  return Boolean(row);
}

/** Long polling goes on after the last update handled. */
export async function nextUpdateOffset(db: Queryable): Promise<number> {
  const [row] = await rows<{ last: number | null }>(db, sql`select max(update_id)::float8 as last from telegram_updates`);
  return row?.last ? row.last + 1 : 0;
}

/** A notification and its user's chat, for its Telegram copy. */
export async function notificationForTelegram(
  db: Queryable,
  notificationId: number,
): Promise<{ user_id: number; chat_id: number; text_clear: string; url: string | null } | undefined> {
  const [row] = await rows<{ user_id: number; chat_id: number; text_clear: string; url: string | null }>(
    db,
    sql`select n.user_id, l.chat_id::float8 as chat_id, n.text_clear, n.url
        from notifications n join telegram_links l on l.user_id = n.user_id join users u on u.id = n.user_id
        where n.id = ${notificationId} and u.deleted_at is null`,
  );
  return row;
}

/** The chats of live operators who asked for the daily summary. */
export async function summaryChats(db: Queryable, operatorRoles: readonly number[]): Promise<number[]> {
  const list = await rows<{ chat_id: number }>(
    db,
    sql`select l.chat_id::float8 as chat_id from telegram_links l join users u on u.id = l.user_id
        where l.daily_summary and u.deleted_at is null and u.role in (${sql.join(
          operatorRoles.map((r) => sql`${r}`),
          sql`, `,
        )})`,
  );
  return list.map((r) => r.chat_id);
}

/** Forgets handled update ids older than a week (Telegram keeps an undelivered update for 24 hours). */
export async function forgetOldUpdates(db: Queryable): Promise<void> {
  await db.execute(sql`delete from telegram_updates where received_at < now() - interval '7 days'`);
}
