import { sql } from 'drizzle-orm';
import type { Rubric, RubricBody } from '@edu/domain/publication-categories/publication-category';
import { rows, type Queryable } from '../../platform/db.ts';

// Publication rubrics (spec 03 §2 'Рубрики публикаций'): the dictionary dict_publication_categories.

/** Whether another rubric (not exceptId) already has this alias. */
export async function isRubricAliasTaken(db: Queryable, alias: string, exceptId: number | null): Promise<boolean> {
  const [other] = await rows<{ id: number }>(
    db,
    sql`select id from dict_publication_categories where alias = ${alias} ${exceptId !== null ? sql`and id <> ${exceptId}` : sql``}`,
  );
  return Boolean(other);
}

export async function insertRubric(db: Queryable, b: RubricBody): Promise<Rubric> {
  const [rubric] = await rows<Rubric>(
    db,
    sql`insert into dict_publication_categories (fdv, alias, description, joomla_category_id)
        values (${b.fdv}, ${b.alias}, ${b.description}, ${b.joomla_category_id}) returning id, fdv, alias, description, joomla_category_id`,
  );
  return rubric;
}

/** The saved rubric, or undefined when there is none with this id. */
export async function updateRubric(db: Queryable, id: number, b: RubricBody): Promise<Rubric | undefined> {
  const [rubric] = await rows<Rubric>(
    db,
    sql`update dict_publication_categories set fdv = ${b.fdv}, alias = ${b.alias}, description = ${b.description}, joomla_category_id = ${b.joomla_category_id}
        where id = ${id} returning id, fdv, alias, description, joomla_category_id`,
  );
  return rubric;
}

/** True when a rubric was deleted; one named by publications throws the foreign key violation. */
export async function deleteRubric(db: Queryable, id: number): Promise<boolean> {
  const [row] = await rows<{ id: number }>(db, sql`delete from dict_publication_categories where id = ${id} returning id`);
  return Boolean(row);
}
