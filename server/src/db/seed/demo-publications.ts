// Demo rubrics on the demo site's categories (prices and releases: demo-publication-dictionaries.ts);
// then the demo user's publications in every status (the approved and published ones paid, the
// first one on the publication the demo user's package bought) and a few other clients' pending,
// unpaid ones (the moderation window's unpaid warning), made through the same rules as requests
// (createPublication, movePublication), so the user's list and the operator's moderation screen are lived-in.
import { sql } from 'drizzle-orm';
import { PayType, Role } from '@edu/domain/common/codes';
import { savePublicationBody, type PublicationAction } from '@edu/domain/publications/publication';
import { rows, type Queryable } from '../../platform/db.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { createPublication } from '../../features/publications/publication-save.ts';
import { movePublication } from '../../features/publications/publication-status.ts';
import { markPaidIn } from '../../features/payments/payment-rules.ts';
import { DEMO_PUBLICATION_TEXTS } from './demo-publication-texts.ts';

/** Called with the demo catalogue (a database without services), once. */
export async function seedDemoRubrics(tx: Queryable): Promise<void> {
  // Rubrics go to the demo site's categories (101-112: the e2e fake site has them), where none are set.
  await tx.execute(sql`update dict_publication_categories set joomla_category_id = 104 + id where joomla_category_id is null and id <= 8`);
}

const DAY = 86_400_000;

/** A demo publication's own text (demo-publication-texts.ts), as the editor saves it: one <p> per paragraph. */
function demoText(title: string): string {
  const paragraphs = DEMO_PUBLICATION_TEXTS[title];
  if (!paragraphs) throw new Error(`No demo text for «${title}»`);
  return paragraphs.map((p) => `<p>${p}</p>`).join('');
}

interface DemoPublication {
  title: string;
  category: number;
  authors?: string[];
  /** Operator actions after submission, in order. */
  actions?: Array<{ action: PublicationAction; comment?: string; url?: string }>;
  /** Its entry is paid (at the bank) before the operator acts: only paid ones are approved or published here (issue 28). */
  paid?: boolean;
  daysAgo: number;
}

const MINE: DemoPublication[] = [
  { title: 'Игровые технологии на уроках математики в начальной школе', category: 2, daysAgo: 2 },
  {
    title: 'Проектная деятельность как средство развития речи дошкольников',
    category: 1,
    authors: ['Соколова Елена Андреевна'],
    daysAgo: 9,
    paid: true,
    actions: [{ action: 'accept' }],
  },
  {
    title: 'Рефлексия на уроке: приёмы для 5–7 классов',
    category: 3,
    daysAgo: 15,
    paid: true,
    actions: [{ action: 'decline', comment: 'Добавьте, пожалуйста, список литературы и уточните возраст учащихся во введении.' }],
  },
  {
    title: 'Сценарий осеннего праздника',
    category: 6,
    daysAgo: 30,
    actions: [{ action: 'reject', comment: 'Материал уже опубликован на другом сайте: уникальность ниже 70 %.' }],
  },
  {
    title: 'Цифровые инструменты в работе классного руководителя',
    category: 6,
    daysAgo: 60,
    paid: true,
    actions: [{ action: 'accept' }, { action: 'publish', url: 'https://example.org/index.php?option=com_content&view=article&id=501' }],
  },
];

/** The demo user's publications in every status and a few other clients' pending ones (after the catalogue and prices). */
export async function seedDemoPublicationActivity(db: Queryable, o: { now: Date; operatorId: number; userId: number; otherUserIds: number[] }): Promise<void> {
  const [service] = await rows<{ id: number }>(
    db,
    sql`select id from services where deleted_at is null and is_publication and dict_subtype_id = 5 order by id limit 1`,
  );
  if (!service) return;
  const operator: AuthUser = { id: o.operatorId, role: Role.operator, tokenId: 0, impersonatorId: null };
  const add = async (userId: number, p: DemoPublication, seed: number) => {
    const user: AuthUser = { id: userId, role: Role.user, tokenId: 0, impersonatorId: null };
    const input = savePublicationBody.parse({
      service_id: service.id,
      title: p.title,
      text: demoText(p.title),
      dict_category_id: p.category,
      type: seed % 3 === 0 ? 2 : 1,
      authors_num: 1 + (p.authors?.length ?? 0),
      authors: (p.authors ?? []).map((fio) => ({ fio })),
    });
    const { id } = await createPublication(db, null, user, input, []);
    if (p.paid) {
      // Its entry (a package's entry taken as the slot is paid already).
      const [entry] = await rows<{ id: number; status: number }>(
        db,
        sql`select e.id, e.status from publication_entries pe join entries e on e.id = pe.entry_id where pe.publication_id = ${id} order by e.id limit 1`,
      );
      if (entry && entry.status === 1) await markPaidIn(db, operator, entry.id, PayType.bank);
    }
    for (const a of p.actions ?? []) {
      await movePublication(db, {
        publicationId: id,
        action: a.action,
        by: operator.id,
        set: { ...(a.comment ? { manager_comment: a.comment } : {}), ...(a.url ? { url: a.url } : {}) },
      });
    }
    const at = new Date(o.now.getTime() - p.daysAgo * DAY);
    await db.execute(sql`update publications set created_at = ${at}, updated_at = ${at} where id = ${id}`);
    await db.execute(sql`update change_logs set created_at = ${at} where type = 'publication' and entity_id = ${id}`);
  };
  for (const [i, p] of MINE.entries()) await add(o.userId, p, i + 1);
  const theirs = [
    'Опыт работы с детьми с ОВЗ в условиях инклюзии',
    'Подготовка к ОГЭ по русскому языку: система упражнений',
    'Кружок робототехники в начальной школе',
  ];
  for (const [i, userId] of o.otherUserIds.slice(0, theirs.length).entries()) {
    await add(userId, { title: theirs[i], category: [5, 3, 4][i], daysAgo: 1 + i }, 20 + i);
  }
}
