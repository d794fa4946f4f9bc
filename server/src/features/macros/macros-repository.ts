import { sql } from 'drizzle-orm';
import { rows, type Queryable } from '../../platform/db.ts';

export interface MacroCategoryRow {
  id: number;
  fdv: string;
  macros: { id: number; fdv: string; description: string | null }[];
}

/** The macro catalogue: categories by id, each with its macros by id. */
export async function listMacroCategories(db: Queryable): Promise<MacroCategoryRow[]> {
  const list = await rows<Omit<MacroCategoryRow, 'macros'> & { macros: MacroCategoryRow['macros'] | null }>(
    db,
    sql`select c.id, c.fdv, (select json_agg(json_build_object('id', m.id, 'fdv', m.fdv, 'description', m.description) order by m.id)
                             from dict_macroses m where m.dict_category_id = c.id) as macros
        from dict_macros_categories c order by c.id`,
  );
  return list.map((c) => ({ ...c, macros: c.macros ?? [] }));
}

export interface NameFormsRow {
  last_name: string;
  first_name: string;
  middle_name: string | null;
  fio_dative: string | null;
}

export interface NameSearchRow extends NameFormsRow {
  id: number;
  email: string;
}

/** Live users whose last, first or middle name starts with every word (at most 20, by name). */
export async function searchUsersByName(db: Queryable, words: string[], limit: number): Promise<NameSearchRow[]> {
  const cond = sql.join(
    words.map((w) => {
      const like = `${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return sql`(u.last_name ilike ${like} or u.first_name ilike ${like} or u.middle_name ilike ${like})`;
    }),
    sql` and `,
  );
  return rows<NameSearchRow>(
    db,
    sql`select u.id, u.last_name, u.first_name, u.middle_name, u.email, u.fio_dative from users u
        where u.deleted_at is null and ${cond} order by u.last_name, u.first_name, u.id limit ${limit}`,
  );
}

export async function findNameForms(db: Queryable, userId: number): Promise<NameFormsRow | undefined> {
  const [u] = await rows<NameFormsRow>(db, sql`select last_name, first_name, middle_name, fio_dative from users where id = ${userId}`);
  return u;
}

/** Stores the operator's correction of the dative name (null: back to the computed one); false when there is no such user. */
export async function setFioDative(db: Queryable, userId: number, value: string | null): Promise<boolean> {
  const updated = await rows<{ id: number }>(db, sql`update users set fio_dative = ${value}, updated_at = now() where id = ${userId} returning id`);
  return updated.length > 0;
}
