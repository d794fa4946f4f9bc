import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { isOperator } from '@edu/domain/common/codes';
import { ERASED_LAST_NAME, PersonalDataMessages } from '@edu/domain/personal-data/personal-data';
import { logChange, logEvent } from '../../platform/change-log.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { expireExports } from './personal-data-repository.ts';
import { removeArchives } from './personal-data-export.ts';

/** The person's stored fields the erasure changes, as the change log compares them (numbers masked there). */
async function personSnapshot(db: Queryable, id: number): Promise<Record<string, unknown> | null> {
  const [row] = await rows<Record<string, unknown>>(
    db,
    sql`select u.email, u.phone, u.last_name, u.first_name, u.middle_name, u.organization, u.job_title, u.learned_from_us, u.address,
               u.region, u.country, u.postcode, u.note, u.birthday::text as birthday, u.snils, u.fio_dative, u.avatar_id, u.password,
               u.deleted_at, u.erased_at,
               d.number as passport_number, d.date::text as passport_date, d.issued_by as passport_issued_by,
               coalesce((select json_agg(up.dict_profile_id order by up.dict_profile_id) from user_profiles up where up.user_id = u.id), '[]'::json) as profiles
        from users u left join identity_documents d on d.user_id = u.id where u.id = ${id}`,
  );
  return row ?? null;
}

/**
 * Erases a client's personal data on their request (152-FZ art. 21), keeping what accounting law
 * requires (decision 041): the account stays as «Удалённый пользователь» with an unusable unique
 * e-mail and no phone or password, so its entries, payments, refunds, contracts, certificates and
 * publications keep their owner, amounts and numbers for the books, lists, statistics and old
 * registries. Identity data, contacts, address, the avatar and every uploaded document are removed
 * (the files' bytes at once), sessions end, notifications and archives go. Operators cannot be
 * erased this way, nor a client with a payment or refund still in progress. The change and an event
 * naming the operator and the reason are one transaction with the change-log rows.
 */
export async function eraseUser(app: FastifyInstance, actor: { id: number }, userId: number, reason: string): Promise<Date> {
  if (userId === actor.id) throw new AppError(422, PersonalDataMessages.noEraseSelf);
  const { fileKeys, archiveKeys, erasedAt } = await app.db.transaction(async (tx) => {
    const [target] = await rows<{ id: number; role: number; erased_at: Date | null }>(
      tx,
      sql`select id, role, erased_at from users where id = ${userId} for update`,
    );
    if (!target) throw notFound();
    if (isOperator(target)) throw new AppError(422, PersonalDataMessages.noEraseOperator);
    if (target.erased_at) throw new AppError(422, PersonalDataMessages.alreadyErased);
    const [open] = await rows<{ n: number }>(
      tx,
      sql`select (select count(*) from card_transactions where (user_id = ${userId} or created_by = ${userId}) and status in ('pending', 'waiting_for_capture'))
               + (select count(*) from payment_refunds r join payments p on p.id = r.payment_id
                   where r.status = 'pending' and (p.user_id = ${userId}
                     or exists (select 1 from payment_entries pe join entries e on e.id = pe.entry_id where pe.payment_id = p.id and e.created_by = ${userId}))) as n`,
    );
    if (Number(open.n) > 0) throw new AppError(422, PersonalDataMessages.openMoney);

    const before = await personSnapshot(tx, userId);
    // Every file of the person's identity and documents, and the avatar: the rows stay (the log names
    // them by id), the bytes are removed after the commit.
    const files = await rows<{ id: number; storage_key: string }>(
      tx,
      sql`update files set deleted_at = coalesce(deleted_at, now()), purged_at = now(), name = 'Удалённый файл'
          where purged_at is null and (id in (select file_id from user_documents where user_id = ${userId})
             or id = (select avatar_id from users where id = ${userId}))
          returning id, storage_key`,
    );
    await tx.execute(sql`delete from user_documents where user_id = ${userId}`);
    await tx.execute(sql`delete from identity_documents where user_id = ${userId}`);
    await tx.execute(sql`delete from user_profiles where user_id = ${userId}`);
    await tx.execute(sql`delete from notifications where user_id = ${userId}`);
    await tx.execute(sql`delete from password_resets where user_id = ${userId}`);
    await tx.execute(sql`delete from file_links where user_id = ${userId}`);
    await tx.execute(sql`delete from mail_subscriptions where user_id = ${userId}`);
    await tx.execute(sql`delete from access_tokens where user_id = ${userId}`);
    const placeholder = `erased-${userId}@erased.invalid`;
    await tx.execute(sql`update mailing_deliveries set email = ${placeholder} where user_id = ${userId}`);
    // Money records keep their sums; the payer's name and phone on a card payment go.
    await tx.execute(sql`update card_transactions set fio = ${ERASED_LAST_NAME}, phone = null where user_id = ${userId} or created_by = ${userId}`);
    await tx.execute(sql`update publication_authors set fio = ${ERASED_LAST_NAME} where user_id = ${userId}`);
    const [done] = await rows<{ erased_at: Date }>(
      tx,
      sql`update users set email = ${placeholder}, phone = null, password = null, last_name = ${ERASED_LAST_NAME}, first_name = '',
            middle_name = null, organization = null, job_title = null, learned_from_us = null, address = null, region = null,
            country = null, postcode = null, note = null, birthday = null, snils = null, fio_dative = null, avatar_id = null,
            contract_step = null, deleted_at = coalesce(deleted_at, now()), erased_at = now(), updated_at = now()
          where id = ${userId} returning erased_at`,
    );
    const after = await personSnapshot(tx, userId);
    await logChange(tx, { type: 'user', entityId: userId, userId: actor.id, before, after });
    await logEvent(tx, { type: 'user', entityId: userId, userId: actor.id, diff: { personal_data_erased: { old: null, new: reason } } });
    const archives = await expireExports(tx, { userId });
    return { fileKeys: files.map((f) => f.storage_key), archiveKeys: archives, erasedAt: new Date(done.erased_at) };
  });
  for (const key of fileKeys) {
    await app.files.remove(key).catch((err: unknown) => app.log.warn({ err, key }, 'could not remove an erased person’s file'));
  }
  await removeArchives(app, archiveKeys);
  return erasedAt;
}
