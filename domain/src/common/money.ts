import { z } from 'zod';
import { Messages } from './messages.ts';

// Money at the edge (docs/decisions/002-money.md): every amount a person types or a client sends is
// read once, from its decimal text, into an integer number of kopecks. No float is ever checked.

export const MoneyMessages = {
  invalid: 'Введите сумму числом, например 1500 или 2499,99',
  twoDecimals: 'Не больше двух знаков после запятой',
  negative: 'Сумма не может быть отрицательной',
} as const;

/** Digits with optional group spaces, then at most two decimals after a point or a comma: "2 499,99", "19.99", "1500". */
const MONEY_TEXT = /^(-?)(\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+)(?:[.,](\d*))?$/;

export type MoneyParse = { kopecks: number } | { problem: string };

/**
 * Reads an amount of rubles from its decimal text (or a JSON number, read through its shortest
 * decimal text) into kopecks (a leading minus gives a negative amount, for the field's own minimum
 * to refuse). Refuses hex, exponents, a plus, three or more decimals and anything beyond 10^13 kopecks.
 */
export function parseMoney(input: string | number): MoneyParse {
  const text = (typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input).trim().replace(/\s*₽$/, '');
  const m = MONEY_TEXT.exec(text);
  if (!m) return { problem: MoneyMessages.invalid };
  const whole = (m[2] ?? '').replace(/\D/g, '');
  const fraction = m[3] ?? '';
  if (fraction.length > 2) return { problem: MoneyMessages.twoDecimals };
  if (whole.length > 13) return { problem: MoneyMessages.invalid };
  const kopecks = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return { kopecks: m[1] ? -kopecks : kopecks };
}

/** Kopecks as the decimal text of rubles, for a numeric(12,2) column or a provider's amount: 1999 → "19.99". */
export function rublesText(kopecks: number): string {
  const sign = kopecks < 0 ? '-' : '';
  const k = Math.abs(Math.trunc(kopecks));
  return `${sign}${Math.trunc(k / 100)}.${String(k % 100).padStart(2, '0')}`;
}

/** Kopecks as a JS number of rubles for an answer (API answers keep rubles, decision 002). */
export const rublesOf = (kopecks: number): number => Number(rublesText(kopecks));

/** A numeric column's value (a string such as "4900.00" or a number) in kopecks, exactly for text. */
export function kopecksOf(value: string | number | null | undefined): number {
  if (value === null || value === undefined) return 0;
  const text = typeof value === 'number' ? value.toFixed(2) : value.trim();
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace(/^[-+]/, '').split('.');
  const k = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
  return negative ? -k : k;
}

interface MoneyFieldOptions {
  /** The message for a missing value. */
  required?: string;
  /** Smallest (default 0 ₽) and largest amount, in kopecks, each with its message. */
  min?: { kopecks: number; message: string };
  max?: { kopecks: number; message: string };
  /** Whole rubles only (publication prices): the message for kopecks. */
  wholeRubles?: string;
}

/**
 * A money field: its decimal text (or a number) in, integer kopecks out. Empty or missing is the
 * `required` message; everything else refused is a Russian message on the field.
 */
export function moneyField(o: MoneyFieldOptions = {}) {
  const required = o.required ?? Messages.fieldRequired;
  const min = o.min ?? { kopecks: 0, message: MoneyMessages.negative };
  return z.union([z.string(), z.number()], { error: required }).transform((value, ctx) => {
    if (typeof value === 'string' && value.trim() === '') {
      ctx.addIssue({ code: 'custom', message: required });
      return z.NEVER;
    }
    const parsed = parseMoney(value);
    if ('problem' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.problem });
      return z.NEVER;
    }
    const k = parsed.kopecks;
    if (o.wholeRubles && k % 100 !== 0) ctx.addIssue({ code: 'custom', message: o.wholeRubles });
    else if (k < min.kopecks) ctx.addIssue({ code: 'custom', message: min.message });
    else if (o.max && k > o.max.kopecks) ctx.addIssue({ code: 'custom', message: o.max.message });
    else return k;
    return z.NEVER;
  });
}

/** A money field that may be left empty ('' or null is null). */
export const optionalMoneyField = (o: MoneyFieldOptions = {}) => z.preprocess((v) => (v === '' || v === null ? undefined : v), moneyField(o).optional());

/** A price of a service, an entry or a package: 0 to 10 000 000 ₽, in kopecks. */
export const PRICE_FIELD = moneyField({
  required: 'Введите цену',
  min: { kopecks: 0, message: 'Цена не может быть отрицательной' },
  max: { kopecks: 10_000_000_00, message: 'Цена не больше 10 000 000 ₽' },
});
