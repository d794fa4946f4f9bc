import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, rows, type Database } from '../../platform/db.ts';
import { seedDemo, seedDictionaries } from '../../db/seed/seed.ts';
import { demoUser } from '../../db/seed/demo-data.ts';
import { DEMO_PUBLICATION_TEXTS } from '../../db/seed/demo-publication-texts.ts';
import { publicationPlainText } from '@edu/domain/publications/plain-text';
import { compare, prepareText } from './uniqueness/engine.ts';

let database: Database;
beforeAll(async () => {
  database = await openPglite(undefined);
  await database.migrate();
  await seedDictionaries(database.db);
  await seedDemo(database.db, { password: 'demo1234', now: new Date('2026-03-10T09:00:00Z') });
}, 120_000);
afterAll(() => database?.close());

describe('demo publications', () => {
  it('the demo user has publications in every status but the journal one, priced on their entries; others wait for the check', async () => {
    const mine = await rows<{ status: number; price: string; entry_price: string; in_package: boolean; manager_comment: string | null }>(
      database.db,
      sql`select p.status, pp.price, e.price as entry_price, e.package_enrollment_id is not null as in_package, p.manager_comment from publications p
          join users u on u.id = p.created_by join publication_prices pp on pp.id = p.price_id
          join publication_entries pe on pe.publication_id = p.id join entries e on e.id = pe.entry_id
          where lower(u.email) = ${demoUser.email.toLowerCase()} order by p.status`,
    );
    expect(mine.map((p) => p.status)).toEqual([0, 1, 2, 3, 4]);
    // A package's entry keeps its share of the package; the others are priced by the publication prices.
    expect(mine.filter((p) => !p.in_package).every((p) => Number(p.price) === Number(p.entry_price))).toBe(true);
    // The pending one went to the publication the demo user's package bought (issue 28).
    expect(mine.find((p) => p.status === 1)?.in_package).toBe(true);
    expect(mine.find((p) => p.status === 3)?.manager_comment).toBeTruthy();
    const [{ n }] = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from publications where status = 1`);
    expect(n).toBeGreaterThanOrEqual(3);
  });

  it('no approved, published or journal publication has an unpaid entry; some pending ones are unpaid (the warning shows)', async () => {
    const paid = sql`exists (select 1 from publication_entries pe join entries e on e.id = pe.entry_id
      where pe.publication_id = p.id and e.deleted_at is null and e.status in (2, 3))`;
    const [{ moved }] = await rows<{ moved: number }>(
      database.db,
      sql`select count(*)::int as moved from publications p where p.deleted_at is null and p.status in (2, 4, 5) and not ${paid}`,
    );
    expect(moved).toBe(0);
    const [{ shown }] = await rows<{ shown: number }>(database.db, sql`select count(*)::int as shown from publications p where p.status in (2, 4)`);
    expect(shown).toBeGreaterThanOrEqual(2);
    const [{ waiting }] = await rows<{ waiting: number }>(
      database.db,
      sql`select count(*)::int as waiting from publications p where p.deleted_at is null and p.status = 1 and not ${paid}`,
    );
    expect(waiting).toBeGreaterThanOrEqual(1);
  });

  it('each demo text is its own: the uniqueness check finds it original against all the others (a demo journal, not «0 %»)', () => {
    const texts = Object.values(DEMO_PUBLICATION_TEXTS).map((paragraphs) => publicationPlainText(paragraphs.map((p) => `<p>${p}</p>`).join('')));
    expect(texts.length).toBeGreaterThanOrEqual(8);
    for (const [i, text] of texts.entries()) {
      const others = texts.flatMap((other, j) => (j === i ? [] : [{ id: j, text: other }]));
      expect(compare(prepareText(text), others).uniqueness).toBeGreaterThanOrEqual(95);
    }
    // And the check is not blind: a text against itself is 0 %.
    expect(compare(prepareText(texts[0]), [{ id: 1, text: texts[0] }]).uniqueness).toBe(0);
  });
});
