import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { payTypeLabels, type PayTypeCode } from '@edu/domain/common/codes';
import { formatDateTime, formatRub } from '@edu/domain/common/format';
import { PaymentMessages } from '@edu/domain/payments/payment';
import { rows, type Queryable } from '../../platform/db.ts';
import { afterKey, sortSql } from '../../platform/list-query.ts';
import { paymentSort, paymentsWhere, type PaymentFilters } from './payments-repository.ts';

const BATCH = 2000;

interface ExportRow {
  id: number;
  /** The sort column's value as text: where the next batch starts. */
  sort_key: string;
  uuid: string | null;
  sum: string | number;
  pay_type: number;
  is_double: boolean;
  created_at: Date | string;
  numbers: string | null;
  fio: string | null;
  titles: string | null;
  package_title: string | null;
  refunded: string | number;
}

const COLUMNS = [
  { header: '№', key: 'n', width: 7 },
  { header: 'Дата', key: 'date', width: 17 },
  { header: '№ заявки', key: 'numbers', width: 16 },
  { header: 'ФИО', key: 'fio', width: 34 },
  { header: 'Услуга', key: 'title', width: 48 },
  { header: 'Способ оплаты', key: 'pay_type', width: 14 },
  { header: 'Сумма, ₽', key: 'sum', width: 13 },
  { header: 'Возвращено, ₽', key: 'refunded', width: 14 },
  { header: 'Статус', key: 'status', width: 16 },
  { header: 'Номер платежа', key: 'uuid', width: 38 },
] as const;

/**
 * The payments the list's filters choose, in the list's order (`f.sort`, newest first by default),
 * as .xlsx with a totals row (count, sum, refunded), written with exceljs's streaming writer: rows
 * are read in batches by keyset on (sort column, id) and committed as they are written, so memory
 * stays flat whatever the count.
 */
export async function writePaymentsXlsx(db: Queryable, f: PaymentFilters, out: Writable, batchSize = BATCH): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false, zip: { zlib: { level: 1 } } });
  const sheet = workbook.addWorksheet('Платежи', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = COLUMNS.map((c) => ({ ...c }));
  sheet.getColumn('sum').numFmt = '#,##0.00';
  sheet.getColumn('refunded').numFmt = '#,##0.00';
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const where = paymentsWhere(f);
  const sort = paymentSort(f.sort);
  const read = (after: { key: string; id: number } | null) =>
    rows<ExportRow>(
      db,
      sql`select p.id, p.uuid, p.sum, p.pay_type, p.is_double, p.created_at, ${sort.column.sql}::text as sort_key,
            (select string_agg(e.number, ', ' order by e.id) from payment_entries pe join entries e on e.id = pe.entry_id where pe.payment_id = p.id) as numbers,
            (select concat_ws(' ', u.last_name, u.first_name, u.middle_name) from payment_entries pe join entries e on e.id = pe.entry_id
               join users u on u.id = e.created_by where pe.payment_id = p.id order by e.id limit 1) as fio,
            (select string_agg(s.title, '; ' order by e.id) from payment_entries pe join entries e on e.id = pe.entry_id
               join services s on s.id = e.service_id where pe.payment_id = p.id) as titles,
            (select en.title from payment_entries pe join entries e on e.id = pe.entry_id join package_enrollments en on en.id = e.package_enrollment_id
               where pe.payment_id = p.id limit 1) as package_title,
            (select coalesce(sum(r.sum), 0) from payment_refunds r where r.payment_id = p.id and r.status = 'succeeded') as refunded
          from payments p
          where ${where}${after ? sql` and ${afterKey(sort, after)}` : sql``}
          order by ${sortSql(sort)}
          limit ${batchSize}`,
    );
  let count = 0;
  let sum = 0;
  let refunded = 0;
  let after: { key: string; id: number } | null = null;
  for (;;) {
    const batch = await read(after);
    for (const r of batch) {
      count++;
      const paid = Number(r.sum);
      const back = Number(r.refunded);
      sum += Math.round(paid * 100);
      refunded += Math.round(back * 100);
      sheet
        .addRow({
          n: count,
          date: formatDateTime(r.created_at),
          numbers: r.numbers,
          fio: r.fio,
          title: r.package_title ? `${r.package_title} (${r.titles ?? ''})` : r.titles,
          pay_type: payTypeLabels[r.pay_type as PayTypeCode] ?? null,
          sum: paid,
          refunded: back || null,
          status: r.is_double ? PaymentMessages.doublePayment : back > 0 ? PaymentMessages.refundLabel(formatRub(back)) : PaymentMessages.paid,
          uuid: r.uuid,
        })
        .commit();
    }
    if (batch.length < batchSize) break;
    const last = batch[batch.length - 1];
    after = { key: last.sort_key, id: last.id };
  }
  const totals = sheet.addRow({ n: null, date: 'Итого', numbers: `Платежей: ${count}`, sum: sum / 100, refunded: refunded / 100 });
  totals.font = { bold: true };
  totals.commit();
  sheet.commit();
  await workbook.commit();
  return count;
}
