import { sql } from 'drizzle-orm';
import { kopecksOf, rublesOf } from '@edu/domain/common/money';
import { formatRub } from '@edu/domain/common/format';
import { EntryStatus, entryStatusLabels, payTypeLabels, type EntryStatusCode, type PayTypeCode } from '@edu/domain/common/codes';
import { isGuestEmail } from '@edu/domain/users/manager-user';
import { rows, type Queryable } from '../../platform/db.ts';
import { sortSql } from '../../platform/list-query.ts';
import type { XlsxExport } from '../../platform/xlsx-export.ts';
import { entryBatchSql, entrySort, type EntryFilters } from './entries-repository.ts';

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
  refunded: string | number;
  registration_number: string | null;
  certificate_number: string | null;
}

/**
 * The entries the operators' list filters choose, in the list's order (`f.sort`, newest first by
 * default), with a totals row (count, the sum of prices, of which paid): GET /api/entry/excel. Each
 * batch's ids come from their own ordered, limited select on (sort column, id) after the last row;
 * the wide columns are read for those ids only.
 */
export function entriesExport(db: Queryable, f: EntryFilters): XlsxExport<ExportRow> {
  const sort = entrySort(f.sort);
  return {
    sheet: 'Заявки',
    columns: {
      n: { header: '№', width: 7, type: 'number', value: (_, n) => n },
      number: { header: '№ заявки', width: 14, value: (r) => r.number },
      date: { header: 'Дата', width: 17, type: 'datetime', value: (r) => new Date(r.created_at) },
      fio: { header: 'Клиент', width: 34, value: (r) => r.fio },
      email: { header: 'E-mail', width: 28, value: (r) => (isGuestEmail(r.email) ? null : r.email) },
      type: { header: 'Тип услуги', width: 22, value: (r) => r.type },
      title: { header: 'Услуга', width: 48, value: (r) => r.title },
      section: { header: 'Секция', width: 26, value: (r) => r.section },
      status: { header: 'Статус', width: 14, value: (r) => entryStatusLabels[r.status as EntryStatusCode] ?? String(r.status) },
      pay_type: { header: 'Способ оплаты', width: 14, value: (r) => payTypeLabels[r.pay_type as PayTypeCode] ?? null },
      price: { header: 'Цена, ₽', width: 12, type: 'money', value: (r) => Number(r.price) },
      refunded: { header: 'Возвращено, ₽', width: 14, type: 'money', value: (r) => (Number(r.refunded) > 0 ? Number(r.refunded) : null) },
      registration_number: { header: 'Рег. номер', width: 14, value: (r) => r.registration_number },
      certificate_number: { header: '№ сертификата', width: 16, value: (r) => r.certificate_number },
    },
    page: (after, limit) =>
      rows<ExportRow>(
        db,
        sql`select e.id, e.number, e.created_at, concat_ws(' ', u.last_name, u.first_name, u.middle_name) as fio, u.email,
              t.fdv as type, s.title, sec.title as section, e.status, e.pay_type, e.price, e.refunded, e.registration_number, e.certificate_number, k.sort_key
            from (${entryBatchSql(f, sort, after ? { key: after.sort_key, id: after.id } : null, limit)}) k
            join entries e on e.id = k.id
            join users u on u.id = e.created_by
            join services s on s.id = e.service_id
            left join dict_service_types t on t.id = s.dict_type_id
            left join service_sections sec on sec.id = e.section_id
            order by ${sortSql(sort)}`,
      ),
    totals: () => {
      // Kopecks. Received: the prices of entries paid, done or refunded; income is that less what went back.
      let total = 0;
      let received = 0;
      let refunded = 0;
      return {
        add: (r) => {
          total += kopecksOf(r.price);
          if (r.status !== EntryStatus.notPaid) {
            received += kopecksOf(r.price);
            refunded += kopecksOf(r.refunded);
          }
        },
        cells: (count) => ({
          number: 'Итого',
          date: `Заявок: ${count}`,
          status: `Оплачено: ${formatRub(rublesOf(received - refunded))}${refunded > 0 ? ` (получено ${formatRub(rublesOf(received))}, возвращено ${formatRub(rublesOf(refunded))})` : ''}`,
          price: rublesOf(total),
          refunded: rublesOf(refunded),
        }),
      };
    },
  };
}
