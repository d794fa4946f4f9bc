import { sql } from 'drizzle-orm';
import { rows, type Queryable } from '../../platform/db.ts';

/** The centre's requisites used by `${org.*}` macros, with their labels for the settings form. */
export const REQUISITE_FIELDS = [
  ['name', 'Краткое наименование'],
  ['full_name', 'Полное наименование'],
  ['inn', 'ИНН'],
  ['kpp', 'КПП'],
  ['ogrn', 'ОГРН'],
  ['address', 'Юридический адрес'],
  ['city', 'Город'],
  ['phone', 'Телефон'],
  ['email', 'Электронная почта'],
  ['bank', 'Банк'],
  ['bik', 'БИК'],
  ['account', 'Расчётный счёт'],
  ['corr_account', 'Корреспондентский счёт'],
  ['director', 'Руководитель (ФИО)'],
  ['director_position', 'Должность руководителя'],
  ['license', 'Лицензия на образовательную деятельность'],
] as const;

export type RequisiteKey = (typeof REQUISITE_FIELDS)[number][0];
export type Requisites = Partial<Record<RequisiteKey, string>>;

const SETTINGS_KEY = 'requisites';

export async function readRequisites(db: Queryable): Promise<Requisites> {
  const [row] = await rows<{ value: string }>(db, sql`select value from app_settings where key = ${SETTINGS_KEY}`);
  if (!row) return {};
  try {
    const parsed = JSON.parse(row.value) as Record<string, unknown>;
    const out: Requisites = {};
    for (const [key] of REQUISITE_FIELDS) if (typeof parsed[key] === 'string') out[key] = parsed[key] as string;
    return out;
  } catch {
    return {};
  }
}

export async function saveRequisites(db: Queryable, values: Requisites): Promise<void> {
  const clean: Requisites = {};
  for (const [key] of REQUISITE_FIELDS) {
    const v = values[key]?.trim();
    if (v) clean[key] = v;
  }
  const json = JSON.stringify(clean);
  await db.execute(
    sql`insert into app_settings (key, value, updated_at) values (${SETTINGS_KEY}, ${json}, now())
        on conflict (key) do update set value = excluded.value, updated_at = now()`,
  );
}
