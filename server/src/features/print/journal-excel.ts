import { sql } from 'drizzle-orm';
import { entryStatusLabels, payTypeLabels, type EntryStatusCode, type PayTypeCode } from '@edu/domain/common/codes';
import { isGuestEmail } from '@edu/domain/users/manager-user';
import { fullName } from '@edu/domain/users/current-user';
import { rows, type Queryable } from '../../platform/db.ts';
import type { XlsxExport } from '../../platform/xlsx-export.ts';

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

/** Live entries of a live service; null when there is no such service. */
export async function journalService(db: Queryable, serviceId: number): Promise<{ id: number; title: string } | null> {
  const [row] = await rows<{ id: number; title: string }>(db, sql`select id, title from services where id = ${serviceId} and deleted_at is null`);
  return row ?? null;
}

/**
 * The journal of a service (spec 01 §6, 02 §6: operators print "the journal Excel"): every live entry
 * of the service with its client, in the order they came: GET /api/service/{id}/journal/excel.
 */
export function journalExport(db: Queryable, serviceId: number): XlsxExport<JournalRow> {
  return {
    sheet: 'Журнал',
    columns: {
      n: { header: '№', width: 6, type: 'number', value: (_, n) => n },
      number: { header: '№ заявки', width: 14, value: (r) => r.number },
      fio: { header: 'ФИО', width: 36, value: (r) => fullName(r) },
      organization: { header: 'Организация', width: 36, value: (r) => r.organization },
      job_title: { header: 'Должность', width: 28, value: (r) => r.job_title },
      region: { header: 'Регион', width: 24, value: (r) => r.region },
      email: { header: 'E-mail', width: 28, value: (r) => (isGuestEmail(r.email) ? null : r.email) },
      phone: { header: 'Телефон', width: 18, value: (r) => r.phone },
      section: { header: 'Секция', width: 28, value: (r) => r.section_title },
      participation: { header: 'Участие', width: 14, value: (r) => (Number(r.is_extramural) === 1 ? 'Дистанционно' : 'Очно') },
      status: { header: 'Статус', width: 14, value: (r) => entryStatusLabels[r.status as EntryStatusCode] ?? String(r.status) },
      price: { header: 'Цена, ₽', width: 12, type: 'money', value: (r) => Number(r.price) },
      pay_type: { header: 'Способ оплаты', width: 14, value: (r) => payTypeLabels[r.pay_type as PayTypeCode] ?? null },
      certificate_number: { header: '№ сертификата', width: 16, value: (r) => r.certificate_number },
      registration_number: { header: 'Рег. номер', width: 14, value: (r) => r.registration_number },
      created: { header: 'Дата заявки', width: 12, type: 'date', value: (r) => new Date(r.created_at) },
    },
    page: (after, limit) =>
      rows<JournalRow>(
        db,
        sql`select e.id, e.number, u.last_name, u.first_name, u.middle_name, u.organization, u.job_title,
              coalesce(r.fdv, u.region) as region, u.email, u.phone, sec.title as section_title,
              e.is_extramural, e.status, e.price, e.pay_type, e.certificate_number, e.registration_number, e.created_at
            from entries e
            join users u on u.id = e.created_by
            left join dict_regions r on r.id = u.dict_region_id
            left join service_sections sec on sec.id = e.section_id
            where e.service_id = ${serviceId} and e.deleted_at is null and e.id > ${after?.id ?? 0}
            order by e.id
            limit ${limit}`,
      ),
  };
}
