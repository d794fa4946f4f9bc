import { sql } from 'drizzle-orm';
import { DateType, entryStatusLabels, type EntryStatusCode } from '@edu/domain/common/codes';
import { formatDate } from '@edu/domain/common/format';
import { rows, type Queryable } from '../../platform/db.ts';
import { intArray } from '../../platform/list-query.ts';
import { loadConfig } from '../../platform/config.ts';
import { formatInterval, moscowNoonOf } from '@edu/domain/common/moscow-time';
import { readRequisites } from './requisites.ts';
import {
  dativeName,
  genderOf,
  joinFio,
  plural,
  quoted,
  quotedName,
  rublesInFigures,
  rublesInWords,
  shortFio,
  splitFio,
  type NameParts,
} from './russian-words.ts';
import { entryPaymentNote } from '@edu/domain/entries/entry';
import { contractStatusLabels, type ContractStatusCode } from '@edu/domain/contracts/contract';

/** What a template is filled for. Missing links are followed: an entry gives its client and service. */
export interface MacroSubject {
  userId?: number;
  entryId?: number;
  serviceId?: number;
  publicationId?: number;
  contractId?: number;
}

/**
 * Every macro of the catalogue that the subject can fill, by name ('user.fio' -> 'Иванов Иван
 * Иванович'). Macros without data are absent, so the renderer can show them as missing. `extra`
 * adds or overrides values (a new password, a different app url).
 */
export async function macroValues(db: Queryable, subject: MacroSubject, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const [out, put] = bucket();
  // Independent of the subject: read while the subject's rows are being found.
  const requisitesRead = readRequisites(db);
  requisitesRead.catch(() => undefined);

  let { userId, serviceId, entryId, publicationId } = subject;

  if (subject.contractId) {
    const [c] = await rows<{ entry_id: number; user_id: number; service_id: number; status: number; comment: string | null; created_at: Date | string }>(
      db,
      sql`select entry_id, user_id, service_id, status, comment, created_at from contracts where id = ${subject.contractId}`,
    );
    if (c) {
      entryId ??= c.entry_id;
      userId ??= c.user_id;
      serviceId ??= c.service_id;
      putContract(put, c);
    }
  }

  if (entryId) {
    const [e] = await rows<{
      number: string;
      price: string | number;
      status: number;
      created_by: number;
      service_id: number;
      certificate_number: string | null;
      registration_number: string | null;
      created_at: Date | string;
      done_at: Date | string | null;
      is_extramural: number;
      section: string | null;
      date_type: number;
      begda: Date | string | null;
      endda: Date | string | null;
      package_title: string | null;
      package_price: string | number | null;
    }>(
      db,
      sql`select e.number, e.price, e.status, e.created_by, e.service_id, e.certificate_number, e.registration_number, e.created_at,
                 e.done_at, e.is_extramural, s.title as section, sv.date_type, sv.begda, sv.endda,
                 pk.title as package_title, pk.price as package_price
          from entries e join services sv on sv.id = e.service_id
          left join service_sections s on s.id = e.section_id
          left join package_enrollments pk on pk.id = e.package_enrollment_id and pk.broken_at is null
          where e.id = ${entryId}`,
    );
    if (e) {
      userId ??= e.created_by;
      serviceId ??= e.service_id;
      const price = Number(e.price);
      put('entry.number', e.number);
      put('entry.price', rublesInFigures(price));
      put('entry.price_words', rublesInWords(price));
      put('entry.payment_note', entryPaymentNote(price));
      put('entry.status', entryStatusLabels[e.status as EntryStatusCode]);
      put('entry.section', e.section);
      put('entry.certificate_number', e.certificate_number);
      put('entry.registration_number', e.registration_number);
      put('entry.created_at', formatDate(e.created_at));
      put('entry.done_at', e.done_at ? formatDate(e.done_at) : null);
      put('entry.participation', e.is_extramural ? 'дистанционно' : 'очно');
      put('entry.period', entryPeriod(e));
      const packagePrice = e.package_title !== null && e.package_price !== null ? Number(e.package_price) : null;
      if (packagePrice !== null) {
        put('entry.package_title', e.package_title);
        put('entry.package_price', rublesInFigures(packagePrice));
      }
      put('entry.price_clause', priceClause(price, packagePrice === null ? null : { title: e.package_title!, price: packagePrice }));
      put('entry.customer_duty', (packagePrice ?? price) > 0 ? 'оплатить обучение' : 'пройти обучение');
      put('entry.payment_terms', (packagePrice ?? price) > 0 ? PAYMENT_TERMS : 'Плата за обучение с Заказчика не взимается');
      // The entry's contract and publication: two independent reads at once.
      const [contract, publication] = await Promise.all([
        subject.contractId
          ? null
          : rows<{ status: number; comment: string | null; created_at: Date | string }>(
              db,
              sql`select status, comment, created_at from contracts where entry_id = ${entryId} order by id desc limit 1`,
            ).then((r) => r[0]),
        publicationId
          ? null
          : rows<{ publication_id: number }>(
              db,
              sql`select publication_id from publication_entries where entry_id = ${entryId} order by publication_id desc limit 1`,
            ).then((r) => r[0]),
      ]);
      if (contract) putContract(put, contract);
      if (!publicationId) publicationId = publication?.publication_id;
    }
  }

  if (publicationId) {
    const [p] = await rows<{ title: string; url: string | null; manager_comment: string | null; created_by: number }>(
      db,
      sql`select title, url, manager_comment, created_by from publications where id = ${publicationId}`,
    );
    if (p) {
      userId ??= p.created_by;
      put('publication.title', p.title);
      put('publication.title_quoted', quoted(p.title));
      put('publication.url', p.url);
      put('publication.manager_comment', p.manager_comment);
    }
  }

  // The user, the service and the requisites at once; their values are added in this fixed order
  // (the order of the keys is part of the cache key of a printed document).
  const [userOut, putU] = bucket();
  const [serviceOut, putS] = bucket();
  const [, , requisites] = await Promise.all([userId ? putUser(db, userId, putU) : null, serviceId ? putService(db, serviceId, putS) : null, requisitesRead]);
  Object.assign(out, userOut, serviceOut);
  for (const [key, value] of Object.entries(requisites)) put(`org.${key}`, value);
  put('app.url', loadConfig().appUrl);
  put('app.date', formatDate(new Date()));

  return { ...out, ...extra };
}

type Put = (name: string, value: string | number | null | undefined) => void;

/** Values and the function that adds one (trimmed; empty and missing values are left out). */
function bucket(): [Record<string, string>, Put] {
  const out: Record<string, string> = {};
  const put: Put = (name, value) => {
    if (value === null || value === undefined) return;
    const text = String(value).trim();
    if (text !== '') out[name] = text;
  };
  return [out, put];
}

function putContract(put: Put, c: { status: number; comment: string | null; created_at: Date | string }) {
  put('contract.status', contractStatusLabels[c.status as ContractStatusCode]);
  put('contract.comment', c.comment);
  put('contract.date', formatDate(c.created_at));
}

interface UserMacroRow {
  id: number;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  email: string;
  phone: string | null;
  organization: string | null;
  job_title: string | null;
  region: string | null;
  address: string | null;
  birthday: string | Date | null;
  snils: string | null;
  fio_dative: string | null;
  dict_region: string | null;
}

interface PassportRow {
  user_id: number;
  number: string;
  date: string | Date;
  issued_by: string;
}

const userColumns = sql`u.id, u.last_name, u.first_name, u.middle_name, u.email, u.phone, u.organization, u.job_title, u.region, u.address,
               u.birthday, u.snils, u.fio_dative, r.fdv as dict_region
        from users u left join dict_regions r on r.id = u.dict_region_id`;

async function putUser(db: Queryable, userId: number, put: Put) {
  const passportRead = rows<PassportRow>(
    db,
    sql`select user_id, number, date, issued_by from identity_documents where user_id = ${userId} order by id desc limit 1`,
  );
  passportRead.catch(() => undefined);
  const [u] = await rows<UserMacroRow>(db, sql`select ${userColumns} where u.id = ${userId}`);
  if (!u) return;
  putUserRow(put, u, (await passportRead)[0]);
}

/** The user.* values of one user's row and latest identity document. */
function putUserRow(put: Put, u: UserMacroRow, passport: PassportRow | undefined) {
  const name: NameParts = { last: u.last_name, first: u.first_name, middle: u.middle_name ?? '' };
  put('user.fio', joinFio(name));
  put('user.last_name', name.last);
  put('user.first_name', name.first);
  put('user.middle_name', name.middle);
  put('user.fio_short', shortFio(name));
  const dative = u.fio_dative?.trim() ? splitFio(u.fio_dative) : dativeName(name);
  put('user.fio_dative', joinFio(dative));
  put('user.last_name_dative', dative.last);
  put('user.first_name_dative', dative.first);
  put('user.middle_name_dative', dative.middle);
  const gender = genderOf(name);
  put('user.gender', gender === 'male' ? 'мужской' : gender === 'female' ? 'женский' : null);
  put('user.email', u.email);
  put('user.phone', u.phone);
  put('user.organization', u.organization);
  put('user.job_title', u.job_title);
  put('user.region', u.dict_region ?? u.region);
  put('user.address', u.address);
  put('user.birthday', u.birthday ? formatDate(moscowNoonOf(u.birthday)) : null);
  put('user.snils', u.snils);
  if (passport) {
    put('user.passport', passport.number);
    put('user.passport_date', formatDate(moscowNoonOf(passport.date)));
    put('user.passport_issued_by', passport.issued_by);
  }
}

/**
 * The user.* values of many users at once (two queries, whatever their number): what a mass letter
 * needs for a batch of recipients. The same values as macroValues gives for `{userId}`.
 */
export async function userMacroValuesMany(db: Queryable, userIds: number[]): Promise<Map<number, Record<string, string>>> {
  const out = new Map<number, Record<string, string>>();
  if (userIds.length === 0) return out;
  const ids = intArray(userIds);
  const [users, passports] = await Promise.all([
    rows<UserMacroRow>(db, sql`select ${userColumns} where u.id = any(${ids})`),
    rows<PassportRow>(
      db,
      sql`select distinct on (user_id) user_id, number, date, issued_by from identity_documents where user_id = any(${ids}) order by user_id, id desc`,
    ),
  ]);
  const passportOf = new Map(passports.map((p) => [p.user_id, p]));
  for (const u of users) {
    const [values, put] = bucket();
    putUserRow(put, u, passportOf.get(u.id));
    out.set(u.id, values);
  }
  return out;
}

/** The values that do not depend on a subject: the centre's requisites (org.*) and the cabinet (app.*). */
export async function commonMacroValues(db: Queryable): Promise<Record<string, string>> {
  const [out, put] = bucket();
  for (const [key, value] of Object.entries(await readRequisites(db))) put(`org.${key}`, value);
  put('app.url', loadConfig().appUrl);
  put('app.date', formatDate(new Date()));
  return out;
}

async function putService(db: Queryable, serviceId: number, put: Put) {
  const [s] = await rows<{
    title: string;
    price: string | number;
    begda: Date | string | null;
    endda: Date | string | null;
    hours: number | null;
    days: number | null;
    date_type: number;
    type: string | null;
    subtype: string | null;
    leadings: string | null;
  }>(
    db,
    sql`select s.title, s.price, s.begda, s.endda, s.hours, s.days, s.date_type, t.fdv as type, st.fdv as subtype,
               (select string_agg(l.fio, ', ' order by l.fio) from service_leadings sl join leadings l on l.id = sl.leading_id
                 where sl.service_id = s.id) as leadings
        from services s join dict_service_types t on t.id = s.dict_type_id
        left join dict_service_subtypes st on st.id = s.dict_subtype_id where s.id = ${serviceId}`,
  );
  if (!s) return;
  const price = Number(s.price);
  put('service.title', s.title);
  put('service.title_quoted', quoted(s.title));
  put('service.name_quoted', quotedName(s.title));
  put('service.type', s.type);
  put('service.subtype', s.subtype);
  put('service.interval', serviceInterval(s));
  put('service.begda', s.begda ? formatDate(s.begda) : null);
  put('service.endda', s.endda ? formatDate(s.endda) : null);
  put('service.hours', s.hours);
  put('service.days', s.days);
  put('service.price', rublesInFigures(price));
  put('service.price_words', rublesInWords(price));
  put('service.leadings', s.leadings);
}

/**
 * When a service takes place, as a document writes it after «Сроки обучения:» or «Сроки проведения:».
 * Services without dates (open dates, permanent) are taken by each client in their own time: «по
 * индивидуальному графику», never the list's label «открытые даты» (it does not read as a term).
 */
function serviceInterval(s: { date_type: number; begda: Date | string | null; endda: Date | string | null; days: number | null }): string | null {
  if (s.date_type === DateType.specific) return formatInterval(s.begda, s.endda);
  const days = s.days && s.days > 0 ? `в течение ${s.days} ${plural(s.days, 'дня', 'дней', 'дней')} ` : '';
  return `${days}по индивидуальному графику`;
}

/**
 * The client's own period, with its preposition: «в период с 01.02.2026 по 03.02.2026», or one date
 * («01.02.2026»). A dated service gives its dates; a service without dates gives the entry's (from the
 * day of the entry to the day it was completed).
 */
function entryPeriod(e: {
  date_type: number;
  begda: Date | string | null;
  endda: Date | string | null;
  created_at: Date | string;
  done_at: Date | string | null;
}): string | null {
  const [from, to] = e.date_type === DateType.specific ? [e.begda, e.endda] : [e.created_at, e.done_at];
  if (!from) return null;
  const start = formatDate(from);
  const end = to ? formatDate(to) : null;
  if (end === null) return e.date_type === DateType.specific ? start : `с ${start}`;
  return end === start ? start : `в период с ${start} по ${end}`;
}

const PAYMENT_TERMS =
  'Оплата производится единовременно в размере 100 % стоимости не позднее начала обучения в безналичном порядке: банковской картой в личном кабинете или на счёт Исполнителя, указанный в разделе 9 настоящего Договора';

/**
 * The contract's price, as one sentence. A service bought in a package has no price of its own: the
 * package's price shared out over its services (3 585,36 of 14 900) is an accounting figure, so the
 * sentence names the package and its price instead.
 */
function priceClause(price: number, pack: { title: string; price: number } | null): string {
  if (pack && pack.price <= 0) return `Образовательная услуга по настоящему Договору оказывается бесплатно в составе пакета ${quotedName(pack.title)}`;
  if (pack) {
    return `Образовательная услуга по настоящему Договору оплачивается в составе пакета ${quotedName(pack.title)} стоимостью ${rublesInFigures(pack.price)} руб. (${rublesInWords(pack.price)})`;
  }
  if (price <= 0) return 'Образовательная услуга по настоящему Договору оказывается бесплатно';
  return `Полная стоимость образовательных услуг за весь период обучения составляет ${rublesInFigures(price)} руб. (${rublesInWords(price)})`;
}
