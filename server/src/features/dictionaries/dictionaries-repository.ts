import { sql } from 'drizzle-orm';
import { rows, type Queryable } from '../../platform/db.ts';

/** Whether the id names a service subtype marked as a publication subtype (releases and prices belong to one). */
export async function isPublicationSubtype(db: Queryable, subtypeId: number | null | undefined): Promise<boolean> {
  const [subtype] = await rows<{ id: number }>(db, sql`select id from dict_service_subtypes where id = ${subtypeId} and is_publication`);
  return Boolean(subtype);
}
