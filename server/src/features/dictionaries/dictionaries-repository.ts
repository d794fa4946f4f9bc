import { asc, count, ilike, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Leading, leadingListQuery } from '@edu/domain/dictionaries/dictionary-saves';
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
