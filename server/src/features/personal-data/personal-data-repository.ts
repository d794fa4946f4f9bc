import { sql } from 'drizzle-orm';
import { ExportStatus } from '@edu/domain/personal-data/personal-data';
import { rows, type Queryable } from '../../platform/db.ts';

// Everything the centre holds about one person, read for their archive (issue 33), and the archive
// rows themselves. Money records are read through the person's entries as well as by user_id, so a
// payment an operator recorded for the person's entry is theirs too.

export interface ExportRow {
  id: number;
  user_id: number;
  requested_by: number;
  requested_by_role: number;
  status: number;
  progress: number;
  storage_key: string | null;
  size: number | null;
  error: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
  expires_at: Date | string | null;
}

const EXPORT_COLUMNS = sql`x.id, x.user_id, x.requested_by, r.role as requested_by_role, x.status, x.progress, x.storage_key, x.size, x.error,
  x.created_at, x.finished_at, x.expires_at`;

/** The person an operator's call names: role and whether their data was erased. */
export async function findPerson(db: Queryable, id: number): Promise<{ id: number; role: number; erased_at: Date | string | null } | null> {
  const [u] = await rows<{ id: number; role: number; erased_at: Date | string | null }>(db, sql`select id, role, erased_at from users where id = ${id}`);
  return u ?? null;
}

/** A new queued archive of the person, or null when one is already queued or preparing (the partial unique index). */
export async function insertExport(db: Queryable, userId: number, requestedBy: number): Promise<number | null> {
  const [row] = await rows<{ id: number }>(
    db,
    sql`insert into personal_data_exports (user_id, requested_by) values (${userId}, ${requestedBy}) on conflict do nothing returning id`,
  );
  return row?.id ?? null;
}

export async function findExport(db: Queryable, id: number): Promise<ExportRow | null> {
  const [row] = await rows<ExportRow>(db, sql`select ${EXPORT_COLUMNS} from personal_data_exports x join users r on r.id = x.requested_by where x.id = ${id}`);
  return row ?? null;
}

/** The person's newest archive. */
export async function latestExport(db: Queryable, userId: number): Promise<ExportRow | null> {
  const [row] = await rows<ExportRow>(
    db,
    sql`select ${EXPORT_COLUMNS} from personal_data_exports x join users r on r.id = x.requested_by
        where x.user_id = ${userId} order by x.created_at desc, x.id desc limit 1`,
  );
  return row ?? null;
}

export async function setExportProgress(db: Queryable, id: number, progress: number): Promise<void> {
  await db.execute(
    sql`update personal_data_exports set status = ${ExportStatus.preparing}, progress = ${Math.min(99, Math.round(progress))}
        where id = ${id} and status in (${ExportStatus.queued}, ${ExportStatus.preparing})`,
  );
}

/** Marks the archive ready; false when it was expired meanwhile (the person's data was erased). */
export async function finishExport(db: Queryable, id: number, f: { key: string; size: number; expiresAt: Date }): Promise<boolean> {
  const done = await rows<{ id: number }>(
    db,
    sql`update personal_data_exports set status = ${ExportStatus.ready}, progress = 100, storage_key = ${f.key}, size = ${f.size},
          finished_at = now(), expires_at = ${f.expiresAt.toISOString()} where id = ${id} and status = ${ExportStatus.preparing} returning id`,
  );
  return done.length > 0;
}

export async function failExport(db: Queryable, id: number, error: string): Promise<void> {
  await db.execute(
    sql`update personal_data_exports set status = ${ExportStatus.failed}, error = ${error.slice(0, 1000)}, finished_at = now() where id = ${id}`,
  );
}

/** Marks archives expired (their zips removed by the caller); answers the storage keys to remove. */
export async function expireExports(db: Queryable, where: { id?: number; userId?: number }): Promise<string[]> {
  const cond = where.id !== undefined ? sql`id = ${where.id}` : sql`user_id = ${where.userId ?? 0}`;
  const list = await rows<{ storage_key: string | null }>(
    db,
    sql`update personal_data_exports x set status = ${ExportStatus.expired}, storage_key = null
        from (select id, storage_key from personal_data_exports where ${cond} and status in (${ExportStatus.queued}, ${ExportStatus.preparing}, ${ExportStatus.ready}) for update) old
        where x.id = old.id returning old.storage_key`,
  );
  return list.map((r) => r.storage_key).filter((k): k is string => Boolean(k));
}

// What an archive holds, section by section.

export interface Profile {
  id: number;
  email: string;
  phone: string | null;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  organization: string | null;
  job_title: string | null;
  learned_from_us: string | null;
  address: string | null;
  region: string | null;
  dict_region: string | null;
  country: string | null;
  postcode: string | null;
  birthday: string | null;
  snils: string | null;
  fio_dative: string | null;
  is_spb: number;
  role: number;
  avatar_id: number | null;
  profiles: string[];
  created_at: Date | string;
  updated_at: Date | string;
  erased_at: Date | string | null;
}

export interface StoredFileRef {
  id: number;
  name: string;
  storage_key: string;
  mime: string;
  size: number;
  created_at: Date | string;
  purged_at: Date | string | null;
}

export interface PersonalData {
  profile: Profile;
  identity: { type: string | null; number: string; date: string; issued_by: string; created_at: Date | string } | null;
  documents: Array<{ kind: string; file: StoredFileRef; document_type: string | null; created_at: Date | string }>;
  avatar: StoredFileRef | null;
  entries: Array<{
    id: number;
    number: string;
    service: string;
    status: number;
    price: number;
    refunded: number;
    pay_type: number;
    is_extramural: number;
    certificate_number: string | null;
    registration_number: string | null;
    paid_at: Date | string | null;
    done_at: Date | string | null;
    created_at: Date | string;
    deleted_at: Date | string | null;
  }>;
  payments: Array<{
    id: number;
    sum: number;
    pay_type: number;
    description: string | null;
    entries: string | null;
    is_double: boolean;
    created_at: Date | string;
  }>;
  refunds: Array<{
    id: number;
    payment_id: number;
    sum: number;
    status: string;
    reason: string;
    created_at: Date | string;
    succeeded_at: Date | string | null;
  }>;
  contracts: Array<{
    id: number;
    service: string;
    entry_number: string;
    status: number;
    comment: string | null;
    file: StoredFileRef | null;
    created_at: Date | string;
  }>;
  publications: Array<{
    id: number;
    title: string;
    status: number;
    role: string;
    url: string | null;
    created_at: Date | string;
    deleted_at: Date | string | null;
    files: StoredFileRef[];
  }>;
  certificates: Array<{
    entry_number: string;
    service: string;
    kind: string;
    code: string;
    issued_at: Date | string;
    revoked_at: Date | string | null;
    revoked_reason: string | null;
  }>;
  notifications: Array<{ text: string; checked: boolean; created_at: Date | string }>;
  letters: Array<{ kind: string; subject: string; sent_at: Date | string | null; result: string }>;
  consents: Array<{ what: string; given_at: Date | string | null; withdrawn_at: Date | string | null; note: string }>;
  reviews: Array<{ text: string; status: number; created_at: Date | string }>;
  sessions: Array<{ created_at: Date | string; last_used_at: Date | string; ip: string | null; user_agent: string | null; by_operator: boolean }>;
}

const FILE = (alias: string) =>
  sql.raw(
    `json_build_object('id', ${alias}.id, 'name', ${alias}.name, 'storage_key', ${alias}.storage_key, 'mime', ${alias}.mime, 'size', ${alias}.size, 'created_at', ${alias}.created_at, 'purged_at', ${alias}.purged_at)`,
  );

/** Reads every section of the person's data (null when there is no such person). */
export async function collectPersonalData(db: Queryable, userId: number): Promise<PersonalData | null> {
  const [profile] = await rows<Profile>(
    db,
    sql`select u.id, u.email, u.phone, u.last_name, u.first_name, u.middle_name, u.organization, u.job_title, u.learned_from_us, u.address,
               u.region, r.fdv as dict_region, u.country, u.postcode, u.birthday::text as birthday, u.snils, u.fio_dative, u.is_spb, u.role,
               u.avatar_id, u.created_at, u.updated_at, u.erased_at,
               coalesce((select json_agg(p.fdv order by p.fdv) from user_profiles up join dict_profiles p on p.id = up.dict_profile_id where up.user_id = u.id), '[]'::json) as profiles
        from users u left join dict_regions r on r.id = u.dict_region_id where u.id = ${userId}`,
  );
  if (!profile) return null;
  const [identity] = await rows<NonNullable<PersonalData['identity']>>(
    db,
    sql`select t.fdv as type, d.number, d.date::text as date, d.issued_by, d.created_at
        from identity_documents d left join dict_document_types t on t.id = d.dict_document_type_id where d.user_id = ${userId}`,
  );
  const documents = await rows<PersonalData['documents'][number]>(
    db,
    sql`select ud.kind, ${FILE('f')} as file, t.fdv as document_type, ud.created_at
        from user_documents ud join files f on f.id = ud.file_id left join dict_document_types t on t.id = ud.dict_document_type_id
        where ud.user_id = ${userId} order by ud.created_at, ud.id`,
  );
  const [avatar] = profile.avatar_id
    ? await rows<{ file: StoredFileRef }>(db, sql`select ${FILE('f')} as file from files f where f.id = ${profile.avatar_id}`)
    : [];
  const entries = await rows<PersonalData['entries'][number]>(
    db,
    sql`select e.id, e.number, s.title as service, e.status, e.price, e.refunded, e.pay_type, e.is_extramural, e.certificate_number,
               e.registration_number, e.paid_at, e.done_at, e.created_at, e.deleted_at
        from entries e join services s on s.id = e.service_id where e.created_by = ${userId} order by e.created_at, e.id`,
  );
  const payments = await rows<PersonalData['payments'][number]>(
    db,
    sql`select p.id, p.sum, p.pay_type, p.description, p.is_double, p.created_at,
               (select string_agg(e.number, ', ' order by e.number) from payment_entries pe join entries e on e.id = pe.entry_id where pe.payment_id = p.id) as entries
        from payments p
        where p.user_id = ${userId} or exists (select 1 from payment_entries pe join entries e on e.id = pe.entry_id where pe.payment_id = p.id and e.created_by = ${userId})
        order by p.created_at, p.id`,
  );
  const paymentIds = payments.map((p) => p.id);
  const refunds = paymentIds.length
    ? await rows<PersonalData['refunds'][number]>(
        db,
        sql`select r.id, r.payment_id, r.sum, r.status, r.reason, r.created_at, r.succeeded_at from payment_refunds r
            where r.payment_id in (${sql.join(
              paymentIds.map((i) => sql`${i}`),
              sql`, `,
            )}) order by r.created_at, r.id`,
      )
    : [];
  const contracts = await rows<PersonalData['contracts'][number]>(
    db,
    sql`select c.id, s.title as service, e.number as entry_number, c.status, c.comment, c.created_at,
               case when f.id is null then null else ${FILE('f')} end as file
        from contracts c join services s on s.id = c.service_id join entries e on e.id = c.entry_id left join files f on f.id = c.file_id
        where c.user_id = ${userId} order by c.created_at, c.id`,
  );
  const publications = await rows<PersonalData['publications'][number]>(
    db,
    sql`select p.id, p.title, p.status, p.url, p.created_at, p.deleted_at,
               case when p.created_by = ${userId} then 'Автор' else 'Соавтор' end as role,
               coalesce((select json_agg(${FILE('f')} order by f.id) from files f
                         where f.id = p.file_id or f.id in (select pf.file_id from publication_files pf where pf.publication_id = p.id)), '[]'::json) as files
        from publications p
        where p.created_by = ${userId}
           or exists (select 1 from publication_authors a where a.publication_id = p.id and a.user_id = ${userId} and a.accepted_at is not null)
        order by p.created_at, p.id`,
  );
  const certificates = await rows<PersonalData['certificates'][number]>(
    db,
    sql`select e.number as entry_number, s.title as service, d.kind, d.code, d.issued_at, d.revoked_at, d.revoked_reason
        from issued_documents d join entries e on e.id = d.entry_id join services s on s.id = e.service_id
        where e.created_by = ${userId} order by d.issued_at, d.id`,
  );
  const notifications = await rows<PersonalData['notifications'][number]>(
    db,
    sql`select text_clear as text, checked, created_at from notifications where user_id = ${userId} order by created_at, id`,
  );
  const letters = await rows<PersonalData['letters'][number]>(
    db,
    sql`select kind, subject, sent_at, result from (
          select 'Уведомление о событии' as kind, coalesce(ev.dv, ev.fdv) as subject, o.mailed_at as sent_at,
                 case o.mail_result when 'sent' then 'Отправлено' when 'failed' then 'Не доставлено' when 'no-address' then 'Нет адреса' else 'Не отправлялось' end as result,
                 o.created_at as at
            from event_outbox o join dict_events ev on ev.id = o.event_id where o.user_id = ${userId} and o.mail_result in ('sent', 'failed')
          union all
          select 'Рассылка', coalesce(m.subject, 'Рассылка'), d.sent_at,
                 case d.status when 1 then 'Отправлено' when 2 then 'Не доставлено' else 'Ожидает отправки' end, m.created_at
            from mailing_deliveries d join mailings m on m.id = d.mailing_id where d.user_id = ${userId}
        ) l order by at`,
  );
  const [subscription] = await rows<{ unsubscribed_at: Date | string | null }>(
    db,
    sql`select unsubscribed_at from mail_subscriptions where user_id = ${userId}`,
  );
  const coAuthor = await rows<{ title: string; accepted_at: Date | string }>(
    db,
    sql`select p.title, a.accepted_at from publication_authors a join publications p on p.id = a.publication_id
        where a.user_id = ${userId} and a.accepted_at is not null and p.created_by <> ${userId} order by a.accepted_at`,
  );
  const consents: PersonalData['consents'] = [
    {
      what: 'Согласие на обработку персональных данных (дано при регистрации в личном кабинете)',
      given_at: profile.created_at,
      withdrawn_at: profile.erased_at,
      note: 'Кнопка «Зарегистрироваться» с текстом о согласии',
    },
    ...documents
      .filter((d) => d.kind === 'consent')
      .map((d) => ({ what: 'Подписанное согласие на обработку персональных данных (скан)', given_at: d.created_at, withdrawn_at: null, note: d.file.name })),
    {
      what: 'Получение рассылок',
      given_at: profile.created_at,
      withdrawn_at: subscription?.unsubscribed_at ?? null,
      note: subscription?.unsubscribed_at ? 'Отписка от рассылок' : 'Подписка действует',
    },
    ...coAuthor.map((c) => ({ what: `Согласие быть соавтором публикации «${c.title}»`, given_at: c.accepted_at, withdrawn_at: null, note: '' })),
  ];
  const reviews = await rows<PersonalData['reviews'][number]>(
    db,
    sql`select text, status, created_at from reviews where user_id = ${userId} and deleted_at is null order by created_at, id`,
  );
  const sessions = await rows<PersonalData['sessions'][number]>(
    db,
    sql`select created_at, last_used_at, ip, user_agent, impersonator_id is not null as by_operator from access_tokens
        where user_id = ${userId} order by created_at desc limit 200`,
  );
  return {
    profile,
    identity: identity ?? null,
    documents,
    avatar: avatar?.file ?? null,
    entries,
    payments,
    refunds,
    contracts,
    publications,
    certificates,
    notifications,
    letters,
    consents,
    reviews,
    sessions,
  };
}
