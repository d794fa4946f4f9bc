import { services, serviceSections } from '../src/db/schema/index.ts';
import type { Queryable } from '../src/platform/db.ts';

const day = 86_400_000;

/** A service straight in the database, with optional sections; upcoming by default. */
export async function makeService(
  db: Queryable,
  attrs: Partial<typeof services.$inferInsert> & { sections?: string[] } = {},
): Promise<{ id: number; sectionIds: number[] }> {
  const { sections = [], ...values } = attrs;
  // 10:00–12:00 Moscow a week ahead: the interval never crosses midnight, whenever the suite runs.
  const weekAheadAt = (utcHour: number) => {
    const d = new Date(Date.now() + 7 * day);
    d.setUTCHours(utcHour, 0, 0, 0);
    return d;
  };
  const [row] = await db
    .insert(services)
    .values({
      title: 'Вебинар «Проектная деятельность в школе»',
      dict_type_id: 2,
      price: 500,
      points: 4,
      date_type: 1,
      begda: weekAheadAt(7),
      endda: weekAheadAt(9),
      ...values,
    })
    .returning({ id: services.id });
  const sectionIds: number[] = [];
  for (const title of sections) {
    const [s] = await db.insert(serviceSections).values({ service_id: row.id, title }).returning({ id: serviceSections.id });
    sectionIds.push(s.id);
  }
  return { id: row.id, sectionIds };
}
