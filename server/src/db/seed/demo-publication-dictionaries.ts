// Demo releases, publication prices and pending reviews (spec 03 §2): the operator's 'Выпуски журнала',
// 'Цены публикаций' and 'Отзывы' screens are not empty on a fresh demo. Rubrics come with the dictionaries.
import { sql } from 'drizzle-orm';
import { rows, type Queryable } from '../../platform/db.ts';
import { publicationPrices, publicationReleases, reviews } from '../schema/index.ts';
import { moscowYear } from '@edu/domain/common/moscow-time';

const DAY = 86_400_000;

/** Prices in rubles by number of authors (1..4), per kind of publication subtype. */
const PRICE_STEPS: Record<'journal' | 'internet' | 'collection', number[]> = {
  journal: [2500, 3200, 3900, 4600],
  internet: [900, 1300, 1700, 2100],
  collection: [1800, 2400, 3000, 3600],
};

const PENDING_REVIEWS = [
  'Очень понравился вебинар о профилактике выгорания: конкретные упражнения, которые можно делать прямо на перемене. Спасибо!',
  'Статью опубликовали быстро, свидетельство пришло на почту в тот же день. Удобный личный кабинет.',
  'Курс полезный, но хотелось бы больше примеров для начальной школы. В целом благодарю организаторов.',
];

export async function seedDemoPublicationDictionaries(db: Queryable, o: { now: Date }): Promise<void> {
  const subtypes = await rows<{ id: number; fdv: string; publication_has_file: boolean }>(
    db,
    sql`select id, fdv, publication_has_file from dict_service_subtypes where is_publication order by id`,
  );
  const year = moscowYear(o.now);
  for (const s of subtypes) {
    const kind = s.id === 5 ? 'internet' : /сборник/i.test(s.fdv) ? 'collection' : 'journal';
    await db
      .insert(publicationPrices)
      .values(PRICE_STEPS[kind].map((price, i) => ({ dict_service_subtype_id: s.id, authors_num: i + 1, price })))
      .onConflictDoNothing();
    if (kind === 'internet') continue;
    // Journal-like subtypes: last year's issues hidden (one published on the site), this year's open.
    const name = kind === 'journal' ? 'Выпуск' : 'Сборник';
    const slug = kind === 'journal' ? 'journal' : 'collection';
    await db.insert(publicationReleases).values([
      {
        title: `${name} №3 (${year - 1})`,
        dict_service_subtype_id: s.id,
        url: `https://example.com/${slug}/${year - 1}-3`,
        url_contents: `https://example.com/${slug}/${year - 1}-3/contents`,
        is_hidden: true,
        is_published: true,
      },
      {
        title: `${name} №4 (${year - 1})`,
        dict_service_subtype_id: s.id,
        url: `https://example.com/${slug}/${year - 1}-4`,
        is_hidden: true,
        is_published: false,
      },
      { title: `${name} №1 (${year})`, dict_service_subtype_id: s.id, url: null },
      { title: `${name} №2 (${year})`, dict_service_subtype_id: s.id, url: null },
    ]);
  }
}

/** Pending reviews from other demo clients (after the demo activity made them; the demo user's own review is already published). */
export async function seedDemoPendingReviews(db: Queryable, o: { now: Date }): Promise<void> {
  const clients = await rows<{ id: number }>(
    db,
    sql`select id from users where email like 'demo-client-%@example.com' order by id limit ${PENDING_REVIEWS.length}`,
  );
  for (const [i, c] of clients.entries()) {
    const at = new Date(o.now.getTime() - (i + 1) * 2 * DAY);
    await db.insert(reviews).values({ user_id: c.id, text: PENDING_REVIEWS[i], status: 0, created_at: at, updated_at: at });
  }
}
