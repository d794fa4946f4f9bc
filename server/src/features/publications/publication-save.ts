// Creating and editing a publication (spec 03 §5, spec 01 publication form): the field rules per
// subtype, sanitising, files, authors and the price by number of authors, which is set on the entry.
import { sql } from 'drizzle-orm';
import { EventId, PayType } from '@edu/domain/common/codes';
import type { FieldErrors } from '@edu/domain/common/validation';
import { defaultExtramural } from '@edu/domain/entries/entry';
import {
  chooseSlot,
  internetTextProblem,
  PACKAGE_PUBLICATION_AUTHORS,
  isInternetSubtype,
  PublicationMessages,
  type savePublicationBody,
} from '@edu/domain/publications/publication';
import type { z } from 'zod';
import { entries, publicationAuthors, publicationEntries, publicationFiles, publications } from '../../db/schema/index.ts';
import { replaceCoAuthors } from './co-authors.ts';
import { CoAuthorMessages } from '@edu/domain/publications/co-authors';
import { isOperator as isOperatorUser } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { AppError, fieldError, notFound, validationError } from '../../platform/errors.ts';
import { raiseEvent } from '../../platform/events.ts';
import { retireFiles } from '../../platform/files.ts';
import { cleanPublicationText, type CleanedText } from './uniqueness/clean-text.ts';
import type { CheckedUpload, StoreUpload } from '../../platform/uploads.ts';
import { entryNumber } from '../entries/entry-rules.ts';
import { scheduleUniquenessCheck } from './jobs.ts';
import { movePublication, type PublicationChanges } from './publication-status.ts';
import { listPublicationSlots, loadRecord, loggedValue } from './publications-repository.ts';
import { quoted } from '@edu/domain/common/quotes';

export type SaveInput = z.output<typeof savePublicationBody>;

interface ServiceInfo {
  id: number;
  title: string;
  is_visible: boolean;
  is_done: boolean;
  is_publication: boolean;
  participation_type: number;
  dict_subtype_id: number | null;
  publication_has_file: boolean;
}

const SERVICE_SELECT = sql`select s.id, s.title, s.is_visible, s.is_done, (s.is_publication or coalesce(t.is_publication, false)) as is_publication,
  s.participation_type, s.dict_subtype_id, coalesce(st.publication_has_file, false) as publication_has_file
  from services s left join dict_service_types t on t.id = s.dict_type_id left join dict_service_subtypes st on st.id = s.dict_subtype_id`;

async function serviceById(tx: Queryable, id: number): Promise<ServiceInfo | undefined> {
  const [s] = await rows<ServiceInfo>(tx, sql`${SERVICE_SELECT} where s.id = ${id} and s.deleted_at is null`);
  return s;
}

/** The publication service of a subtype (the catalogue's publication form names the subtype). */
async function serviceOfSubtype(tx: Queryable, subtypeId: number): Promise<ServiceInfo | undefined> {
  const [s] = await rows<ServiceInfo>(
    tx,
    sql`${SERVICE_SELECT} where s.dict_subtype_id = ${subtypeId} and s.deleted_at is null and s.is_visible and not s.is_done
        and (s.is_publication or coalesce(t.is_publication, false)) order by s.id limit 1`,
  );
  return s;
}

interface Checked {
  text: string | null;
  /** textDigest(text). */
  textDigest: string | null;
  priceId: number;
  price: number;
  authorsNum: number;
  authors: Array<{ user_id: number | null; fio: string }>;
}

/**
 * The field rules of one save, all at once (one 422 with every field's message): category; release
 * (non-internet) or type (internet subtype 5); title; text or file by the subtype; the internet
 * text limits; number of authors with a price; at most authors_num - 1 co-authors.
 */
async function checkFields(
  tx: Queryable,
  o: {
    input: SaveInput;
    subtypeId: number | null;
    hasFile: boolean;
    fileThere: boolean;
    user: AuthUser;
    existingReleaseId?: number | null;
    inPackage?: boolean;
    cleaned?: CleanedText;
  },
): Promise<Checked> {
  const { input } = o;
  const errors: FieldErrors = {};
  const add = (field: string, text: string) => (errors[field] ??= []).push(text);
  const isOperator = isOperatorUser(o.user);

  if (!input.dict_category_id) add('dict_category_id', PublicationMessages.chooseCategory);
  else {
    const [c] = await rows<{ id: number }>(tx, sql`select id from dict_publication_categories where id = ${input.dict_category_id}`);
    if (!c) add('dict_category_id', PublicationMessages.chooseCategory);
  }

  const internet = isInternetSubtype(o.subtypeId);
  if (internet) {
    if (!input.type) add('type', PublicationMessages.chooseType);
  } else if (!input.release_id) add('release_id', PublicationMessages.chooseRelease);
  if (input.release_id) {
    const [r] = await rows<{ dict_service_subtype_id: number | null; is_hidden: boolean }>(
      tx,
      sql`select dict_service_subtype_id, is_hidden from publication_releases where id = ${input.release_id} and deleted_at is null`,
    );
    if (!r) add('release_id', PublicationMessages.chooseRelease);
    else if (r.dict_service_subtype_id !== null && r.dict_service_subtype_id !== o.subtypeId) add('release_id', PublicationMessages.releaseNotOfSubtype);
    // A hidden release is closed for signup: users may keep one already chosen, not pick it anew.
    else if (r.is_hidden && !isOperator && input.release_id !== o.existingReleaseId) add('release_id', PublicationMessages.releaseHidden);
  }

  // Cleaned off the request thread by the route when it could (o.cleaned), else here.
  const { text, plain, digest } = o.cleaned ?? cleanPublicationText(input.text ?? '');
  if (o.hasFile) {
    if (!o.fileThere) add('file', PublicationMessages.attachFile);
  } else if (!plain) add('text', PublicationMessages.enterText);
  if (internet && plain) {
    const problem = internetTextProblem(text);
    if (problem) add('text', problem);
  }

  let priceId = 0;
  let price = 0;
  const authorsNum = input.authors_num ?? 0;
  if (!input.authors_num) add('authors_num', PublicationMessages.chooseAuthorsNum);
  // A package buys the publication of one author (its price in the package is that one, decision 025).
  else if (o.inPackage && input.authors_num > PACKAGE_PUBLICATION_AUTHORS) add('authors_num', PublicationMessages.packageOneAuthor);
  else if (o.subtypeId !== null) {
    const [p] = await rows<{ id: number; price: number | string }>(
      tx,
      sql`select id, price from publication_prices where dict_service_subtype_id = ${o.subtypeId} and authors_num = ${input.authors_num} order by id limit 1`,
    );
    if (!p) add('authors_num', PublicationMessages.noPrice);
    else {
      priceId = p.id;
      price = Number(p.price);
    }
  }
  const authors = input.authors.map((a) => ({ user_id: a.user_id ?? null, fio: a.fio }));
  if (authorsNum && authors.length > authorsNum - 1) add('authors', PublicationMessages.tooManyAuthors(Math.max(0, authorsNum - 1)));
  const userIds = authors.map((a) => a.user_id).filter((v): v is number => v !== null);
  if (userIds.length) {
    const found = await rows<{ id: number }>(
      tx,
      sql`select id from users where deleted_at is null and id in (${sql.join(
        userIds.map((i) => sql`${i}`),
        sql`, `,
      )})`,
    );
    if (found.length !== new Set(userIds).size) add('authors', PublicationMessages.chooseAuthor);
    // One account, one co-author (and one invitation): a second link of it is refused (issue 29).
    if (new Set(userIds).size !== userIds.length) add('authors', CoAuthorMessages.duplicate);
  }

  if (Object.keys(errors).length) throw validationError(errors);
  return { text: text || null, textDigest: digest, priceId, price, authorsNum, authors };
}

async function fioOf(tx: Queryable, userId: number): Promise<string> {
  const [u] = await rows<{ fio: string }>(tx, sql`select concat_ws(' ', last_name, first_name, middle_name) as fio from users where id = ${userId}`);
  return u?.fio ?? '';
}

/**
 * An unpaid entry takes the publication's price; a paid one keeps what was paid, and a package's
 * entry keeps its share of the package price (the package is paid as a whole).
 */
async function priceEntries(tx: Queryable, publicationId: number, price: number, by: number) {
  const list = await rows<{ id: number; price: number | string }>(
    tx,
    sql`select e.id, e.price from publication_entries pe join entries e on e.id = pe.entry_id
        where pe.publication_id = ${publicationId} and e.status = 1 and e.deleted_at is null and e.package_enrollment_id is null for update of e`,
  );
  for (const e of list) {
    if (Number(e.price) === price) continue;
    await tx.execute(sql`update entries set price = ${price}, updated_at = now() where id = ${e.id}`);
    await logChange(tx, { type: 'entry', entityId: e.id, userId: by, before: { price: Number(e.price) }, after: { price } });
  }
}

/**
 * The entry of a publication: one per publication (a user may send several articles to one
 * publication service, so the one-entry-per-service rule of ordinary entries does not apply).
 */
async function createPublicationEntry(tx: Queryable, by: AuthUser, ownerId: number, service: ServiceInfo, price: number): Promise<number> {
  const [{ id }] = await rows<{ id: number }>(tx, sql`select nextval(pg_get_serial_sequence('entries', 'id'))::int as id`);
  const free = price === 0;
  const values = {
    id,
    number: entryNumber(id),
    created_by: ownerId,
    author_id: ownerId === by.id ? null : by.id,
    service_id: service.id,
    section_id: null,
    pay_type: PayType.online,
    is_extramural: defaultExtramural(service.participation_type),
    price,
    status: free ? 2 : 1,
    paid_at: free ? new Date() : null,
  };
  await tx.insert(entries).values(values);
  await logChange(tx, { type: 'entry', entityId: id, userId: by.id, before: null, after: values });
  await raiseEvent(tx, {
    eventId: EventId.entryCreated,
    userId: ownerId,
    entryId: id,
    serviceId: service.id,
    extra: { 'entry.summary': `Заявка № ${values.number} на услугу ${quoted(service.title)} создана${free ? '' : '. Ожидает оплаты'}.` },
  });
  return id;
}

async function storeFile(tx: Queryable, store: StoreUpload | null, userId: number, f: CheckedUpload): Promise<number> {
  if (!store) throw new Error('no file store to keep the upload');
  return (await store(tx, userId, f)).id;
}

export interface SaveResult {
  id: number;
  /** The text as it is now stored: the answer carries it without reading it back (480 000 characters decoded again). */
  text: string | null;
  /** The uniqueness check was scheduled ('будет проверена антиплагиатом в течение часа'). */
  scheduled: boolean;
  /** An operator moved it to another publication subtype. */
  moved?: boolean;
  /** On create: the slot the publication went to, or why a new entry is to be paid (PublicationMessages.slotUsed / slotTooFewAuthors). */
  entryNote?: string | null;
}

/**
 * POST /api/publication. The entry is `entry_id` (the asker's entry of a publication service with no
 * live publication); or, for `service_id` / `dict_subtype_id`, the owner's slot of that service that
 * covers the authors (listPublicationSlots, chooseSlot); or a new one at the price for the number of
 * authors. The creator is the first author; the text is sanitised; the check is scheduled.
 */
/** A user's publications awaiting their uniqueness check at most (UNIQUENESS_PENDING_PER_USER); operators (and the demo seed) have no limit. */
export interface SaveLimits {
  pendingChecks: number;
  /** `input.text` already cleaned in the worker pool (cleanPublicationText), so the save does not clean it on the request thread. */
  cleaned?: CleanedText;
}

export async function createPublication(
  tx: Queryable,
  store: StoreUpload | null,
  user: AuthUser,
  input: SaveInput,
  files: CheckedUpload[],
  limits?: SaveLimits,
): Promise<SaveResult> {
  const isOperator = isOperatorUser(user);
  const mainFile = files.find((f) => f.field === 'file');
  const extra = files.filter((f) => f.field === 'additionalFiles');

  let service: ServiceInfo | undefined;
  let entryId: number | null = null;
  let ownerId = user.id;
  let inPackage = false;
  let entryNote: string | null = null;
  if (input.entry_id) {
    // The article of an entry bought before (a package's publication): nothing is charged again.
    const [e] = await rows<{ id: number; service_id: number; created_by: number; busy: boolean; in_package: boolean }>(
      tx,
      sql`select e.id, e.service_id, e.created_by, e.package_enrollment_id is not null as in_package,
            exists (select 1 from publication_entries pe join publications p on p.id = pe.publication_id
              where pe.entry_id = e.id and p.deleted_at is null) as busy
          from entries e where e.id = ${input.entry_id} and e.deleted_at is null for update`,
    );
    if (!e || (!isOperator && e.created_by !== user.id)) throw fieldError('entry_id', PublicationMessages.entryNotYours, PublicationMessages.entryNotYours);
    service = await serviceById(tx, e.service_id);
    if (!service?.is_publication) throw fieldError('entry_id', PublicationMessages.entryNotPublication);
    if (e.busy) throw fieldError('entry_id', PublicationMessages.entryHasPublication, PublicationMessages.entryHasPublication);
    entryId = e.id;
    ownerId = e.created_by;
    inPackage = e.in_package;
  } else {
    if (isOperator && input.user_id) {
      const [owner] = await rows<{ id: number }>(tx, sql`select id from users where id = ${input.user_id} and deleted_at is null`);
      if (!owner) throw fieldError('user_id', PublicationMessages.chooseAuthor);
      ownerId = owner.id;
    }
    if (input.service_id) service = await serviceById(tx, input.service_id);
    else if (input.dict_subtype_id) service = await serviceOfSubtype(tx, input.dict_subtype_id);
    else throw fieldError('service_id', PublicationMessages.chooseService);
    if (!service || (!isOperator && (!service.is_visible || service.is_done))) throw fieldError('service_id', PublicationMessages.chooseService);
    if (!service.is_publication) throw fieldError('service_id', PublicationMessages.serviceNotPublication);
    // What the client has paid for already is used first (issue 28): a package's publication or an
    // entry without its article. A new entry only when there is none, or it covers fewer authors.
    const { use, tooSmall } = chooseSlot(await listPublicationSlots(tx, ownerId, { lock: true }), service, input.authors_num ?? 1);
    if (use) {
      const slotService = use.service.id === service.id ? service : await serviceById(tx, use.service.id);
      if (slotService) {
        service = slotService;
        entryId = use.entry_id;
        inPackage = use.package_title !== null;
        entryNote = PublicationMessages.slotUsed(use);
      }
    } else if (tooSmall) entryNote = PublicationMessages.slotTooFewAuthors(tooSmall, input.authors_num ?? 1, true);
  }

  const checked = await checkFields(tx, {
    input,
    subtypeId: service.dict_subtype_id,
    hasFile: service.publication_has_file,
    fileThere: Boolean(mainFile),
    user,
    inPackage,
    cleaned: limits?.cleaned,
  });
  // The files first (the owner's quota is checked there), the new entry only once they are kept.
  const fileId = mainFile ? await storeFile(tx, store, ownerId, mainFile) : null;
  const extraIds: number[] = [];
  for (const f of extra) extraIds.push(await storeFile(tx, store, ownerId, f));
  if (entryId === null) entryId = await createPublicationEntry(tx, user, ownerId, service, checked.price);
  const values = {
    title: input.title,
    text: checked.text,
    file_id: fileId,
    status: 1,
    release_id: input.release_id ?? null,
    is_journal: isOperator ? (input.is_journal ?? false) : false,
    dict_category_id: input.dict_category_id ?? null,
    type: input.type ?? null,
    price_id: checked.priceId,
    created_by: ownerId,
  };
  const [row] = await tx.insert(publications).values(values).returning({ id: publications.id });
  await tx.insert(publicationEntries).values({ publication_id: row.id, entry_id: entryId });
  await tx
    .insert(publicationAuthors)
    .values({ publication_id: row.id, user_id: ownerId, fio: (await fioOf(tx, ownerId)).slice(0, 255) || '—', position: 0, accepted_at: new Date() });
  await replaceCoAuthors(tx, { publicationId: row.id, creator: ownerId, by: user, authors: checked.authors });
  for (const fileId of extraIds) await tx.insert(publicationFiles).values({ publication_id: row.id, file_id: fileId });
  await priceEntries(tx, row.id, checked.price, user.id);
  await logChange(tx, {
    type: 'publication',
    entityId: row.id,
    userId: user.id,
    before: null,
    after: { ...values, authors: checked.authors.map((a) => a.fio), entry_id: entryId },
  });
  const scheduled = Boolean(checked.text);
  if (scheduled) await scheduleUniquenessCheck(tx, row.id, ownerId, { pendingLimit: isOperator ? undefined : limits?.pendingChecks });
  return { id: row.id, text: checked.text, scheduled, entryNote };
}

/**
 * PUT /api/publication/{id}. The creator may edit while the publication waits or needs rework, and
 * the save puts it back in the queue (status 1, through movePublication); co-authors only read.
 * Operators edit at any status without changing it. `authors` replaces the co-authors when sent.
 */
export async function updatePublication(
  tx: Queryable,
  store: StoreUpload,
  user: AuthUser,
  id: number,
  input: SaveInput,
  files: CheckedUpload[],
  sent: { authors: boolean },
  limits?: SaveLimits,
): Promise<SaveResult> {
  const isOperator = isOperatorUser(user);
  const current = await loadRecord(tx, id, { lock: true });
  if (!current) throw notFound(PublicationMessages.notFound);
  if (!isOperator && current.created_by !== user.id) {
    const [co] = await rows<{ id: number }>(
      tx,
      sql`select id from publication_authors where publication_id = ${id} and user_id = ${user.id} and accepted_at is not null`,
    );
    if (!co) throw notFound(PublicationMessages.notFound);
    throw new AppError(403, PublicationMessages.notEditable);
  }
  if (files.some((f) => f.field === 'additionalFiles')) throw fieldError('additionalFiles', PublicationMessages.additionalFilesOnCreate);
  if (!isOperator && ![1, 3].includes(current.status)) throw new AppError(422, PublicationMessages.notEditable);

  // An operator may move the publication to another publication subtype ('Тип и выпуск'): its entry
  // follows to that subtype's service and the rules of the new subtype apply.
  let subtypeId = current.dict_subtype_id;
  let hasFile = current.publication_has_file;
  let moveTo: ServiceInfo | undefined;
  if (isOperator && (input.service_id || input.dict_subtype_id)) {
    const s = input.service_id ? await serviceById(tx, input.service_id) : await serviceOfSubtype(tx, input.dict_subtype_id!);
    if (!s) throw fieldError('service_id', PublicationMessages.chooseService);
    if (!s.is_publication) throw fieldError('service_id', PublicationMessages.serviceNotPublication);
    if (s.id !== current.service_id) {
      moveTo = s;
      subtypeId = s.dict_subtype_id;
      hasFile = s.publication_has_file;
    }
  }
  const mainFile = files.find((f) => f.field === 'file');
  const keepFile = !input.remove_file && current.file_id !== null;
  const merged: SaveInput = {
    ...input,
    authors_num: input.authors_num ?? current.authors_num ?? undefined,
    authors: sent.authors ? input.authors : await currentCoAuthors(tx, id),
  };
  const [pkg] = await rows<{ in_package: boolean }>(
    tx,
    sql`select exists (select 1 from publication_entries pe join entries e on e.id = pe.entry_id
          where pe.publication_id = ${id} and e.package_enrollment_id is not null and e.deleted_at is null) as in_package`,
  );
  const checked = await checkFields(tx, {
    input: merged,
    subtypeId,
    hasFile,
    fileThere: Boolean(mainFile) || keepFile,
    user,
    existingReleaseId: current.release_id,
    inPackage: pkg.in_package,
    cleaned: limits?.cleaned,
  });
  const fileId = mainFile ? await storeFile(tx, store, current.created_by, mainFile) : keepFile ? current.file_id : null;
  // A replaced or removed main file is no longer served; its bytes go after the retention period.
  if (current.file_id !== null && fileId !== current.file_id) await retireFiles(tx, [current.file_id]);
  // The text is written (and logged) only when it changed: its digest against the stored one's.
  const textChanged = checked.textDigest !== current.text_digest;
  const set: PublicationChanges = {
    title: input.title,
    ...(textChanged ? { text: checked.text } : {}),
    file_id: fileId,
    release_id: input.release_id ?? null,
    dict_category_id: input.dict_category_id ?? null,
    type: input.type ?? null,
    price_id: checked.priceId,
  };
  if (isOperator) {
    if (input.is_journal !== undefined) set.is_journal = input.is_journal;
    if (input.url !== undefined) set.url = input.url || null;
    if (input.url_contents !== undefined) set.url_contents = input.url_contents || null;
    if (input.manager_comment !== undefined) set.manager_comment = input.manager_comment || null;
  }
  if (isOperator) {
    await tx
      .update(publications)
      .set({ ...set, updated_at: new Date() })
      .where(sql`id = ${id}`);
    const before: Record<string, unknown> = {};
    for (const k of Object.keys(set)) before[k] = loggedValue(current, k);
    await logChange(tx, { type: 'publication', entityId: id, userId: user.id, before, after: set });
  } else {
    await movePublication(tx, { publicationId: id, action: 'resubmit', by: user.id, set, locked: current });
  }
  if (sent.authors) await replaceCoAuthors(tx, { publicationId: id, creator: current.created_by, by: user, authors: checked.authors });
  if (moveTo) {
    const moved = await rows<{ id: number; service_id: number }>(
      tx,
      sql`select e.id, e.service_id from publication_entries pe join entries e on e.id = pe.entry_id where pe.publication_id = ${id} for update of e`,
    );
    for (const e of moved) {
      await tx.execute(sql`update entries set service_id = ${moveTo.id}, updated_at = now() where id = ${e.id}`);
      await logChange(tx, { type: 'entry', entityId: e.id, userId: user.id, before: { service_id: e.service_id }, after: { service_id: moveTo.id } });
    }
  }
  await priceEntries(tx, id, checked.price, user.id);
  const scheduled = checked.text !== null && textChanged;
  if (scheduled) await scheduleUniquenessCheck(tx, id, current.created_by, { pendingLimit: isOperator ? undefined : limits?.pendingChecks });
  return { id, text: checked.text, scheduled, moved: Boolean(moveTo) };
}

async function currentCoAuthors(tx: Queryable, id: number) {
  const list = await rows<{ user_id: number | null; fio: string }>(
    tx,
    sql`select user_id, fio from publication_authors where publication_id = ${id} and position > 0 order by position, id`,
  );
  // An account linked twice before duplicates were refused stays linked once (the other is a typed
  // name), so an edit that does not touch the authors is not refused for them.
  const seen = new Set<number>();
  return list.map((a) => {
    const twice = a.user_id !== null && seen.has(a.user_id);
    if (a.user_id !== null) seen.add(a.user_id);
    return { user_id: twice ? null : a.user_id, fio: a.fio };
  });
}
