import { sql } from 'drizzle-orm';
import { rublesText } from '@edu/domain/common/money';
import type { PriceBody, PublicationPrice } from '@edu/domain/publication-prices/publication-price';
import { rows, type Queryable } from '../../platform/db.ts';

// Publication prices (spec 03 §2 'Цены публикаций').

interface PriceRow {
  id: number;
  dict_service_subtype_id: number;
  subtype_fdv: string | null;
  authors_num: number;
  price: string | number;
}

export async function listPrices(db: Queryable, f: { id?: number; subtype?: number }): Promise<PublicationPrice[]> {
  const list = await rows<PriceRow>(
    db,
    sql`select p.id, p.dict_service_subtype_id, st.fdv as subtype_fdv, p.authors_num, p.price
        from publication_prices p left join dict_service_subtypes st on st.id = p.dict_service_subtype_id
        where true
          ${f.id !== undefined ? sql`and p.id = ${f.id}` : sql``}
          ${f.subtype !== undefined ? sql`and p.dict_service_subtype_id = ${f.subtype}` : sql``}
        order by p.dict_service_subtype_id, p.authors_num, p.id`,
  );
  return list.map((r) => ({
    id: r.id,
    dict_service_subtype_id: r.dict_service_subtype_id,
    subtype: r.subtype_fdv ? { id: r.dict_service_subtype_id, fdv: r.subtype_fdv } : null,
    authors_num: r.authors_num,
    price: Number(r.price),
  }));
}

export async function findPrice(db: Queryable, id: number): Promise<PublicationPrice | undefined> {
  const [price] = await listPrices(db, { id });
  return price;
}

/** Throws the unique violation (subtype, authors_num) of the database as it is. */
export async function insertPrice(db: Queryable, b: PriceBody): Promise<number> {
  const [row] = await rows<{ id: number }>(
    db,
    sql`insert into publication_prices (dict_service_subtype_id, authors_num, price) values (${b.dict_service_subtype_id}, ${b.authors_num}, ${rublesText(b.price)}) returning id`,
  );
  return row.id;
}

/** The id of the updated price, or undefined when there is none; throws the unique violation as it is. */
export async function updatePrice(db: Queryable, id: number, b: PriceBody): Promise<number | undefined> {
  const [row] = await rows<{ id: number }>(
    db,
    sql`update publication_prices set dict_service_subtype_id = ${b.dict_service_subtype_id}, authors_num = ${b.authors_num}, price = ${rublesText(b.price)}
        where id = ${id} returning id`,
  );
  return row?.id;
}

/** True when a price was deleted; a price named by publications throws the foreign key violation. */
export async function deletePrice(db: Queryable, id: number): Promise<boolean> {
  const [row] = await rows<{ id: number }>(db, sql`delete from publication_prices where id = ${id} returning id`);
  return Boolean(row);
}
