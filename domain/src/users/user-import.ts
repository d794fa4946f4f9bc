import { z } from 'zod';
import { looksLikeEmail, normalizePhone } from '../common/phone.ts';
import { MOSCOW_OFFSET_MS } from '../common/moscow-time.ts';

// Bringing the old cabinet's people in (npm run import -- users FILE, and the operators' import on
// /manager/users): the columns a file may have, how one row becomes a person, and what happens to
// each row. The server reads the file and the accounts; the rules are here, shared with the screen.

export const IMPORT_FIELDS = [
  'last_name',
  'first_name',
  'middle_name',
  'email',
  'phone',
  'organization',
  'job_title',
  'region',
  'profiles',
  'created_at',
  'password_hash',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** The column names a file may use for each field (compared without case, spaces and «ё»). */
const HEADER_NAMES: Record<ImportField, string[]> = {
  last_name: ['фамилия', 'last_name', 'lastname', 'surname'],
  first_name: ['имя', 'first_name', 'firstname', 'name'],
  middle_name: ['отчество', 'middle_name', 'middlename', 'patronymic'],
  email: ['e-mail', 'email', 'эл. почта', 'электронная почта', 'почта'],
  phone: ['телефон', 'phone', 'мобильный телефон'],
  organization: ['организация', 'organization', 'место работы', 'образовательная организация'],
  job_title: ['должность', 'job_title', 'position'],
  region: ['регион', 'region', 'субъект рф'],
  profiles: ['профили', 'профиль', 'профили работы', 'направления работы', 'profiles', 'work_profiles'],
  created_at: ['дата регистрации', 'зарегистрирован', 'создан', 'created_at', 'registered_at'],
  password_hash: ['хеш пароля', 'хэш пароля', 'пароль (хеш)', 'password_hash', 'password'],
};

/** How the report names each field (the first Russian column name). */
export const importFieldLabels: Record<ImportField, string> = {
  last_name: 'Фамилия',
  first_name: 'Имя',
  middle_name: 'Отчество',
  email: 'E-mail',
  phone: 'Телефон',
  organization: 'Организация',
  job_title: 'Должность',
  region: 'Регион',
  profiles: 'Профили',
  created_at: 'Дата регистрации',
  password_hash: 'Хеш пароля',
};

const REQUIRED_COLUMNS: ImportField[] = ['last_name', 'first_name', 'email'];

const headerKey = (value: string) => value.trim().toLowerCase().replace(/ё/g, 'е').replace(/\s+/g, ' ');

export interface HeaderMap {
  /** The column index of each field found. */
  columns: Partial<Record<ImportField, number>>;
  /** Columns the import does not know (left out, named in the report). */
  unknown: string[];
  /** Required fields without a column: the file cannot be imported. */
  missing: ImportField[];
}

export function mapHeaders(headers: string[]): HeaderMap {
  const byName = new Map<string, ImportField>();
  for (const field of IMPORT_FIELDS) for (const name of HEADER_NAMES[field]) byName.set(headerKey(name), field);
  const columns: Partial<Record<ImportField, number>> = {};
  const unknown: string[] = [];
  headers.forEach((header, index) => {
    const field = byName.get(headerKey(header));
    if (field && columns[field] === undefined) columns[field] = index;
    else if (header.trim() !== '') unknown.push(header.trim());
  });
  return { columns, unknown, missing: REQUIRED_COLUMNS.filter((f) => columns[f] === undefined) };
}

export const ImportMessages = {
  missingColumns: (labels: string[]) => `В файле нет столбцов: ${labels.join(', ')}. Первая строка файла — названия столбцов.`,
  emptyFile: 'В файле нет ни одной строки с данными',
  unreadable: 'Файл не читается: нужен CSV (UTF-8 или Windows-1251, разделитель «;» или «,») или Excel (.xlsx)',
  tooManyRows: (max: number) => `В файле больше ${max.toLocaleString('ru-RU')} строк: загрузите его частями или через npm run import`,
  lastNameRequired: 'Не заполнена фамилия',
  firstNameRequired: 'Не заполнено имя',
  emailRequired: 'Не заполнен e-mail',
  badEmail: (value: string) => `Неверный e-mail «${value}»`,
  badPhone: (value: string) => `Неверный телефон «${value}»: нужен российский номер из 10 или 11 цифр`,
  badDate: (value: string) => `Неверная дата регистрации «${value}»: нужна дата вида 31.12.2020 или 2020-12-31`,
  badHash: 'Хеш пароля не в формате bcrypt ($2y$, $2a$ или $2b$)',
  tooLong: (label: string, max: number) => `Поле «${label}» длиннее ${max} символов`,
  twoAccounts: (emailId: number, phoneId: number) => `E-mail принадлежит аккаунту № ${emailId}, а телефон — аккаунту № ${phoneId}`,
  deletedAccount: (id: number) => `Аккаунт № ${id} с этим e-mail или телефоном удалён в кабинете`,
  guestAccount: (id: number) => `Телефон принадлежит гостевой записи № ${id}`,
  phoneTaken: (id: number) => `Телефон уже у аккаунта № ${id}: оставлен прежний`,
  unknownProfile: (name: string) => `Нет такого профиля работы: «${name}»`,
  unknownRegion: (name: string) => `Регион «${name}» не из справочника: сохранён текстом`,
  otherPhone: (phone: string) => `У аккаунта другой телефон (${phone}): оставлен прежний`,
};

/** What happened (or would happen, in a dry run) to one row. */
export const IMPORT_OUTCOMES = ['new', 'merged', 'unchanged', 'refused'] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];
export const importOutcomeLabels: Record<ImportOutcome, string> = {
  new: 'Новый',
  merged: 'Дополнен',
  unchanged: 'Уже есть',
  refused: 'Отклонён',
};

/** The summary's words for how many rows had each outcome: «Новых: 2». */
export const importCountLabels: Record<ImportOutcome, string> = {
  new: 'Новых',
  merged: 'Дополнено',
  unchanged: 'Уже есть',
  refused: 'Отклонено',
};

/** A row read as a person, normalised as sign-up does. */
export interface ImportPerson {
  last_name: string;
  first_name: string;
  middle_name: string | null;
  email: string;
  phone: string | null;
  organization: string | null;
  job_title: string | null;
  region: string | null;
  profiles: string[];
  created_at: Date | null;
  password_hash: string | null;
}

/** A bcrypt hash as PHP's password_hash writes it. */
export const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

const LIMITS: Partial<Record<ImportField, number>> = {
  last_name: 255,
  first_name: 255,
  middle_name: 255,
  email: 255,
  organization: 500,
  job_title: 500,
  region: 255,
};

/** 31.12.2020, 31.12.2020 10:15[:30], 2020-12-31, 2020-12-31 10:15[:30] (Moscow time), or an ISO instant. */
export function parseImportDate(value: string): Date | null {
  const text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(text)) {
    const instant = new Date(text);
    return Number.isNaN(instant.getTime()) ? null : instant;
  }
  const ru = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  const parts = ru ? [ru[3], ru[2], ru[1], ru[4], ru[5], ru[6]] : iso ? [iso[1], iso[2], iso[3], iso[4], iso[5], iso[6]] : null;
  if (!parts) return null;
  const [y = 0, m = 0, d = 0, hh = 0, mm = 0, ss = 0] = parts.map((p) => Number(p ?? 0));
  if (m < 1 || m > 12 || d < 1 || hh > 23 || mm > 59 || ss > 59) return null;
  const local = Date.UTC(y, m - 1, d, hh, mm, ss);
  // 31.02 rolls over into March: not a date.
  if (new Date(local).getUTCDate() !== d) return null;
  return new Date(local - MOSCOW_OFFSET_MS);
}

/** The profiles of one cell: «Учитель; Методист» or «Учитель, Методист». */
export function splitProfiles(value: string): string[] {
  return value
    .split(/[;,|\n]/)
    .map((p) => p.trim())
    .filter(Boolean);
}

const blank = (value: string | undefined) => {
  const text = (value ?? '').trim().replace(/\s+/g, ' ');
  return text === '' ? null : text;
};

/** One row's cells by field: a person, or the Russian reason it cannot be imported. */
export function parseImportRow(cells: Partial<Record<ImportField, string>>): { person: ImportPerson } | { reason: string } {
  const last_name = blank(cells.last_name);
  const first_name = blank(cells.first_name);
  const rawEmail = blank(cells.email);
  if (!last_name) return { reason: ImportMessages.lastNameRequired };
  if (!first_name) return { reason: ImportMessages.firstNameRequired };
  if (!rawEmail) return { reason: ImportMessages.emailRequired };
  if (!looksLikeEmail(rawEmail)) return { reason: ImportMessages.badEmail(rawEmail) };
  const rawPhone = blank(cells.phone);
  const phone = rawPhone ? normalizePhone(rawPhone) : null;
  if (rawPhone && !phone) return { reason: ImportMessages.badPhone(rawPhone) };
  const rawDate = blank(cells.created_at);
  const created_at = rawDate ? parseImportDate(rawDate) : null;
  if (rawDate && !created_at) return { reason: ImportMessages.badDate(rawDate) };
  const password_hash = blank(cells.password_hash);
  if (password_hash && !BCRYPT_HASH.test(password_hash)) return { reason: ImportMessages.badHash };
  const person: ImportPerson = {
    last_name,
    first_name,
    middle_name: blank(cells.middle_name),
    email: rawEmail.toLowerCase(),
    phone,
    organization: blank(cells.organization),
    job_title: blank(cells.job_title),
    region: blank(cells.region),
    profiles: splitProfiles(cells.profiles ?? ''),
    created_at,
    password_hash,
  };
  for (const [field, max] of Object.entries(LIMITS) as Array<[ImportField, number]>) {
    const value = person[field];
    if (typeof value === 'string' && value.length > max) return { reason: ImportMessages.tooLong(importFieldLabels[field], max) };
  }
  return { person };
}

/** An account the row may meet, as the import needs it. */
export interface ImportAccount {
  id: number;
  email: string;
  phone: string | null;
  middle_name: string | null;
  organization: string | null;
  job_title: string | null;
  region: string | null;
  dict_region_id: number | null;
  has_password: boolean;
  has_profile: boolean;
  deleted: boolean;
  guest: boolean;
}

/** The fields a merge may fill: only those the account has empty, never one it has. */
export interface ImportFill {
  middle_name?: string;
  phone?: string;
  organization?: string;
  job_title?: string;
  region?: string;
  dict_region_id?: number;
  password?: string;
  profile_ids?: number[];
}

export type ImportDecision =
  | { outcome: 'new'; notes: string[] }
  | { outcome: 'merged'; accountId: number; fill: ImportFill; notes: string[] }
  | { outcome: 'unchanged'; accountId: number; notes: string[] }
  | { outcome: 'refused'; reason: string };

/**
 * What one person's row does, given the account holding its e-mail, the one holding its phone,
 * and the dictionaries' ids by name: a new account, a merge that fills the empty fields of the
 * existing one, nothing (already there), or a refusal. Never a second account for one person.
 */
export function decideImport(
  person: ImportPerson,
  byEmail: ImportAccount | undefined,
  byPhone: ImportAccount | undefined,
  lookup: { region: (name: string) => number | undefined; profile: (name: string) => number | undefined },
): ImportDecision {
  const notes: string[] = [];
  const profileIds: number[] = [];
  for (const name of person.profiles) {
    const id = lookup.profile(name);
    if (id === undefined) notes.push(ImportMessages.unknownProfile(name));
    else if (!profileIds.includes(id)) profileIds.push(id);
  }
  const regionId = person.region ? lookup.region(person.region) : undefined;
  if (person.region && regionId === undefined) notes.push(ImportMessages.unknownRegion(person.region));

  if (byEmail && byPhone && byEmail.id !== byPhone.id) return { outcome: 'refused', reason: ImportMessages.twoAccounts(byEmail.id, byPhone.id) };
  const account = byEmail ?? byPhone;
  if (!account) {
    return { outcome: 'new', notes };
  }
  if (account.deleted) return { outcome: 'refused', reason: ImportMessages.deletedAccount(account.id) };
  if (account.guest) return { outcome: 'refused', reason: ImportMessages.guestAccount(account.id) };

  const fill: ImportFill = {};
  if (!account.middle_name && person.middle_name) fill.middle_name = person.middle_name;
  if (!account.organization && person.organization) fill.organization = person.organization;
  if (!account.job_title && person.job_title) fill.job_title = person.job_title;
  if (!account.region && account.dict_region_id === null && person.region) {
    fill.region = person.region;
    if (regionId !== undefined) fill.dict_region_id = regionId;
  }
  if (!account.has_password && person.password_hash) fill.password = person.password_hash;
  if (!account.has_profile && profileIds.length > 0) fill.profile_ids = profileIds;
  if (person.phone && account.phone !== person.phone) {
    // The row's phone is another account's (checked by the caller as byPhone) or the account has one.
    if (account.phone) notes.push(ImportMessages.otherPhone(account.phone));
    else fill.phone = person.phone;
  }
  if (Object.keys(fill).length === 0) return { outcome: 'unchanged', accountId: account.id, notes };
  return { outcome: 'merged', accountId: account.id, fill, notes };
}

/** One row of the report: its line in the file, who, what happened and why. */
export const importReportRow = z.object({
  line: z.number().int(),
  fio: z.string(),
  email: z.string(),
  outcome: z.enum(IMPORT_OUTCOMES),
  account_id: z.number().int().nullable(),
  message: z.string(),
});
export type ImportReportRow = z.infer<typeof importReportRow>;

export const importCounts = z.object({ new: z.number().int(), merged: z.number().int(), unchanged: z.number().int(), refused: z.number().int() });
export type ImportCounts = z.infer<typeof importCounts>;

/** The state of an import from the operators' panel (GET /api/manager/user-imports/:id). */
export const userImportState = z.object({
  id: z.string(),
  file_name: z.string(),
  dry_run: z.boolean(),
  status: z.enum(['running', 'done', 'failed']),
  total: z.number().int(),
  processed: z.number().int(),
  counts: importCounts,
  /** The first rows of the report (the whole report is the .xlsx download). */
  rows: z.array(importReportRow),
  unknown_columns: z.array(z.string()),
  error: z.string().nullable(),
});
export type UserImportState = z.infer<typeof userImportState>;

/** The most rows an upload on the panel takes; bigger files go through npm run import. */
export const PANEL_IMPORT_MAX_ROWS = 20_000;

export const userImportAnswer = z.object({ data: userImportState });

/** POST /api/manager/user-imports?dry_run=1: a dry run (the preview) or the import itself. */
export const userImportQuery = z.object({
  dry_run: z.enum(['0', '1']).optional().default('0').meta({ description: '1 — пробный прогон: ничего не меняется, только отчёт' }),
});

export const UserImportMessages = {
  fileRequired: 'Выберите файл',
  running: 'Импорт уже идёт: дождитесь его конца',
  ownRunning: 'Ваш предыдущий импорт или пробный прогон ещё идёт: дождитесь его конца',
  notFound: 'Импорт не найден: возможно, сервер перезапускался. Загрузите файл снова.',
};

/** How many report rows the state carries (the rest is in the .xlsx report). */
export const IMPORT_PREVIEW_ROWS = 200;
