import ExcelJS from 'exceljs';
import yazl from 'yazl';
import { contractStatusLabels } from '@edu/domain/contracts/contract';
import { entryStatusLabels, extramuralLabel, payTypeLabels, publicationStatusLabels, roleLabels } from '@edu/domain/common/codes';
import { formatDate, formatDateTime, formatRub } from '@edu/domain/common/format';
import { documentKindLabels, type DocumentKind } from '@edu/domain/documents/documents';
import { maskNumber } from '../../platform/change-log.ts';
import { escapeHtml } from '../../platform/html.ts';
import type { PersonalData, StoredFileRef } from './personal-data-repository.ts';

// The archive of a person's data (issue 33): a readable HTML summary with Russian headings, the same
// sections as sheets of one .xlsx, and the original uploaded files in folders, in one zip. Each
// section is described once (its columns and rows) and written both ways. Passport and SNILS numbers
// are masked as the change log masks them (all but the last three digits): the archive may travel
// by e-mail or sit in a downloads folder, and the person has the original documents.

type Cell = string | number | null;
interface Column<R> {
  header: string;
  width: number;
  value: (row: R) => Cell;
}
interface Section<R = unknown> {
  title: string;
  /** A sheet name (at most 31 characters). */
  sheet: string;
  columns: Array<Column<R>>;
  rows: R[];
  empty: string;
}

const date = (v: Date | string | null | undefined): string => (v ? formatDate(v) : '');
const dateTime = (v: Date | string | null | undefined): string => (v ? formatDateTime(v) : '');
const rub = (v: number | string | null | undefined): string => (v === null || v === undefined ? '' : formatRub(Number(v)));
const yesNo = (v: boolean) => (v ? 'Да' : 'Нет');
const section = <R>(s: Section<R>): Section => s as unknown as Section;

/** The folder and name of each original file in the zip (unique, no path tricks). */
export interface ArchivedFile {
  file: StoredFileRef;
  path: string;
}

export function archivedFiles(data: PersonalData): ArchivedFile[] {
  const used = new Set<string>();
  const out: ArchivedFile[] = [];
  const add = (folder: string, file: StoredFileRef) => {
    if (file.purged_at) return;
    // eslint-disable-next-line no-control-regex -- control characters cannot be in a zip entry's name
    const clean = file.name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').slice(0, 120) || `file-${file.id}`;
    let path = `${folder}/${clean}`;
    if (used.has(path)) path = `${folder}/${file.id}-${clean}`;
    used.add(path);
    out.push({ file, path });
  };
  for (const d of data.documents) add(`Документы/${documentKindLabels[d.kind as DocumentKind] ?? d.kind}`, d.file);
  if (data.avatar) add('Аватар', data.avatar);
  for (const c of data.contracts) if (c.file) add(`Договоры/Заявка ${c.entry_number}`, c.file);
  for (const p of data.publications) for (const f of p.files) add(`Публикации/${p.id}`, f);
  return out;
}

export function sectionsOf(data: PersonalData, files: ArchivedFile[]): Section[] {
  const p = data.profile;
  const pathOf = new Map(files.map((f) => [f.file.id, f.path]));
  const fileCell = (f: StoredFileRef | null) => (f ? (pathOf.get(f.id) ?? `${f.name} (файл удалён)`) : '');
  const profileRows: Array<[string, Cell]> = [
    ['Номер аккаунта', p.id],
    ['Фамилия', p.last_name],
    ['Имя', p.first_name],
    ['Отчество', p.middle_name],
    ['ФИО в дательном падеже', p.fio_dative],
    ['E-mail', p.email],
    ['Телефон', p.phone],
    ['Организация', p.organization],
    ['Должность', p.job_title],
    ['Откуда узнали о нас', p.learned_from_us],
    ['Регион', p.dict_region ?? p.region],
    ['Страна', p.country],
    ['Индекс', p.postcode],
    ['Адрес', p.address],
    ['Дата рождения', p.birthday ? date(p.birthday) : ''],
    ['Профили работы', p.profiles.join(', ')],
    ['Санкт-Петербург', p.is_spb ? 'Да' : 'Нет'],
    ['Роль', roleLabels[p.role as 1 | 2 | 3] ?? String(p.role)],
    ['Дата регистрации', dateTime(p.created_at)],
    ['Последнее изменение', dateTime(p.updated_at)],
  ];
  const identityRows: Array<[string, Cell]> = [
    ['СНИЛС (скрыт, кроме трёх последних цифр)', (maskNumber(p.snils ?? '') as string) || ''],
    ['Документ, удостоверяющий личность', data.identity?.type ?? (data.identity ? 'Паспорт' : '')],
    ['Серия и номер (скрыты, кроме трёх последних цифр)', data.identity ? (maskNumber(data.identity.number) as string) : ''],
    ['Дата выдачи', data.identity ? date(data.identity.date) : ''],
    ['Кем выдан', data.identity?.issued_by ?? ''],
  ];
  const pair: Array<Column<[string, Cell]>> = [
    { header: 'Поле', width: 44, value: (r) => r[0] },
    { header: 'Значение', width: 60, value: (r) => r[1] },
  ];
  return [
    section({ title: 'Профиль', sheet: 'Профиль', columns: pair, rows: profileRows, empty: '' }),
    section({ title: 'Документ, удостоверяющий личность, и СНИЛС', sheet: 'Документы личности', columns: pair, rows: identityRows, empty: '' }),
    section({
      title: 'Загруженные документы',
      sheet: 'Загруженные документы',
      rows: data.documents,
      empty: 'Документов нет',
      columns: [
        { header: 'Вид', width: 36, value: (d) => documentKindLabels[d.kind as DocumentKind] ?? d.kind },
        { header: 'Файл в архиве', width: 60, value: (d) => fileCell(d.file) },
        { header: 'Загружен', width: 18, value: (d) => dateTime(d.created_at) },
      ],
    }),
    section({
      title: 'Заявки',
      sheet: 'Заявки',
      rows: data.entries,
      empty: 'Заявок нет',
      columns: [
        { header: 'Номер', width: 14, value: (e) => e.number },
        { header: 'Услуга', width: 50, value: (e) => e.service },
        { header: 'Статус', width: 14, value: (e) => (e.deleted_at ? 'Удалена' : (entryStatusLabels[e.status as 1 | 2 | 3 | 4] ?? String(e.status))) },
        { header: 'Цена', width: 14, value: (e) => rub(e.price) },
        { header: 'Возвращено', width: 14, value: (e) => (Number(e.refunded) ? rub(e.refunded) : '') },
        { header: 'Способ оплаты', width: 14, value: (e) => payTypeLabels[e.pay_type as 1 | 2 | 3 | 4] ?? '' },
        { header: 'Формат', width: 14, value: (e) => extramuralLabel(e.is_extramural) },
        { header: 'Сертификат №', width: 14, value: (e) => e.certificate_number },
        { header: 'Рег. номер', width: 16, value: (e) => e.registration_number },
        { header: 'Создана', width: 18, value: (e) => dateTime(e.created_at) },
        { header: 'Оплачена', width: 18, value: (e) => dateTime(e.paid_at) },
        { header: 'Завершена', width: 18, value: (e) => dateTime(e.done_at) },
      ],
    }),
    section({
      title: 'Оплаты',
      sheet: 'Оплаты',
      rows: data.payments,
      empty: 'Оплат нет',
      columns: [
        { header: '№', width: 8, value: (r) => r.id },
        { header: 'Сумма', width: 14, value: (r) => rub(r.sum) },
        { header: 'Способ', width: 12, value: (r) => payTypeLabels[r.pay_type as 1 | 2 | 3 | 4] ?? '' },
        { header: 'Заявки', width: 30, value: (r) => r.entries },
        { header: 'Описание', width: 40, value: (r) => r.description },
        { header: 'Двойная оплата', width: 10, value: (r) => yesNo(r.is_double) },
        { header: 'Дата', width: 18, value: (r) => dateTime(r.created_at) },
      ],
    }),
    section({
      title: 'Возвраты',
      sheet: 'Возвраты',
      rows: data.refunds,
      empty: 'Возвратов нет',
      columns: [
        { header: '№', width: 8, value: (r) => r.id },
        { header: 'Оплата №', width: 10, value: (r) => r.payment_id },
        { header: 'Сумма', width: 14, value: (r) => rub(r.sum) },
        { header: 'Состояние', width: 14, value: (r) => ({ pending: 'В обработке', succeeded: 'Выполнен', canceled: 'Отменён' })[r.status] ?? r.status },
        { header: 'Причина', width: 40, value: (r) => r.reason },
        { header: 'Создан', width: 18, value: (r) => dateTime(r.created_at) },
        { header: 'Выполнен', width: 18, value: (r) => dateTime(r.succeeded_at) },
      ],
    }),
    section({
      title: 'Договоры',
      sheet: 'Договоры',
      rows: data.contracts,
      empty: 'Договоров нет',
      columns: [
        { header: 'Заявка', width: 14, value: (c) => c.entry_number },
        { header: 'Услуга', width: 44, value: (c) => c.service },
        { header: 'Статус', width: 18, value: (c) => contractStatusLabels[c.status as 1 | 2 | 3] ?? '' },
        { header: 'Комментарий', width: 30, value: (c) => c.comment },
        { header: 'Скан в архиве', width: 50, value: (c) => fileCell(c.file) },
        { header: 'Создан', width: 18, value: (c) => dateTime(c.created_at) },
      ],
    }),
    section({
      title: 'Публикации',
      sheet: 'Публикации',
      rows: data.publications,
      empty: 'Публикаций нет',
      columns: [
        { header: '№', width: 8, value: (r) => r.id },
        { header: 'Название', width: 50, value: (r) => r.title },
        { header: 'Роль', width: 10, value: (r) => r.role },
        { header: 'Статус', width: 18, value: (r) => (r.deleted_at ? 'Удалена' : (publicationStatusLabels[r.status] ?? '')) },
        { header: 'Адрес на сайте', width: 30, value: (r) => r.url },
        { header: 'Файлы в архиве', width: 50, value: (r) => r.files.map(fileCell).join('; ') },
        { header: 'Создана', width: 18, value: (r) => dateTime(r.created_at) },
      ],
    }),
    section({
      title: 'Сертификаты и коды проверки',
      sheet: 'Сертификаты',
      rows: data.certificates,
      empty: 'Сертификатов нет',
      columns: [
        { header: 'Заявка', width: 14, value: (c) => c.entry_number },
        { header: 'Услуга', width: 44, value: (c) => c.service },
        { header: 'Код проверки', width: 16, value: (c) => c.code },
        { header: 'Выдан', width: 18, value: (c) => dateTime(c.issued_at) },
        { header: 'Отозван', width: 18, value: (c) => dateTime(c.revoked_at) },
        { header: 'Причина отзыва', width: 30, value: (c) => c.revoked_reason },
      ],
    }),
    section({
      title: 'Уведомления в кабинете',
      sheet: 'Уведомления',
      rows: data.notifications,
      empty: 'Уведомлений нет',
      columns: [
        { header: 'Дата', width: 18, value: (n) => dateTime(n.created_at) },
        { header: 'Текст', width: 80, value: (n) => n.text },
        { header: 'Прочитано', width: 10, value: (n) => yesNo(n.checked) },
      ],
    }),
    section({
      title: 'Отправленные письма',
      sheet: 'Письма',
      rows: data.letters,
      empty: 'Писем не отправлялось',
      columns: [
        { header: 'Вид', width: 24, value: (l) => l.kind },
        { header: 'Тема', width: 60, value: (l) => l.subject },
        { header: 'Отправлено', width: 18, value: (l) => dateTime(l.sent_at) },
        { header: 'Итог', width: 18, value: (l) => l.result },
      ],
    }),
    section({
      title: 'Согласия',
      sheet: 'Согласия',
      rows: data.consents,
      empty: '',
      columns: [
        { header: 'Согласие', width: 70, value: (c) => c.what },
        { header: 'Дано', width: 18, value: (c) => dateTime(c.given_at) },
        { header: 'Отозвано', width: 18, value: (c) => dateTime(c.withdrawn_at) },
        { header: 'Примечание', width: 40, value: (c) => c.note },
      ],
    }),
    section({
      title: 'Отзывы',
      sheet: 'Отзывы',
      rows: data.reviews,
      empty: 'Отзывов нет',
      columns: [
        { header: 'Дата', width: 18, value: (r) => dateTime(r.created_at) },
        { header: 'Текст', width: 80, value: (r) => r.text },
        { header: 'Опубликован', width: 12, value: (r) => yesNo(r.status === 1) },
      ],
    }),
    section({
      title: 'Входы в кабинет (последние 200)',
      sheet: 'Входы',
      rows: data.sessions,
      empty: 'Входов нет',
      columns: [
        { header: 'Начало', width: 18, value: (s) => dateTime(s.created_at) },
        { header: 'Последнее действие', width: 18, value: (s) => dateTime(s.last_used_at) },
        { header: 'IP-адрес', width: 18, value: (s) => s.ip },
        { header: 'Браузер', width: 60, value: (s) => s.user_agent },
        { header: 'Вход оператора от вашего имени', width: 14, value: (s) => yesNo(s.by_operator) },
      ],
    }),
  ];
}

/** The readable summary: one HTML page, no scripts, styles inline. */
export function summaryHtml(data: PersonalData, sections: Section[], madeAt: Date): string {
  const p = data.profile;
  const fio = [p.last_name, p.first_name, p.middle_name].filter(Boolean).join(' ');
  const body = sections
    .map((s) => {
      const table = s.rows.length
        ? `<table><thead><tr>${s.columns.map((c) => `<th>${escapeHtml(c.header)}</th>`).join('')}</tr></thead><tbody>${s.rows
            .map((r) => `<tr>${s.columns.map((c) => `<td>${escapeHtml(String(c.value(r) ?? ''))}</td>`).join('')}</tr>`)
            .join('')}</tbody></table>`
        : `<p class="empty">${escapeHtml(s.empty)}</p>`;
      return `<section><h2>${escapeHtml(s.title)}</h2>${table}</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>Мои данные — ${escapeHtml(fio)}</title>
<style>body{font-family:Arial,sans-serif;margin:24px;color:#1a1b1e}h1{font-size:22px}h2{font-size:17px;margin-top:28px}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border:1px solid #ccc;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f1f3f5}.empty{color:#555}.note{color:#444;font-size:13px}</style></head>
<body><h1>Персональные данные: ${escapeHtml(fio)}</h1>
<p class="note">Всё, что учебный центр хранит о вас, на ${escapeHtml(formatDateTime(madeAt))} (МСК). Те же сведения — в файле «Мои данные.xlsx», загруженные вами файлы — в папках архива.
Номера паспорта и СНИЛС показаны частично (152-ФЗ): полные номера есть в ваших документах.</p>
${body}
</body></html>`;
}

/** The same sections as sheets of one workbook. */
export async function summaryXlsx(sections: Section[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.creator = 'Личный кабинет учебного центра';
  for (const s of sections) {
    const sheet = book.addWorksheet(s.sheet.slice(0, 31));
    sheet.columns = s.columns.map((c) => ({ header: c.header, width: c.width }));
    sheet.getRow(1).font = { bold: true };
    for (const r of s.rows) sheet.addRow(s.columns.map((c) => c.value(r) ?? ''));
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The zip: summary, workbook, then each original file (read one at a time; a missing one is listed in «Не найдено.txt»). */
export async function buildArchive(
  data: PersonalData,
  read: (key: string) => Promise<Buffer | null>,
  onProgress: (share: number) => Promise<void>,
  madeAt = new Date(),
): Promise<Buffer> {
  const files = archivedFiles(data);
  const sections = sectionsOf(data, files);
  const zip = new yazl.ZipFile();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  })();
  zip.addBuffer(Buffer.from(summaryHtml(data, sections, madeAt), 'utf8'), 'Мои данные.html');
  zip.addBuffer(await summaryXlsx(sections), 'Мои данные.xlsx');
  await onProgress(20);
  const missing: string[] = [];
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    const bytes = await read(f.file.storage_key).catch(() => null);
    if (bytes) zip.addBuffer(bytes, f.path, { compress: !/^(image\/|application\/pdf)/.test(f.file.mime) });
    else missing.push(f.path);
    await onProgress(20 + (75 * (i + 1)) / files.length);
  }
  if (missing.length) zip.addBuffer(Buffer.from(`Эти файлы не найдены в хранилище:\r\n${missing.join('\r\n')}\r\n`, 'utf8'), 'Не найдено.txt');
  zip.end();
  await collected;
  return Buffer.concat(chunks);
}
