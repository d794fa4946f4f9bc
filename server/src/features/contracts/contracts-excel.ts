import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { ContractMessages, contractStatusLabels, type ContractStatusCode } from '@edu/domain/contracts/contract';
import { formatDate } from '@edu/domain/common/format';
import { fullName } from '@edu/domain/users/current-user';
import { rows, type Queryable } from '../../platform/db.ts';
import { recordStage, timed } from '../../platform/stage-timing.ts';
import { contractFrom, contractWhere, type ContractFilter, type ContractRow } from './contracts-repository.ts';

const BATCH = 2000;

/** Only the columns the sheet shows (the board's list reads more): less for PostgreSQL to send and for pg to parse. */
const excelColumns = sql`
  en.id as entry_id, en.number as entry_number, en.registration_number, u.last_name, u.first_name, u.middle_name,
  s.title as service_title, coalesce(c.status, 1)::int as status, c.comment, c.updated_at, f.id as file_id`;
type ExcelRow = Pick<ContractRow, 'entry_id' | 'entry_number' | 'registration_number' | 'last_name' | 'first_name' | 'middle_name' | 'service_title' | 'status' | 'comment' | 'updated_at' | 'file_id'>;

/**
 * The board as an .xlsx, written with exceljs's streaming writer: rows are read in batches by entry
 * id (keyset, no offset) and each row is committed to the output as soon as it is written, so
 * memory stays flat however many contracts there are.
 */
export async function writeContractsXlsx(db: Queryable, filter: ContractFilter, out: Writable): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false, zip: { zlib: { level: 1 } } });
  const sheet = workbook.addWorksheet('Договоры');
  sheet.columns = [
    { header: '№ заявки', key: 'number', width: 14 },
    { header: 'ФИО', key: 'fio', width: 36 },
    { header: 'Услуга', key: 'service', width: 50 },
    { header: 'Статус', key: 'status', width: 18 },
    { header: 'Комментарий', key: 'comment', width: 40 },
    { header: 'Скан', key: 'scan', width: 18 },
    { header: 'Рег. номер', key: 'registration_number', width: 14 },
    { header: 'Изменён', key: 'updated', width: 12 },
  ];
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const where = contractWhere(filter);
  const read = (after: number) => {
    const batch = timed('excel-query', () => rows<ExcelRow>(db, sql`select ${excelColumns} ${contractFrom} where ${where} and en.id > ${after} order by en.id limit ${BATCH}`));
    batch.catch(() => undefined); // awaited below; a failure is thrown there
    return batch;
  };
  let count = 0;
  let next = read(0);
  for (;;) {
    const batch = await next;
    // The next batch is read while this one is written.
    if (batch.length === BATCH) next = read(batch[batch.length - 1].entry_id);
    const t0 = performance.now();
    for (const r of batch) {
      sheet
        .addRow({
          number: r.entry_number,
          fio: fullName(r),
          service: r.service_title,
          status: contractStatusLabels[(r.status || 1) as ContractStatusCode],
          comment: r.comment ?? '',
          scan: r.file_id ? 'Загружен' : ContractMessages.noScan,
          registration_number: r.registration_number ?? '',
          updated: r.updated_at ? formatDate(r.updated_at) : '',
        })
        .commit();
    }
    recordStage('excel-rows', performance.now() - t0);
    count += batch.length;
    if (batch.length < BATCH) break;
  }
  sheet.commit();
  await timed('excel-finish', () => workbook.commit());
  return count;
}
