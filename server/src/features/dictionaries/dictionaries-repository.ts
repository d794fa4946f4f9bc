import { asc, count, eq, ilike, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DictionaryItem, DictionaryName } from '@edu/domain/dictionaries/dictionaries';
import type { EditableDictionary, Leading, leadingBody, leadingListQuery } from '@edu/domain/dictionaries/dictionary-saves';
import * as t from '../../db/schema/index.ts';
import { leadings } from '../../db/schema/index.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { containsPattern } from '../../platform/list-query.ts';

/** Whether the id names a service subtype marked as a publication subtype (releases and prices belong to one). */
export async function isPublicationSubtype(db: Queryable, subtypeId: number | null | undefined): Promise<boolean> {
  const [subtype] = await rows<{ id: number }>(db, sql`select id from dict_service_subtypes where id = ${subtypeId} and is_publication`);
  return Boolean(subtype);
}

function leadingsWhere(fio: string | undefined) {
  return fio ? ilike(leadings.fio, containsPattern(fio)) : undefined;
}

/** How many leading persons match the name filter. */
export async function countLeadings(db: Queryable, fio: string | undefined): Promise<number> {
  const [{ total }] = await db.select({ total: count() }).from(leadings).where(leadingsWhere(fio));
  return Number(total);
}

/** A page of leading persons by name, each with the number of services naming them. */
export async function listLeadings(db: Queryable, q: z.output<typeof leadingListQuery>): Promise<Leading[]> {
  return db
    .select({
      id: leadings.id,
      fio: leadings.fio,
      description: leadings.description,
      url: leadings.url,
      services_count: sql<number>`(select count(*)::int from service_leadings sl where sl.leading_id = ${leadings.id})`,
    })
    .from(leadings)
    .where(leadingsWhere(q.fio))
    .orderBy(asc(leadings.fio), asc(leadings.id))
    .limit(q.per_page)
    .offset((q.page - 1) * q.per_page);
}

const tables = {
  dict_profiles: t.dictProfiles,
  dict_service_types: t.dictServiceTypes,
  dict_service_subtypes: t.dictServiceSubtypes,
  dict_macros_categories: t.dictMacrosCategories,
  dict_macroses: t.dictMacroses,
  dict_template_types: t.dictTemplateTypes,
  dict_events: t.dictEvents,
  dict_publication_categories: t.dictPublicationCategories,
  dict_document_types: t.dictDocumentTypes,
  dict_regions: t.dictRegions,
} satisfies Record<DictionaryName, unknown>;

/** A whole dictionary, by id. */
export async function listDictionary(db: Queryable, name: DictionaryName): Promise<DictionaryItem[]> {
  const table = tables[name];
  return (await db.select().from(table).orderBy(asc(table.id))) as DictionaryItem[];
}

const editableTables = { dict_service_types: t.dictServiceTypes, dict_service_subtypes: t.dictServiceSubtypes, dict_profiles: t.dictProfiles } as const;

/** A stored item of an editable dictionary. */
export type EditableDictionaryRow = (typeof editableTables)[EditableDictionary]['$inferSelect'];

/** Whether a service type with this id exists (a subtype's type). */
export async function serviceTypeExists(db: Queryable, id: number): Promise<boolean> {
  const [type] = await db.select({ id: t.dictServiceTypes.id }).from(t.dictServiceTypes).where(eq(t.dictServiceTypes.id, id));
  return Boolean(type);
}

/** A new item of the dictionary (values already checked by its schema). */
export async function insertDictionaryItem(db: Queryable, name: EditableDictionary, values: Record<string, unknown>): Promise<EditableDictionaryRow> {
  const [row] = await db
    .insert(editableTables[name])
    .values(values as never)
    .returning();
  return row as EditableDictionaryRow;
}

/** Every field of an item; undefined when there is no such item. */
export async function updateDictionaryItem(
  db: Queryable,
  name: EditableDictionary,
  id: number,
  values: Record<string, unknown>,
): Promise<EditableDictionaryRow | undefined> {
  const table = editableTables[name];
  const [row] = await db
    .update(table)
    .set(values as never)
    .where(eq(table.id, id))
    .returning();
  return row as EditableDictionaryRow | undefined;
}

/** Deletes an item; false when there is none. A foreign key violation (still referred to) is thrown as it is. */
export async function deleteDictionaryItem(db: Queryable, name: EditableDictionary, id: number): Promise<boolean> {
  const table = editableTables[name];
  const [row] = await db.delete(table).where(eq(table.id, id)).returning({ id: table.id });
  return Boolean(row);
}

export type LeadingRow = typeof leadings.$inferSelect;
type LeadingValues = z.output<typeof leadingBody>;

export async function insertLeading(db: Queryable, values: LeadingValues): Promise<LeadingRow> {
  const [row] = await db.insert(leadings).values(values).returning();
  return row;
}

/** undefined when there is no such leading person. */
export async function updateLeading(db: Queryable, id: number, values: LeadingValues): Promise<LeadingRow | undefined> {
  const [row] = await db.update(leadings).set(values).where(eq(leadings.id, id)).returning();
  return row;
}

/** Deletes a leading person; false when there is none. A foreign key violation (named in services) is thrown as it is. */
export async function deleteLeading(db: Queryable, id: number): Promise<boolean> {
  const [row] = await db.delete(leadings).where(eq(leadings.id, id)).returning({ id: leadings.id });
  return Boolean(row);
}
