import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { entryStatusLabels, payTypeLabels, type EntryStatusCode, type PayTypeCode } from '@edu/domain/common/codes';
import { formatDateTime } from '@edu/domain/common/format';
import { isGuestEmail } from '@edu/domain/users/manager-user';
import { rows, type Queryable } from '../../platform/db.ts';
import { sortSql } from '../../platform/list-query.ts';
import { entryBatchSql, entrySort, type EntryFilters } from './entries-repository.ts';

const BATCH = 2000;

interface ExportRow {
  id: number;
  /** The sort column's value as text: where the next batch starts. */
  sort_key: string;
  number: string;
  created_at: Date | string;
  fio: string;
  email: string;
  type: string | null;
  title: string;
  section: string | null;
  status: number;
  pay_type: number;
  price: string | number;
  registration_number: string | null;
  certificate_number: string | null;
}

const COLUMNS = [
  { header: '№', key: 'n', width: 7 },
  { header: '№ заявки', key: 'number', width: 14 },
  { header: 'Дата', key: 'date', width: 17 },
  { header: 'Клиент', key: 'fio', width: 34 },
  { header: 'E-mail', key: 'email', width: 28 },
  { header: 'Тип услуги', key: 'type', width: 22 },
  { header: 'Услуга', key: 'title', width: 48 },
  { header: 'Секция', key: 'section', width: 26 },
  { header: 'Статус', key: 'status', width: 14 },
  { header: 'Способ оплаты', key: 'pay_type', width: 14 },
  { header: 'Цена, ₽', key: 'price', width: 12 },
  { header: 'Рег. номер', key: 'registration_number', width: 14 },
  { header: '№ сертификата', key: 'certificate_number', width: 16 },
] as const;

/**
 * The entries the operators' list filters choose, in the list's order (`f.sort`, newest first by
 * default), as .xlsx with a totals row (count, the sum of prices, of which paid), written with
 * exceljs's streaming writer: rows are read in batches by keyset on (sort column, id) and committed
 * as they are written, so memory stays flat whatever the count.
 */
export async function writeEntriesXlsx(db: Queryable, f: EntryFilters, out: Writable, batchSize = BATCH): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false, zip: { zlib: { level: 1 } } });
  const sheet = workbook.addWorksheet('Заявки', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = COLUMNS.map((c) => ({ ...c }));
  sheet.getColumn('price').numFmt = '#,##0.00';
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const sort = entrySort(f.sort);
  const read = (after: { key: string; id: number } | null) =>
    rows<ExportRow>(
      db,
      sql`select e.id, e.number, e.created_at, concat_ws(' ', u.last_name, u.first_name, u.middle_name) as fio, u.email,
            t.fdv as type, s.title, sec.title as section, e.status, e.pay_type, e.price, e.registration_number, e.certificate_number, k.sort_key
          from (${entryBatchSql(f, sort, after, batchSize)}) k
          join entries e on e.id = k.id
          join users u on u.id = e.created_by
          join services s on s.id = e.service_id
          left join dict_service_types t on t.id = s.dict_type_id
          left join service_sections sec on sec.id = e.section_id
          order by ${sortSql(sort)}`,
    );
  let count = 0;
  let total = 0;
  let paid = 0;
  let after: { key: string; id: number } | null = null;
  for (;;) {
    const batch = await read(after);
    for (const r of batch) {
      count++;
      const price = Number(r.price);
      total += Math.round(price * 100);
      if (r.status !== 1) paid += Math.round(price * 100);
      sheet
        .addRow({
          n: count,
          number: r.number,
          date: formatDateTime(r.created_at),
          fio: r.fio,
          email: isGuestEmail(r.email) ? null : r.email,
          type: r.type,
          title: r.title,
          section: r.section,
          status: entryStatusLabels[r.status as EntryStatusCode] ?? String(r.status),
          pay_type: payTypeLabels[r.pay_type as PayTypeCode] ?? null,
          price,
          registration_number: r.registration_number,
          certificate_number: r.certificate_number,
        })
        .commit();
    }
    if (batch.length < batchSize) break;
    const last = batch[batch.length - 1];
    after = { key: last.sort_key, id: last.id };
  }
  const totals = sheet.addRow({ number: 'Итого', date: `Заявок: ${count}`, status: `Оплачено: ${(paid / 100).toLocaleString('ru-RU')} ₽`, price: total / 100 });
  totals.font = { bold: true };
  totals.commit();
  sheet.commit();
  await workbook.commit();
  return count;
}
