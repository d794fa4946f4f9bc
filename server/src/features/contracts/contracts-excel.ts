import { sql } from 'drizzle-orm';
import { ContractMessages, contractStatusLabels, type ContractStatusCode } from '@edu/domain/contracts/contract';
import { fullName } from '@edu/domain/users/current-user';
import { rows, type Queryable } from '../../platform/db.ts';
import type { XlsxExport } from '../../platform/xlsx-export.ts';
import { contractFrom, contractWhere, type ContractFilter, type ContractRow } from './contracts-repository.ts';

/** Only the columns the sheet shows (the board's list reads more): less for PostgreSQL to send and for pg to parse. */
const excelColumns = sql`
  en.id as entry_id, en.number as entry_number, en.registration_number, u.last_name, u.first_name, u.middle_name,
  s.title as service_title, coalesce(c.status, 1)::int as status, c.comment, c.updated_at, f.id as file_id`;
type ExcelRow = Pick<
  ContractRow,
  | 'entry_id'
  | 'entry_number'
  | 'registration_number'
  | 'last_name'
  | 'first_name'
  | 'middle_name'
  | 'service_title'
  | 'status'
  | 'comment'
  | 'updated_at'
  | 'file_id'
>;

/** The contract board with its filters, by entry: GET /api/contract/excel. */
export function contractsExport(db: Queryable, filter: ContractFilter): XlsxExport<ExcelRow> {
  const where = contractWhere(filter);
  return {
    sheet: 'Договоры',
    columns: {
      number: { header: '№ заявки', width: 14, value: (r) => r.entry_number },
      fio: { header: 'ФИО', width: 36, value: (r) => fullName(r) },
      service: { header: 'Услуга', width: 50, value: (r) => r.service_title },
      status: { header: 'Статус', width: 18, value: (r) => contractStatusLabels[(r.status || 1) as ContractStatusCode] },
      comment: { header: 'Комментарий', width: 40, value: (r) => r.comment },
      scan: { header: 'Скан', width: 18, value: (r) => (r.file_id ? 'Загружен' : ContractMessages.noScan) },
      registration_number: { header: 'Рег. номер', width: 14, value: (r) => r.registration_number },
      updated: { header: 'Изменён', width: 12, type: 'date', value: (r) => (r.updated_at ? new Date(r.updated_at) : null) },
    },
    page: (after, limit) =>
      rows<ExcelRow>(db, sql`select ${excelColumns} ${contractFrom} where ${where} and en.id > ${after?.entry_id ?? 0} order by en.id limit ${limit}`),
  };
}
