import { sql } from 'drizzle-orm';
import { formatDate } from '@edu/domain/common/format';
import { PrintMessages } from '@edu/domain/documents/print';
import { rows, type Queryable } from '../../platform/db.ts';
import { AppError } from '../../platform/errors.ts';
import { escapeHtml } from '../../platform/html.ts';
import { readRequisites, REQUISITE_FIELDS, type RequisiteKey, type Requisites } from '../macros/requisites.ts';
import { rublesInFigures, rublesInWords } from '../macros/russian-words.ts';
import type { EntryPrintRow } from './print-context.ts';
import { isOperator } from '../../platform/access.ts';

// The bank invoice (счёт на оплату) of an unpaid entry, or of its package while the package is whole
// and unpaid: the usual Russian form with the centre's bank requisites, one line, the sum in figures
// and in words and the payment purpose naming the entries, so the centre finds the money.

/** Requisites without which a bank cannot take the payment. */
const NEEDED: RequisiteKey[] = ['full_name', 'inn', 'bank', 'bik', 'account'];

export interface InvoiceData {
  number: string;
  date: string;
  requisites: Requisites;
  buyer: { fio: string; organization: string | null; email: string; phone: string | null };
  line: string;
  amount: number;
  /** The entries paid by it (a package's all). */
  entryNumbers: string[];
}

/** What the invoice says: the entry's service, or its whole package. Refuses when requisites are missing. */
export async function loadInvoice(db: Queryable, row: EntryPrintRow, role: number): Promise<InvoiceData> {
  const [requisites, [who], packageRows] = await Promise.all([
    readRequisites(db),
    rows<{ fio: string; organization: string | null; email: string; phone: string | null; created_at: Date | string }>(
      db,
      sql`select concat_ws(' ', u.last_name, u.first_name, u.middle_name) as fio, u.organization, u.email, u.phone, e.created_at
          from entries e join users u on u.id = e.created_by where e.id = ${row.id}`,
    ),
    row.package_enrollment_id === null
      ? Promise.resolve([])
      : rows<{ package_title: string; number: string; service_title: string }>(
          db,
          sql`select pk.title as package_title, e.number, s.title as service_title
              from package_enrollments pk join entries e on e.package_enrollment_id = pk.id join services s on s.id = e.service_id
              where pk.id = ${row.package_enrollment_id} and pk.broken_at is null and e.deleted_at is null order by e.id`,
        ),
  ]);
  const missing = NEEDED.filter((key) => !requisites[key]?.trim());
  if (missing.length > 0) {
    const labels = missing.map((key) => REQUISITE_FIELDS.find(([k]) => k === key)![1]);
    throw new AppError(422, isOperator({ role }) ? PrintMessages.invoiceRequisites(labels) : PrintMessages.invoiceLater);
  }
  const inPackage = packageRows.length > 0;
  return {
    number: row.number,
    date: formatDate(who.created_at),
    requisites,
    buyer: { fio: who.fio, organization: who.organization, email: who.email, phone: who.phone },
    line: inPackage ? `Пакет услуг: ${packageRows[0].package_title} (${packageRows.map((p) => p.service_title).join('; ')})` : row.service_title,
    amount: Number(row.amount),
    entryNumbers: inPackage ? packageRows.map((p) => p.number) : [row.number],
  };
}

const esc = (text: string | null | undefined) => escapeHtml(text ?? '');

/** The invoice page (the body of an HTML document, printed by Chromium). */
export function invoiceHtml(d: InvoiceData): string {
  const r = d.requisites;
  // Invoices show kopecks: 2 500,00.
  const money = Number.isInteger(d.amount) ? `${rublesInFigures(d.amount)},00` : rublesInFigures(d.amount);
  const entries = d.entryNumbers.length > 1 ? `заявки № ${d.entryNumbers.join(', ')}` : `заявка № ${d.entryNumbers[0]}`;
  const purpose = `Оплата по счёту № ${d.number} от ${d.date} (${entries}). НДС не облагается.`;
  const supplier = [r.full_name, r.inn && `ИНН ${r.inn}`, r.kpp && `КПП ${r.kpp}`, r.address, r.phone && `тел.: ${r.phone}`].filter(Boolean).join(', ');
  const buyer = [d.buyer.fio, d.buyer.organization, d.buyer.phone && `тел.: ${d.buyer.phone}`, d.buyer.email].filter(Boolean).join(', ');
  const td = (content: string, extra = '', attrs = '') => `<td style="border:1px solid #000; padding:3px 6px; ${extra}"${attrs}>${content}</td>`;
  const th = (content: string) => `<th style="border:1px solid #000; padding:3px 6px">${content}</th>`;
  const right = 'text-align:right; white-space:nowrap';
  const caption = (text: string) => `<br><span style="font-size:8pt">${text}</span>`;
  return `<div style="font-family:'Liberation Sans', Arial, sans-serif; font-size:10pt; padding:8px 16px">
<table style="width:100%; border-collapse:collapse; margin-bottom:14px">
  <tr>${td(esc(r.bank) + caption('Банк получателя'), 'width:58%', ' colspan="2" rowspan="2"')}${td('БИК', 'width:8%')}${td(esc(r.bik))}</tr>
  <tr>${td('Сч. №')}${td(esc(r.corr_account))}</tr>
  <tr>${td(`ИНН ${esc(r.inn)}`)}${td(`КПП ${esc(r.kpp)}`)}${td('Сч. №', '', ' rowspan="2"')}${td(esc(r.account), '', ' rowspan="2"')}</tr>
  <tr>${td(esc(r.full_name) + caption('Получатель'), '', ' colspan="2"')}</tr>
</table>
<h1 style="font-size:15pt; margin:10px 0; padding-bottom:6px; border-bottom:2px solid #000">Счёт на оплату № ${esc(d.number)} от ${esc(d.date)}</h1>
<table style="width:100%; border-collapse:collapse; margin-bottom:12px">
  <tr><td style="width:18%; padding:3px 0; vertical-align:top">Исполнитель:</td><td style="padding:3px 0"><b>${esc(supplier)}</b></td></tr>
  <tr><td style="padding:3px 0; vertical-align:top">Заказчик:</td><td style="padding:3px 0"><b>${esc(buyer)}</b></td></tr>
</table>
<table style="width:100%; border-collapse:collapse">
  <tr>${th('№')}${th('Наименование работ, услуг')}${th('Кол-во')}${th('Ед.')}${th('Цена')}${th('Сумма')}</tr>
  <tr>${td('1', 'text-align:center')}${td(`${esc(d.line)} (${esc(entries)})`)}${td('1', right)}${td('усл.')}${td(money, right)}${td(money, right)}</tr>
</table>
<table style="width:100%; margin-top:6px">
  <tr><td style="text-align:right"><b>Итого:</b></td><td style="width:18%; ${right}"><b>${money}</b></td></tr>
  <tr><td style="text-align:right"><b>Без налога (НДС)</b></td><td style="${right}"><b>—</b></td></tr>
  <tr><td style="text-align:right"><b>Всего к оплате:</b></td><td style="${right}"><b>${money}</b></td></tr>
</table>
<p style="margin:10px 0 2px">Всего наименований 1, на сумму ${money} руб.</p>
<p style="margin:0 0 10px"><b>${esc(rublesInWords(d.amount))}</b></p>
<p style="margin:0 0 14px; padding:6px 8px; border:1px solid #000">Назначение платежа: ${esc(purpose)}</p>
<p style="border-top:2px solid #000; padding-top:14px">${esc(r.director_position || 'Руководитель')} ____________________ ${esc(r.director)}</p>
</div>`;
}
