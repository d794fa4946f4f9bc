import { sql } from 'drizzle-orm';
import { rublesOf } from '@edu/domain/common/money';
import { DateType, TemplateType } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { normaliseServiceTime, ServiceFormMessages, type SaveServiceInput } from '@edu/domain/services/service-form';
import { serviceLeadings, serviceProfiles, services, serviceSections } from '../../db/schema/index.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import { rows, type Db, type Queryable } from '../../platform/db.ts';
import { notFound, validationError } from '../../platform/errors.ts';
import { fromMoscowString } from '@edu/domain/common/moscow-time';
import { sanitizeRichHtml } from '../../platform/rich-html.ts';
import { requestPublication } from './service-publishing.ts';

interface TypeRow {
  id: number;
  is_contract_needed: boolean;
  is_publication: boolean;
  template_certificate_id: number | null;
  template_page_id: number | null;
}

interface SubtypeRow {
  id: number;
  dict_service_type_id: number;
  is_publication: boolean;
}

type FieldErrors = Record<string, string[]>;
const add = (errors: FieldErrors, field: string, text: string) => (errors[field] ??= []).push(text);

/** Rules that need the database: type and subtype, templates by type, profiles and leadings (spec 02 §5). */
async function checkReferences(
  tx: Queryable,
  input: SaveServiceInput,
  errors: FieldErrors,
): Promise<{ type: TypeRow | undefined; subtype: SubtypeRow | undefined }> {
  const [type] = await rows<TypeRow>(
    tx,
    sql`select id, is_contract_needed, is_publication, template_certificate_id, template_page_id from dict_service_types where id = ${input.dict_type_id}`,
  );
  if (!type) add(errors, 'dict_type_id', ServiceFormMessages.chooseType);
  let subtype: SubtypeRow | undefined;
  if (type) {
    const subtypes = await rows<SubtypeRow>(
      tx,
      sql`select id, dict_service_type_id, is_publication from dict_service_subtypes where dict_service_type_id = ${type.id}`,
    );
    if (input.dict_subtype_id) {
      subtype = subtypes.find((s) => s.id === input.dict_subtype_id);
      if (!subtype) add(errors, 'dict_subtype_id', ServiceFormMessages.subtypeNotOfType);
    } else if (subtypes.length > 0) {
      add(errors, 'dict_subtype_id', ServiceFormMessages.chooseSubtype);
    }
  }
  const templates: Array<[keyof SaveServiceInput, number]> = [
    ['template_certificate_id', TemplateType.certificate],
    // The registration list (spec 02 §3: one template per print of an entry; decision 006).
    ['template_participation_id', TemplateType.regList],
    ['template_program_id', TemplateType.program],
    ['joomla_article_template_id', TemplateType.page],
  ];
  for (const [field, templateType] of templates) {
    const id = input[field] as number | null | undefined;
    if (!id) continue;
    const [found] = await rows<{ id: number }>(tx, sql`select id from templates where id = ${id} and dict_type_id = ${templateType} and deleted_at is null`);
    if (!found) add(errors, field, ServiceFormMessages.templateWrongType);
  }
  if (input.profiles.length) {
    const found = await rows<{ id: number }>(
      tx,
      sql`select id from dict_profiles where id in (${sql.join(
        input.profiles.map((i) => sql`${i}`),
        sql`, `,
      )})`,
    );
    if (found.length !== new Set(input.profiles).size) add(errors, 'profiles', ServiceFormMessages.unknownProfile);
  }
  if (input.leadings.length) {
    const found = await rows<{ id: number }>(
      tx,
      sql`select id from leadings where id in (${sql.join(
        input.leadings.map((i) => sql`${i}`),
        sql`, `,
      )})`,
    );
    if (found.length !== new Set(input.leadings).size) add(errors, 'leadings', ServiceFormMessages.unknownLeading);
  }
  return { type, subtype };
}

type ServiceValues = Omit<typeof services.$inferInsert, 'id' | 'created_at' | 'updated_at'>;

/** The row values of a valid input; hours and days only for types needing a contract (spec 02 §3). */
function valuesOf(input: SaveServiceInput, type: TypeRow, subtype: SubtypeRow | undefined): ServiceValues {
  const contract = type.is_contract_needed;
  const dated = input.date_type !== DateType.permanent;
  return {
    title: input.title,
    // Rich text: cleaned once here, so the cabinet and the site get the same safe HTML.
    description: input.description ? sanitizeRichHtml(input.description) || null : null,
    price: rublesOf(input.price),
    points: input.points,
    is_visible: input.is_visible,
    is_done: input.is_done,
    is_thesis_needed: input.is_thesis_needed,
    is_publication: Boolean(subtype?.is_publication ?? type.is_publication),
    dict_type_id: type.id,
    dict_subtype_id: subtype?.id ?? null,
    participation_type: input.participation_type,
    date_type: input.date_type,
    begda: dated && input.begda ? fromMoscowString(normaliseServiceTime(input.begda)) : null,
    endda: dated && input.endda ? fromMoscowString(normaliseServiceTime(input.endda)) : null,
    max_participants: input.max_participants,
    moodle_id: input.moodle_id ?? null,
    hours: contract ? (input.hours ?? null) : null,
    days: contract ? (input.days ?? null) : null,
    template_certificate_id: input.template_certificate_id ?? null,
    template_program_id: input.template_program_id ?? null,
    template_participation_id: input.template_participation_id ?? null,
    joomla_article_template_id: input.joomla_article_template_id ?? null,
    joomla_intro_html: input.joomla_intro_html ?? null,
    joomla_additional_html: input.joomla_additional_html ?? null,
    joomla_video_iframe: input.joomla_video_iframe ?? null,
  };
}

/** A new service starts with the default templates of its service type (spec 02 §4; defaults are per type, decision 024). */
function withDefaultTemplates(input: SaveServiceInput, type: TypeRow): SaveServiceInput {
  return {
    ...input,
    template_certificate_id: input.template_certificate_id === undefined ? type.template_certificate_id : input.template_certificate_id,
    joomla_article_template_id: input.joomla_article_template_id === undefined ? type.template_page_id : input.joomla_article_template_id,
  };
}

interface Snapshot extends Record<string, unknown> {
  sections: string[];
  profiles: number[];
  leadings: number[];
}

async function snapshot(tx: Queryable, id: number): Promise<Snapshot | null> {
  const [row] = await tx
    .select()
    .from(services)
    .where(sql`id = ${id}`);
  if (!row) return null;
  const sections = await rows<{ title: string }>(tx, sql`select title from service_sections where service_id = ${id} and deleted_at is null order by id`);
  const profiles = await rows<{ id: number }>(tx, sql`select dict_profile_id as id from service_profiles where service_id = ${id} order by 1`);
  const leadings = await rows<{ id: number }>(tx, sql`select leading_id as id from service_leadings where service_id = ${id} order by 1`);
  const { joomla_status: _s, joomla_error: _e, joomla_published_at: _p, joomla_article_id: _a, joomla_catid: _c, ...rest } = row;
  return {
    ...rest,
    price: Number(row.price),
    sections: sections.map((s) => s.title),
    profiles: profiles.map((p) => p.id),
    leadings: leadings.map((l) => l.id),
  };
}

async function saveLinks(tx: Queryable, serviceId: number, input: SaveServiceInput, errors: FieldErrors): Promise<void> {
  // Sections: keep those sent with an id, add new ones, remove the rest unless they have entries.
  const existing = await rows<{ id: number; title: string; live: number }>(
    tx,
    sql`select sec.id, sec.title, (select count(*)::int from entries e where e.section_id = sec.id and e.deleted_at is null) as live
        from service_sections sec where sec.service_id = ${serviceId} and sec.deleted_at is null`,
  );
  const kept = new Set(input.sections.filter((s) => s.id).map((s) => s.id!));
  for (const s of existing) {
    if (!kept.has(s.id) && s.live > 0) add(errors, 'sections', ServiceFormMessages.sectionHasEntries(s.title));
  }
  if (Object.keys(errors).length) throw validationError(errors);
  const now = new Date();
  for (const s of existing) {
    if (!kept.has(s.id))
      await tx
        .update(serviceSections)
        .set({ deleted_at: now })
        .where(sql`id = ${s.id}`);
  }
  for (const s of input.sections) {
    if (s.id && existing.some((e) => e.id === s.id))
      await tx
        .update(serviceSections)
        .set({ title: s.title })
        .where(sql`id = ${s.id}`);
    else await tx.insert(serviceSections).values({ service_id: serviceId, title: s.title });
  }
  await tx.delete(serviceProfiles).where(sql`service_id = ${serviceId}`);
  if (input.profiles.length) await tx.insert(serviceProfiles).values([...new Set(input.profiles)].map((p) => ({ service_id: serviceId, dict_profile_id: p })));
  await tx.delete(serviceLeadings).where(sql`service_id = ${serviceId}`);
  if (input.leadings.length) await tx.insert(serviceLeadings).values([...new Set(input.leadings)].map((l) => ({ service_id: serviceId, leading_id: l })));
}

export interface SaveOptions {
  /** Whether a site is configured: the save then queues the publication in the same transaction. */
  publish: boolean;
}

/** POST /api/service: the service, its sections, profiles and leadings, the change log and the queued publication, all or nothing. */
export async function createService(db: Db, user: AuthUser, raw: SaveServiceInput, opts: SaveOptions): Promise<number> {
  return db.transaction(async (tx) => {
    const errors: FieldErrors = {};
    const { type, subtype } = await checkReferences(tx, raw, errors);
    if (Object.keys(errors).length || !type) throw validationError(errors);
    const input = withDefaultTemplates(raw, type);
    const [row] = await tx
      .insert(services)
      .values(valuesOf(input, type, subtype))
      .returning({ id: services.id });
    await saveLinks(tx, row.id, input, errors);
    await logChange(tx, { type: 'service', entityId: row.id, userId: user.id, before: null, after: await snapshot(tx, row.id) });
    if (opts.publish) await requestPublication(tx, row.id);
    return row.id;
  });
}

/** PUT /api/service/{id}. */
export async function updateService(db: Db, user: AuthUser, id: number, input: SaveServiceInput, opts: SaveOptions): Promise<void> {
  await db.transaction(async (tx) => {
    const [locked] = await rows<{ id: number }>(tx, sql`select id from services where id = ${id} and deleted_at is null for update`);
    if (!locked) throw notFound(Messages.serviceNotFound);
    const before = await snapshot(tx, id);
    const errors: FieldErrors = {};
    const { type, subtype } = await checkReferences(tx, input, errors);
    if (Object.keys(errors).length || !type) throw validationError(errors);
    await tx
      .update(services)
      .set({ ...valuesOf(input, type, subtype), updated_at: new Date() })
      .where(sql`id = ${id}`);
    await saveLinks(tx, id, input, errors);
    await logChange(tx, { type: 'service', entityId: id, userId: user.id, before, after: await snapshot(tx, id) });
    if (opts.publish) await requestPublication(tx, id);
  });
}

/** DELETE /api/service/{id}: a soft delete; its article on the site is unpublished by the publication job. */
export async function deleteService(db: Db, user: AuthUser, id: number, opts: SaveOptions): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await rows<{ id: number; joomla_article_id: number | null }>(
      tx,
      sql`select id, joomla_article_id from services where id = ${id} and deleted_at is null for update`,
    );
    if (!row) throw notFound(Messages.serviceNotFound);
    const now = new Date();
    await tx
      .update(services)
      .set({ deleted_at: now, updated_at: now })
      .where(sql`id = ${id}`);
    await logChange(tx, { type: 'service', entityId: id, userId: user.id, before: { deleted_at: null }, after: { deleted_at: now } });
    if (opts.publish && row.joomla_article_id) await requestPublication(tx, id);
  });
}

/** Sets the service's image (a stored file id) and logs it. */
export async function setServiceImage(db: Db, user: AuthUser, id: number, fileId: number, opts: SaveOptions): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await rows<{ image_id: number | null }>(tx, sql`select image_id from services where id = ${id} and deleted_at is null for update`);
    if (!row) throw notFound(Messages.serviceNotFound);
    await tx
      .update(services)
      .set({ image_id: fileId, updated_at: new Date() })
      .where(sql`id = ${id}`);
    await logChange(tx, { type: 'service', entityId: id, userId: user.id, before: { image_id: row.image_id }, after: { image_id: fileId } });
    if (opts.publish) await requestPublication(tx, id);
  });
}
