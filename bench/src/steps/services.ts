import type pg from 'pg';
import { contexts, descriptionTemplates, sectionNames, serviceTypes, themes, type TypeSpec } from '../lib/catalogue-data.ts';
import { inTransaction, runLimited } from '../lib/db.ts';
import { Random } from '../lib/random.ts';

/**
 * Bench services carry this in joomla_intro_html (a CMS field nothing reads while the CMS is off):
 * that is how --reset and the entries step tell them from the seeded demo catalogue.
 */
export const BENCH_SERVICE_MARK = '<!-- edu-bench -->';

const DAY = 86_400_000;
const TITLE_MAX = 100; // services.title is varchar(100)

export interface ServicesOptions {
  target: number;
  batchSize: number;
  concurrency: number;
  seed: number;
}

interface GeneratedService {
  id: number;
  title: string;
  description: string;
  price: number;
  points: number;
  is_visible: boolean;
  is_done: boolean;
  is_publication: boolean;
  is_thesis_needed: boolean;
  dict_type_id: number;
  dict_subtype_id: number;
  participation_type: number;
  date_type: number;
  begda: number | null;
  endda: number | null;
  max_participants: number;
  hours: number | null;
  days: number | null;
  created_at: number;
  deleted_at: number | null;
  sections: string[];
  /** Index of a section removed by an operator (a few services), or -1. */
  sectionDeleted: number;
  profiles: number[];
  leading: number | null;
}

const INSERT_SERVICES = `
insert into services (id, title, description, price, points, is_visible, is_done, is_publication, is_thesis_needed,
  dict_type_id, dict_subtype_id, participation_type, date_type, begda, endda, max_participants, hours, days,
  joomla_intro_html, created_at, updated_at, deleted_at)
select s.id, s.title, s.description, s.price, s.points, s.is_visible, s.is_done, s.is_publication, s.is_thesis_needed,
  s.dict_type_id, s.dict_subtype_id, s.participation_type, s.date_type, to_timestamp(s.begda), to_timestamp(s.endda),
  s.max_participants, s.hours, s.days, $1, to_timestamp(s.created_at), to_timestamp(s.created_at), to_timestamp(s.deleted_at)
from unnest($2::int[], $3::text[], $4::text[], $5::numeric[], $6::int[], $7::bool[], $8::bool[], $9::bool[], $10::bool[],
  $11::int[], $12::int[], $13::smallint[], $14::smallint[], $15::float8[], $16::float8[], $17::int[], $18::int[], $19::int[],
  $20::float8[], $21::float8[])
  as s(id, title, description, price, points, is_visible, is_done, is_publication, is_thesis_needed, dict_type_id,
       dict_subtype_id, participation_type, date_type, begda, endda, max_participants, hours, days, created_at, deleted_at)`;

const INSERT_SECTIONS = `
insert into service_sections (service_id, title, deleted_at)
select * from unnest($1::int[], $2::text[], $3::timestamptz[])`;

const INSERT_PROFILES = `insert into service_profiles (service_id, dict_profile_id) select * from unnest($1::int[], $2::int[])`;
const INSERT_LEADINGS = `insert into service_leadings (service_id, leading_id) select * from unnest($1::int[], $2::int[])`;

/** Makes services one at a time from a seeded PRNG: the same seed gives the same catalogue. */
export class ServiceFactory {
  private readonly typeWeights: ReadonlyArray<readonly [TypeSpec, number]> = serviceTypes.map((t) => [t, t.weight] as const);
  private readonly now = Date.now();

  constructor(
    private readonly r: Random,
    private readonly leadingIds: number[],
    private readonly profileIds: number[],
  ) {}

  next(id: number): GeneratedService {
    const r = this.r;
    const type = r.weighted(this.typeWeights);
    const [subtypeId, format, points] = r.pick(type.subtypes);
    // Olympiads name their subject plainly ("Олимпиада для педагогов по психологии"), the rest quote a topic.
    const plain = type.id === 9 && type.ownNames && r.chance(0.5) ? r.pickSkewed(type.ownNames, 1.3) : null;
    const topic = plain ?? this.topic(type, format.length);
    const title = plain ? `${format} ${plain}` : `${format} «${topic}»`;
    const price = r.chance(type.free) ? 0 : Math.round(r.int(type.price[0], type.price[1]) / 50) * 50;
    const dateType = r.weighted([
      [1, type.dateTypes[0]],
      [2, type.dateTypes[1]],
      [3, type.dateTypes[2]],
    ] as const);
    const participation = r.weighted([
      [1, type.participation[0]],
      [2, type.participation[1]],
      [3, type.participation[2]],
    ] as const);

    let begda: number | null = null;
    let endda: number | null = null;
    let createdAt: number;
    if (dateType === 1) {
      // Spread over the past year and the next one; starts between 09:00 and 17:00 Moscow time.
      const day = Math.floor((this.now - 365 * DAY + r.next() * 730 * DAY) / DAY) * DAY;
      begda = day + (6 + r.int(0, 8)) * 3_600_000;
      endda = begda + r.int(type.hours[0], type.hours[1]) * 3_600_000;
      // Announced two weeks to half a year ahead; those far ahead were announced in the last months.
      createdAt = begda - r.int(14, 180) * DAY;
      if (createdAt > this.now) createdAt = this.now - r.next() * 90 * DAY;
    } else {
      createdAt = this.now - r.next() * 730 * DAY;
    }
    const past = endda !== null && endda < this.now;
    const deleted = r.chance(0.01);
    const sectionCount = r.chance(type.sections) ? r.int(2, 4) : 0;
    return {
      id,
      title,
      description: r.pick(descriptionTemplates).replace('{topic}', topic.charAt(0).toLowerCase() + topic.slice(1)),
      price,
      points,
      is_visible: !r.chance(0.04),
      is_done: past && r.chance(0.7),
      is_publication: type.id === 5,
      is_thesis_needed: r.chance(type.theses),
      dict_type_id: type.id,
      dict_subtype_id: subtypeId,
      participation_type: participation,
      date_type: dateType,
      begda,
      endda,
      max_participants: r.pick(type.seats),
      hours: type.programmeHours?.[subtypeId] ?? null,
      days: type.programmeHours?.[subtypeId] ? Math.ceil(type.programmeHours[subtypeId] / 6) : null,
      created_at: createdAt,
      deleted_at: deleted ? Math.min(this.now, createdAt + r.int(1, 60) * DAY) : null,
      sections: r.sample(sectionNames[type.sectionKind], sectionCount),
      sectionDeleted: sectionCount > 2 && r.chance(0.05) ? sectionCount - 1 : -1,
      profiles: r.sample(this.profileIds, r.int(1, 3)),
      leading: this.leadingIds.length > 0 && r.chance(0.3) ? r.pick(this.leadingIds) : null,
    };
  }

  private topic(type: TypeSpec, formatLength: number): string {
    const r = this.r;
    const room = TITLE_MAX - formatLength - 3; // space and the quotes
    if (type.id !== 9 && type.ownNames && r.chance(0.5)) {
      const name = r.pickSkewed(type.ownNames, 1.3);
      return name.length <= room ? name : name.slice(0, room);
    }
    for (let attempt = 0; attempt < 10; attempt++) {
      const theme = r.pickSkewed(themes, 1.5);
      const topic = r.chance(0.75) ? `${theme} ${r.pickSkewed(contexts, 1.4)}` : theme;
      if (topic.length <= room) return topic;
    }
    return r.pick(themes).slice(0, room);
  }
}

/**
 * Adds bench services (and their sections, profiles, leadings) until there are `target` of them.
 * Ids come from the services sequence up front; multi-row unnest() inserts, batchSize per transaction.
 */
export async function generateServices(pool: pg.Pool, opts: ServicesOptions): Promise<{ existing: number; created: number; sections: number }> {
  const { rows: countRows } = await pool.query<{ n: number }>('select count(*)::int as n from services where joomla_intro_html = $1', [BENCH_SERVICE_MARK]);
  const existing = countRows[0].n;
  const toCreate = Math.max(0, opts.target - existing);
  if (toCreate === 0) return { existing, created: 0, sections: 0 };

  const [leadings, profiles] = await Promise.all([
    pool.query<{ id: number }>('select id from leadings order by id'),
    pool.query<{ id: number }>('select id from dict_profiles order by id'),
  ]);
  const factory = new ServiceFactory(
    new Random(opts.seed + 7 * existing + 1),
    leadings.rows.map((r) => r.id),
    profiles.rows.map((r) => r.id),
  );
  const { rows: idRows } = await pool.query<{ id: number }>(
    `select nextval(pg_get_serial_sequence('services', 'id'))::int as id from generate_series(1, $1) order by 1`,
    [toCreate],
  );

  let created = 0;
  let sections = 0;
  const tasks: Array<() => Promise<void>> = [];
  for (let start = 0; start < idRows.length; start += opts.batchSize) {
    const batch = idRows.slice(start, start + opts.batchSize).map((r) => factory.next(r.id));
    tasks.push(async () => {
      const col = <T>(f: (s: GeneratedService) => T) => batch.map(f);
      const sec = batch.flatMap((s) =>
        s.sections.map((title, i) => [s.id, title, s.sectionDeleted === i ? new Date(s.created_at + DAY).toISOString() : null] as const),
      );
      const prof = batch.flatMap((s) => s.profiles.map((p) => [s.id, p] as const));
      const lead = batch.filter((s) => s.leading !== null).map((s) => [s.id, s.leading!] as const);
      const seconds = (ms: number | null) => (ms === null ? null : ms / 1000);
      await inTransaction(pool, async (client) => {
        await client.query(INSERT_SERVICES, [
          BENCH_SERVICE_MARK,
          col((s) => s.id),
          col((s) => s.title),
          col((s) => s.description),
          col((s) => s.price),
          col((s) => s.points),
          col((s) => s.is_visible),
          col((s) => s.is_done),
          col((s) => s.is_publication),
          col((s) => s.is_thesis_needed),
          col((s) => s.dict_type_id),
          col((s) => s.dict_subtype_id),
          col((s) => s.participation_type),
          col((s) => s.date_type),
          col((s) => seconds(s.begda)),
          col((s) => seconds(s.endda)),
          col((s) => s.max_participants),
          col((s) => s.hours),
          col((s) => s.days),
          col((s) => seconds(s.created_at)),
          col((s) => seconds(s.deleted_at)),
        ]);
        if (sec.length) await client.query(INSERT_SECTIONS, [sec.map((x) => x[0]), sec.map((x) => x[1]), sec.map((x) => x[2])]);
        if (prof.length) await client.query(INSERT_PROFILES, [prof.map((x) => x[0]), prof.map((x) => x[1])]);
        if (lead.length) await client.query(INSERT_LEADINGS, [lead.map((x) => x[0]), lead.map((x) => x[1])]);
      });
      created += batch.length;
      sections += sec.length;
    });
  }
  await runLimited(tasks, opts.concurrency);
  return { existing, created, sections };
}
