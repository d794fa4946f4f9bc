// How a change-log diff reads for an operator: every field has a Russian label, codes show their
// names, ids show the person or record, times are Moscow time, money is rubles. The server looks up
// the names of referenced records (RefKind) and calls presentChange; the screen only shows the text.
import { contractStatusLabels } from '../contracts/contract.ts';
import { entryStatusLabels, extramuralLabels, participationTypeLabels, payTypeLabels, publicationStatusLabels, roleLabels } from '../common/codes.ts';
import { formatDateTime, formatRub } from '../common/format.ts';
import { publicationTypeLabels } from '../publications/publication.ts';
import { DOCUMENT_KINDS, documentKindLabels } from '../documents/documents.ts';
import type { ChangeDiff, ChangeLogType } from './log.ts';
import { bankLineProblemLabels, bankLineStatusLabels } from '../bank-statements/bank-statement.ts';

/** Records a diff may point at by id; the server resolves each to a name. */
export const REF_KINDS = [
  'user',
  'service',
  'section',
  'template',
  'package',
  'enrollment',
  'release',
  'category',
  'serviceType',
  'subtype',
  'profile',
  'leading',
  'region',
  'price',
  'file',
  'entry',
] as const;
export type RefKind = (typeof REF_KINDS)[number];

type Codes = Record<number | string, string>;
type Kind =
  | { kind: 'text' }
  | { kind: 'money' }
  | { kind: 'time' }
  | { kind: 'date' }
  | { kind: 'bool' }
  | { kind: 'number' }
  | { kind: 'codes'; codes: Codes }
  | { kind: 'ref'; ref: RefKind }
  | { kind: 'refs'; ref: RefKind }
  | { kind: 'list' }
  | { kind: 'refund' }
  | { kind: 'secret' };

const text: Kind = { kind: 'text' };
const money: Kind = { kind: 'money' };
const time: Kind = { kind: 'time' };
const bool: Kind = { kind: 'bool' };
const num: Kind = { kind: 'number' };
const ref = (r: RefKind): Kind => ({ kind: 'ref', ref: r });
const refs = (r: RefKind): Kind => ({ kind: 'refs', ref: r });
const codes = (c: Codes): Kind => ({ kind: 'codes', codes: c });

const participationLabels: Codes = participationTypeLabels;
const dateTypeLabels: Codes = { 1: 'Конкретные даты', 2: 'Постоянная', 3: 'Открытые даты' };

interface Field {
  label: string;
  type: Kind;
}

const f = (label: string, type: Kind = text): Field => ({ label, type });

/** Fields whose meaning is the same in every kind of record. */
const COMMON: Record<string, Field> = {
  title: f('Название'),
  description: f('Описание'),
  price: f('Цена', money),
  old_price: f('Старая цена', money),
  points: f('Баллы', num),
  deleted_at: f('Дата удаления', time),
  paid_at: f('Дата оплаты', time),
  done_at: f('Дата завершения', time),
  reason: f('Причина'),
  number: f('Номер'),
  created_by: f('Клиент', ref('user')),
  author_id: f('Создал оператор', ref('user')),
  client_id: f('Клиент', ref('user')),
  service_id: f('Услуга', ref('service')),
  services: f('Услуги', refs('service')),
  section_id: f('Секция', ref('section')),
  sections: f('Секции', { kind: 'list' }),
  service_type_id: f('Тип услуги', ref('serviceType')),
  dict_type_id: f('Тип услуги', ref('serviceType')),
  dict_subtype_id: f('Подтип услуги', ref('subtype')),
  dict_service_subtype_id: f('Подтип услуги', ref('subtype')),
  service_package_id: f('Пакет услуг', ref('package')),
  package_enrollment_id: f('Покупка пакета', ref('enrollment')),
  is_service_package: f('Из пакета услуг', bool),
  pay_type: f('Тип оплаты', codes(payTypeLabels)),
  payment_uuid: f('Платёж ЮKassa'),
  is_extramural: f('Участие', codes(extramuralLabels)),
  certificate_number: f('Номер сертификата'),
  registration_number: f('Регистрационный номер'),
  thesis_length: f('Тезисы (символов)', num),
  email: f('Email'),
  phone: f('Телефон'),
  last_name: f('Фамилия'),
  first_name: f('Имя'),
  middle_name: f('Отчество'),
  organization: f('Организация'),
  job_title: f('Должность'),
  learned_from_us: f('Узнали о нас'),
  address: f('Адрес'),
  region: f('Регион'),
  dict_region_id: f('Регион', ref('region')),
  country: f('Страна'),
  postcode: f('Индекс'),
  note: f('Заметка менеджера'),
  role: f('Роль', codes(roleLabels)),
  is_spb: f('Санкт-Петербург', bool),
  password: f('Пароль', { kind: 'secret' }),
  profiles: f('Профили', refs('profile')),
  dict_profile_id: f('Профиль', ref('profile')),
  leadings: f('Ведущие', refs('leading')),
  avatar_id: f('Аватар', ref('file')),
  image_id: f('Изображение', ref('file')),
  file_id: f('Файл', ref('file')),
  contract_step: f('Шаг договора', num),
  birthday: f('Дата рождения', { kind: 'date' }),
  snils: f('СНИЛС'),
  fio_dative: f('ФИО в дательном падеже'),
  login_as: f('Вход от имени пользователя'),
  telegram: f('Telegram'),
  sum: f('Сумма', money),
  entries: f('Заявки', { kind: 'list' }),
  uuid: f('Платёж ЮKassa'),
  is_double: f('Двойная оплата', bool),
  is_visible: f('Видна на сайте', bool),
  is_done: f('Завершена', bool),
  is_publication: f('Публикация', bool),
  is_thesis_needed: f('Нужны тезисы', bool),
  participation_type: f('Формат участия', codes(participationLabels)),
  date_type: f('Даты', codes(dateTypeLabels)),
  begda: f('Начало', time),
  endda: f('Окончание', time),
  max_participants: f('Мест', num),
  moodle_id: f('Курс Moodle'),
  hours: f('Часов', num),
  days: f('Дней', num),
  template_certificate_id: f('Шаблон сертификата', ref('template')),
  template_program_id: f('Шаблон программы', ref('template')),
  template_participation_id: f('Шаблон регистрационного листа', ref('template')),
  joomla_article_template_id: f('Шаблон статьи на сайте', ref('template')),
  joomla_intro_html: f('Вступление статьи на сайте'),
  joomla_additional_html: f('Дополнительный текст статьи'),
  joomla_video_iframe: f('Видео на сайте'),
  color: f('Цвет'),
  is_pinned: f('Закреплён', bool),
  text: f('Текст'),
  url: f('Адрес на сайте'),
  url_contents: f('Адрес оглавления'),
  release_id: f('Выпуск журнала', ref('release')),
  is_journal: f('В журнал', bool),
  manager_comment: f('Комментарий оператора'),
  dict_category_id: f('Рубрика', ref('category')),
  type: f('Вид публикации', codes(publicationTypeLabels)),
  price_id: f('Цена публикации', ref('price')),
  authors: f('Соавторы', { kind: 'list' }),
  author_added: f('Добавлен автор'),
  co_author_invitation: f('Приглашение в соавторы'),
  refund: f('Возврат', { kind: 'refund' }),
  refund_status: f('Состояние возврата', codes({ pending: 'В обработке', succeeded: 'Выполнен', canceled: 'Отменён' })),
  refund_id: f('Возврат №', num),
  refunded_sum: f('Возвращено всего', money),
  refund_cancellation: f('Причина отмены возврата'),
  hold_decision: f('Решение по удержанному платежу', codes({ capture: 'Списать', cancel: 'Отменить' })),
  member_fio: f('Участник: ФИО'),
  member_title: f('Участник: работа'),
  member_comment: f('Участник: комментарий'),
  entry_id: f('Заявка', ref('entry')),
  entry_ids: f('Заявки', refs('entry')),
  problem: f('Что не так', codes(bankLineProblemLabels)),
  payer: f('Плательщик'),
  purpose: f('Назначение платежа'),
  doc: f('Платёжный документ'),
  ignore_reason: f('Причина пропуска'),
  file_name: f('Файл'),
  contract_status: f('Договор', codes(contractStatusLabels)),
  contract_scan: f('Скан договора', ref('file')),
  contract_comment: f('Комментарий к договору'),
  // Passport and SNILS numbers arrive masked (server/src/platform/change-log.ts): «•••• ••3456».
  passport_number: f('Паспорт: серия и номер'),
  passport_date: f('Паспорт: дата выдачи', { kind: 'date' }),
  passport_issued_by: f('Паспорт: кем выдан'),
  mail_subscribed: f('Получать рассылки', bool),
  // Issue 33: an archive of the person's data was requested; their data was erased (the reason).
  personal_data_export: f('Архив персональных данных'),
  personal_data_erased: f('Персональные данные удалены по заявлению'),
  erased_at: f('Данные удалены', time),
  // The client's uploaded documents, one field per kind: the files of that kind before and after.
  ...Object.fromEntries(DOCUMENT_KINDS.map((k) => [`documents.${k}`, f(`Документы: ${documentKindLabels[k]}`, refs('file'))])),
};

/** `status` means a different list of codes in each kind of record. */
const STATUS_BY_TYPE: Partial<Record<ChangeLogType, Codes>> = {
  entry: entryStatusLabels,
  publication: publicationStatusLabels,
  bank_statement_line: bankLineStatusLabels,
};

/** A field's Russian label and kind, or a plain text field labelled by its own name if unknown. */
export function logField(type: ChangeLogType, field: string): Field {
  if (field === 'status') return f('Статус', STATUS_BY_TYPE[type] ? codes(STATUS_BY_TYPE[type]) : text);
  return COMMON[field] ?? f(field);
}

/** The ids a diff refers to, by kind, so the server can look their names up in one query per kind. */
export function referencedIds(type: ChangeLogType, diff: ChangeDiff, into: Map<RefKind, Set<number>>): void {
  for (const [field, change] of Object.entries(diff)) {
    const kind = logField(type, field).type;
    if (kind.kind !== 'ref' && kind.kind !== 'refs') continue;
    for (const v of [change.old, change.new].flatMap((x) => (Array.isArray(x) ? x : [x]))) {
      const id = Number(v);
      if (v !== null && v !== '' && Number.isInteger(id) && id > 0) {
        if (!into.has(kind.ref)) into.set(kind.ref, new Set());
        into.get(kind.ref)!.add(id);
      }
    }
  }
}

/** Names of referenced records: names.get(kind)?.get(id). */
export type RefNames = Map<RefKind, Map<number, string>>;

/** A diff line as the operator reads it. */
export interface PresentedChange {
  field: string;
  label: string;
  old: string;
  new: string;
}

const EMPTY = '—';
const SECRET = '••••••';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function plain(v: unknown): string {
  if (v === null || v === undefined || v === '') return EMPTY;
  if (typeof v === 'boolean') return v ? 'Да' : 'Нет';
  if (typeof v === 'string') return ISO.test(v) ? formatDateTime(v) : v;
  if (Array.isArray(v)) return v.length ? v.map(plain).join(', ') : EMPTY;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function value(kind: Kind, v: unknown, names: RefNames): string {
  if (v === null || v === undefined || v === '') return EMPTY;
  switch (kind.kind) {
    case 'money':
      return Number.isFinite(Number(v)) ? formatRub(Number(v)) : plain(v);
    case 'time':
      return typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? formatDateTime(v) : plain(v);
    case 'date':
      return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10).split('-').reverse().join('.') : plain(v);
    case 'bool':
      return v === true || v === 1 || v === '1' ? 'Да' : v === false || v === 0 || v === '0' ? 'Нет' : plain(v);
    case 'codes':
      return kind.codes[typeof v === 'boolean' ? Number(v) : String(v)] ?? plain(v);
    case 'refund':
      return refundText(v);
    case 'secret':
      return SECRET;
    case 'ref':
      return refName(kind.ref, v, names);
    case 'refs':
      return Array.isArray(v) ? (v.length ? v.map((x) => refName(kind.ref, x, names)).join(', ') : EMPTY) : refName(kind.ref, v, names);
    default:
      return plain(v);
  }
}

/** A refund as logged: {sum, reason, automatic}. */
function refundText(v: unknown): string {
  if (!v || typeof v !== 'object') return plain(v);
  const r = v as { sum?: unknown; reason?: unknown; automatic?: unknown };
  const parts = [
    Number.isFinite(Number(r.sum)) ? formatRub(Number(r.sum)) : null,
    r.reason ? `причина: ${String(r.reason)}` : null,
    r.automatic ? 'автоматически' : null,
  ];
  return parts.filter(Boolean).join(', ') || plain(v);
}

function refName(kind: RefKind, v: unknown, names: RefNames): string {
  const name = names.get(kind)?.get(Number(v));
  return name ?? `№ ${plain(v)}`;
}

/** Every line of a diff in Russian, in the diff's order; a line that reads the same before and after (an empty field of a new record) is left out. */
export function presentDiff(type: ChangeLogType, diff: ChangeDiff, names: RefNames): PresentedChange[] {
  return Object.entries(diff)
    .map(([field, change]) => {
      const { label, type: kind } = logField(type, field);
      return { field, label, old: value(kind, change.old, names), new: value(kind, change.new, names) };
    })
    .filter((c) => c.old !== c.new || c.field === 'password');
}
