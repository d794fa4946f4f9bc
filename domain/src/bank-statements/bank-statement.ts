import { z } from 'zod';
import { isoTimestamp, pageAnswer } from '../common/answers.ts';
import { filterText } from '../common/bounds.ts';
import { parseMoney } from '../common/money.ts';
import { pageQuery, sortParam } from '../common/pagination.ts';

// Bank statements in the 1C exchange format (1CClientBankExchange, ВерсияФормата=1.03), which every
// Russian bank exports: the pure reading of the text (the server decodes the bytes), the entry
// numbers a payment purpose names, how a sum compares with what is due, and the screen's schemas.
// Decision: docs/decisions/040-bank-statement-import.md.

export const BankStatementMessages = {
  fileRequired: 'Выберите файл банковской выписки',
  notOneC: 'Это не выписка в формате 1С: файл должен начинаться строкой «1CClientBankExchange». Выгрузите выписку из интернет-банка в формате 1С (txt).',
  noDocuments: 'В выписке нет ни одного платёжного документа (секций «СекцияДокумент»)',
  tooLarge: 'Файл выписки больше 5 МБ. Выгрузите выписку за более короткий период.',
  noAccount:
    'Не заполнен расчётный счёт центра (Макросы → Реквизиты → «Расчётный счёт»). Без него нельзя отличить входящие платежи от исходящих: заполните реквизиты и загрузите выписку снова.',
  ownRunning: 'Ваша предыдущая выписка ещё загружается. Дождитесь её итога.',
  othersRunning: 'Сейчас загружаются выписки других операторов. Загрузите файл ещё раз через минуту.',
  lineNotFound: 'Строка выписки не найдена',
  lineResolved: 'Эта строка выписки уже разобрана',
  chooseEntries: 'Выберите хотя бы одну заявку',
  tooManyEntries: 'Не больше 20 заявок на один платёж',
  entryNotPayable: (number: string) => `Заявка № ${number} не ждёт оплаты (уже оплачена, возвращена или удалена)`,
  entryMissing: 'Заявка не найдена',
  reasonRequired: 'Укажите, почему строка пропускается',
  reasonTooLong: 'Причина не длиннее 500 символов',
  assigned: 'Платёж отнесён к заявкам: они отмечены оплаченными по безналичному расчёту',
  ignored: 'Строка выписки пропущена',
} as const;

/** One payment document of a statement, as the bank wrote it. */
export interface StatementDocument {
  /** The value of СекцияДокумент (Платежное поручение, Банковский ордер, ...). */
  kind: string;
  number: string;
  /** dd.mm.yyyy as written, or '' when missing. */
  date: string;
  /** ДатаПоступило (the day the money reached the account), when the bank gives it. */
  received: string;
  /** The sum in kopecks; null when the bank's «Сумма» is not a sum. */
  kopecks: number | null;
  payerName: string;
  payerInn: string;
  payerAccount: string;
  recipientName: string;
  recipientInn: string;
  recipientAccount: string;
  purpose: string;
  /** The section's lines as in the file (kept with the imported line). */
  raw: string;
}

export interface ParsedStatement {
  version: string;
  /** The account(s) the statement is for (РасчСчет of the header). */
  accounts: string[];
  documents: StatementDocument[];
}

export type StatementParse = { ok: true; statement: ParsedStatement } | { ok: false; problem: string };

const keyOf = (line: string): [string, string] | null => {
  const at = line.indexOf('=');
  if (at < 0) return null;
  return [line.slice(0, at).trim(), line.slice(at + 1).trim()];
};

/** The first filled value among the keys (banks name the same field differently). */
const first = (fields: Map<string, string>, ...keys: string[]) => {
  for (const k of keys) {
    const v = fields.get(k);
    if (v) return v;
  }
  return '';
};

/** Accounts and INNs compared by their digits only (some banks space or dash them). */
export const digitsOf = (text: string) => text.replace(/\D/g, '');

/** «ИНН 7701234567 ООО "Ромашка"» (how some banks fill Плательщик) without the INN in front. */
const nameWithoutInn = (name: string) => name.replace(/^ИНН\s*\d{10,12}\s*/i, '').trim();

function documentOf(kind: string, fields: Map<string, string>, raw: string[]): StatementDocument {
  const sum = first(fields, 'Сумма').replace(/\s/g, '');
  const money = sum ? parseMoney(sum) : { problem: 'empty' };
  // Some banks split a long purpose into НазначениеПлатежа1..6.
  const parts = [1, 2, 3, 4, 5, 6].map((i) => fields.get(`НазначениеПлатежа${i}`) ?? '').filter(Boolean);
  const purpose = first(fields, 'НазначениеПлатежа') || parts.join(' ');
  const payer = first(fields, 'Плательщик1', 'Плательщик');
  return {
    kind,
    number: first(fields, 'Номер'),
    date: first(fields, 'Дата'),
    received: first(fields, 'ДатаПоступило'),
    kopecks: 'kopecks' in money && money.kopecks > 0 ? money.kopecks : null,
    payerName: nameWithoutInn(payer),
    payerInn: digitsOf(first(fields, 'ПлательщикИНН') || (/^ИНН\s*(\d{10,12})/i.exec(payer)?.[1] ?? '')),
    payerAccount: digitsOf(first(fields, 'ПлательщикСчет', 'ПлательщикРасчСчет')),
    recipientName: nameWithoutInn(first(fields, 'Получатель1', 'Получатель')),
    recipientInn: digitsOf(first(fields, 'ПолучательИНН')),
    recipientAccount: digitsOf(first(fields, 'ПолучательСчет', 'ПолучательРасчСчет')),
    purpose: purpose.replace(/\s+/g, ' ').trim(),
    raw: raw.join('\n'),
  };
}

/**
 * Reads a statement's text (already decoded): CRLF or LF, a BOM, spaces around «=», sections
 * `СекцияДокумент=…` to `КонецДокумента`; account sections (СекцияРасчСчет) and unknown keys are
 * skipped. A file not starting with 1CClientBankExchange, or without documents, is refused.
 */
export function parseStatement(text: string): StatementParse {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .map((l) => l.trim());
  const start = lines.findIndex((l) => l !== '');
  if (start < 0 || lines[start] !== '1CClientBankExchange') return { ok: false, problem: BankStatementMessages.notOneC };
  let version = '';
  const accounts: string[] = [];
  const documents: StatementDocument[] = [];
  let current: { kind: string; fields: Map<string, string>; raw: string[] } | null = null;
  let inAccountSection = false;
  for (const line of lines.slice(start + 1)) {
    if (line === '') continue;
    if (current) {
      if (line === 'КонецДокумента') {
        documents.push(documentOf(current.kind, current.fields, current.raw));
        current = null;
        continue;
      }
      current.raw.push(line);
      const kv = keyOf(line);
      if (kv && !current.fields.has(kv[0])) current.fields.set(kv[0], kv[1]);
      continue;
    }
    if (line === 'КонецФайла') break;
    if (line === 'КонецРасчСчет') {
      inAccountSection = false;
      continue;
    }
    if (line === 'СекцияРасчСчет') {
      inAccountSection = true;
      continue;
    }
    const kv = keyOf(line);
    if (!kv) continue;
    const [key, value] = kv;
    if (key === 'СекцияДокумент') current = { kind: value, fields: new Map(), raw: [line] };
    else if (inAccountSection) continue;
    else if (key === 'ВерсияФормата') version = value;
    else if (key === 'РасчСчет' && digitsOf(value) && !accounts.includes(digitsOf(value))) accounts.push(digitsOf(value));
  }
  // A file cut after its last section's fields: the section still counts.
  if (current) documents.push(documentOf(current.kind, current.fields, current.raw));
  if (documents.length === 0) return { ok: false, problem: BankStatementMessages.noDocuments };
  return { ok: true, statement: { version, accounts, documents } };
}

/**
 * The entry numbers (and so the invoice numbers: an invoice is numbered as its entry) a payment
 * purpose names: «2611-00004», «№2611-00004», «2611 - 00004», in the order written, each once.
 */
export function entryNumbersIn(purpose: string): string[] {
  const found: string[] = [];
  for (const m of purpose.matchAll(/(?<![\d-])(\d{4})\s?[-‐‑–—]\s?(\d{5,7})(?![\d-])/g)) {
    const number = `${m[1]}-${m[2]}`;
    if (!found.includes(number)) found.push(number);
  }
  return found;
}

/** How the money that came compares with what is due. */
export function compareSum(paid: number, due: number): 'exact' | 'partial' | 'excess' {
  return paid === due ? 'exact' : paid < due ? 'partial' : 'excess';
}

/** The text a line's identity is hashed from: the same payment in a repeated statement gives the same text. */
export function lineIdentityText(d: StatementDocument): string {
  return [d.number, d.date, d.kopecks ?? '', d.payerAccount, d.payerInn, d.purpose.toLowerCase()].join('|');
}

/** Where a statement line stands. */
export const BANK_LINE_STATUSES = ['paid', 'manual', 'assigned', 'ignored'] as const;
export type BankLineStatus = (typeof BANK_LINE_STATUSES)[number];
export const bankLineStatusLabels: Record<BankLineStatus, string> = {
  paid: 'Оплата отмечена',
  manual: 'Разобрать вручную',
  assigned: 'Отнесена вручную',
  ignored: 'Пропущена',
};

/** Why a line waits for an operator. */
export const BANK_LINE_PROBLEMS = ['partial', 'excess', 'ambiguous', 'unmatched'] as const;
export type BankLineProblem = (typeof BANK_LINE_PROBLEMS)[number];
export const bankLineProblemLabels: Record<BankLineProblem, string> = {
  partial: 'Сумма меньше счёта',
  excess: 'Сумма больше счёта',
  ambiguous: 'Подходит несколько заявок',
  unmatched: 'Заявка не найдена',
};

export const bankLine = z.object({
  id: z.number(),
  status: z.enum(BANK_LINE_STATUSES),
  problem: z.enum(BANK_LINE_PROBLEMS).nullable(),
  note: z.string().nullable(),
  file_name: z.string(),
  doc_number: z.string(),
  doc_date: z.string(),
  /** Rubles (decision 002: answers keep rubles). */
  sum: z.number(),
  payer_name: z.string(),
  payer_inn: z.string(),
  purpose: z.string(),
  /** Entries it paid (paid, assigned). */
  entries: z.array(z.object({ id: z.number(), number: z.string() })),
  /** Entries the purpose named or that fit by INN and sum: a hint for the operator. */
  candidates: z.array(z.object({ id: z.number(), number: z.string(), price: z.number(), status: z.number(), fio: z.string() })),
  ignore_reason: z.string().nullable(),
  resolved_by: z.string().nullable(),
  created_at: isoTimestamp,
});
export type BankLine = z.output<typeof bankLine>;

export const BANK_LINE_SORTS = ['created_at', 'sum'] as const;

/** GET /api/manager/bank-statement-lines. */
export const bankLineListQuery = pageQuery.extend({
  sort: sortParam(BANK_LINE_SORTS),
  /** A line state, or 'all' (the screen opens on 'manual'). */
  status: z.enum([...BANK_LINE_STATUSES, 'all'], { error: 'Неизвестное состояние' }).optional(),
  q: filterText(100).optional(),
});
export const bankLinesAnswer = pageAnswer(bankLine);

/** What one upload did. */
export const importSummary = z.object({
  file_name: z.string(),
  documents: z.number(),
  /** Incoming payments matched exactly: their entries are now paid. */
  paid: z.number(),
  /** Entries marked paid by them. */
  paid_entries: z.array(z.string()),
  /** Incoming payments left for the operator («Разобрать вручную»). */
  manual: z.number(),
  /** Lines of this statement imported before: nothing changed for them. */
  already: z.number(),
  /** Outgoing payments and others not to the centre's account. */
  not_incoming: z.number(),
  /** Documents without a readable sum. */
  unreadable: z.number(),
  message: z.string(),
});
export type ImportSummary = z.output<typeof importSummary>;
export const importSummaryAnswer = z.object({ data: importSummary });

export function summaryMessage(s: Omit<ImportSummary, 'message'>): string {
  if (s.paid === 0 && s.manual === 0 && s.already > 0 && s.already + s.not_incoming + s.unreadable === s.documents)
    return 'Эта выписка уже загружена: ничего не изменилось.';
  const parts = [`Оплачено автоматически: ${s.paid}`, `разобрать вручную: ${s.manual}`];
  if (s.already) parts.push(`загружено раньше: ${s.already}`);
  if (s.not_incoming) parts.push(`не входящие: ${s.not_incoming}`);
  if (s.unreadable) parts.push(`без суммы: ${s.unreadable}`);
  return `Выписка загружена. ${parts.join(', ')}.`;
}

const MAX_ENTRIES = 20;

/** POST /api/manager/bank-statement-lines/{id}/assign. */
export const assignLineBody = z.object({
  entry_ids: z
    .array(z.coerce.number().int().positive(), { error: BankStatementMessages.chooseEntries })
    .min(1, { error: BankStatementMessages.chooseEntries })
    .max(MAX_ENTRIES, { error: BankStatementMessages.tooManyEntries }),
});

/** POST /api/manager/bank-statement-lines/{id}/ignore. */
export const ignoreLineBody = z.object({
  reason: z
    .string({ error: BankStatementMessages.reasonRequired })
    .trim()
    .min(1, { error: BankStatementMessages.reasonRequired })
    .max(500, { error: BankStatementMessages.reasonTooLong }),
});

export const lineActionAnswer = z.object({ message: z.string(), data: bankLine });

/** GET /api/manager/bank-statement-lines/entries?q=: unpaid entries to assign a line to. */
export const payableEntriesQuery = z.object({ q: filterText(100).optional() });
export const payableEntry = z.object({ id: z.number(), number: z.string(), price: z.number(), fio: z.string(), service_title: z.string() });
export const payableEntriesAnswer = z.object({ data: z.array(payableEntry) });
export type PayableEntry = z.output<typeof payableEntry>;
