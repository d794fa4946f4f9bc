import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { entryStatusLabels, payTypeLabels, type EntryStatusCode, type PayTypeCode } from '@edu/domain/common/codes';
import { formatDate } from '@edu/domain/common/format';
import { isGuestEmail } from '@edu/domain/users/manager-user';
import { fullName } from '@edu/domain/users/current-user';
import { rows, type Queryable } from '../../platform/db.ts';

const BATCH = 2000;

interface JournalRow {
  id: number;
  number: string;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  organization: string | null;
  job_title: string | null;
  region: string | null;
  email: string;
  phone: string | null;
  section_title: string | null;
  is_extramural: number;
  status: number;
  price: string | number;
  pay_type: number;
  certificate_number: string | null;
  registration_number: string | null;
  created_at: Date | string;
}

/** The journal's columns, in order (Russian headers for the centre's operators). */
export const JOURNAL_COLUMNS = [
  { header: '№', key: 'n', width: 6 },
  { header: '№ заявки', key: 'number', width: 14 },
  { header: 'ФИО', key: 'fio', width: 36 },
  { header: 'Организация', key: 'organization', width: 36 },
  { header: 'Должность', key: 'job_title', width: 28 },
  { header: 'Регион', key: 'region', width: 24 },
  { header: 'E-mail', key: 'email', width: 28 },
  { header: 'Телефон', key: 'phone', width: 18 },
  { header: 'Секция', key: 'section', width: 28 },
  { header: 'Участие', key: 'participation', width: 14 },
  { header: 'Статус', key: 'status', width: 14 },
  { header: 'Цена, ₽', key: 'price', width: 12 },
  { header: 'Способ оплаты', key: 'pay_type', width: 14 },
  { header: '№ сертификата', key: 'certificate_number', width: 16 },
  { header: 'Рег. номер', key: 'registration_number', width: 14 },
  { header: 'Дата заявки', key: 'created', width: 12 },
] as const;

/** Live entries of a live service; null when there is no such service. */
export async function journalService(db: Queryable, serviceId: number): Promise<{ id: number; title: string } | null> {
  const [row] = await rows<{ id: number; title: string }>(db, sql`select id, title from services where id = ${serviceId} and deleted_at is null`);
  return row ?? null;
}

/**
 * The journal of a service (spec 01 §6, 02 §6: operators print "the journal Excel"): every live entry
 * of the service with its client, as an .xlsx written with exceljs's streaming writer. Rows are read
 * in batches by entry id (keyset) and committed as soon as they are written, so memory stays flat.
 */
export async function writeJournalXlsx(db: Queryable, serviceId: number, out: Writable): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false, zip: { zlib: { level: 1 } } });
  const sheet = workbook.addWorksheet('Журнал', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = JOURNAL_COLUMNS.map((c) => ({ ...c }));
  sheet.getColumn('price').numFmt = '#,##0.00';
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const read = (after: number) =>
    rows<JournalRow>(
      db,
      sql`select e.id, e.number, u.last_name, u.first_name, u.middle_name, u.organization, u.job_title,
            coalesce(r.fdv, u.region) as region, u.email, u.phone, sec.title as section_title,
            e.is_extramural, e.status, e.price, e.pay_type, e.certificate_number, e.registration_number, e.created_at
          from entries e
          join users u on u.id = e.created_by
          left join dict_regions r on r.id = u.dict_region_id
          left join service_sections sec on sec.id = e.section_id
          where e.service_id = ${serviceId} and e.deleted_at is null and e.id > ${after}
          order by e.id
          limit ${BATCH}`,
    );
  let count = 0;
  let after = 0;
  for (;;) {
    const batch = await read(after);
    for (const r of batch) {
      count++;
      sheet
        .addRow({
          n: count,
          number: r.number,
          fio: fullName(r),
          organization: r.organization ?? null,
          job_title: r.job_title ?? null,
          region: r.region ?? null,
          email: isGuestEmail(r.email) ? null : r.email,
          phone: r.phone ?? null,
          section: r.section_title ?? null,
          participation: Number(r.is_extramural) === 1 ? 'Дистанционно' : 'Очно',
          status: entryStatusLabels[r.status as EntryStatusCode] ?? String(r.status),
          price: Number(r.price),
          pay_type: payTypeLabels[r.pay_type as PayTypeCode] ?? null,
          certificate_number: r.certificate_number ?? null,
          registration_number: r.registration_number ?? null,
          created: formatDate(r.created_at),
        })
        .commit();
    }
    if (batch.length < BATCH) break;
    after = batch[batch.length - 1].id;
  }
  sheet.commit();
  await workbook.commit();
  return count;
}
