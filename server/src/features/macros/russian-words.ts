import { getGender, incline } from 'lvovich';
import numberToWordsRu from 'number-to-words-ru';

const numberToWords = numberToWordsRu.convert;

export interface NameParts {
  last: string;
  first: string;
  middle: string;
}

/** 'male' | 'female' | null, from the patronymic first (-вич / -вна), then the other parts. */
export function genderOf(name: NameParts): 'male' | 'female' | null {
  const middle = name.middle.trim().toLowerCase();
  if (/(вич|ьич|ич|оглы)$/.test(middle)) return 'male';
  if (/(вна|чна|шна|кызы|гызы)$/.test(middle)) return 'female';
  const g = getGender({ last: name.last, first: name.first, middle: name.middle || undefined });
  return g === 'male' || g === 'female' ? g : null;
}

/** The name in the dative case (кому?): Иванову Ивану Ивановичу. */
export function dativeName(name: NameParts): NameParts {
  const gender = genderOf(name) ?? undefined;
  const r = incline({ last: name.last, first: name.first, middle: name.middle || undefined, gender }, 'dative');
  return { last: r.last ?? name.last, first: r.first ?? name.first, middle: name.middle ? (r.middle ?? name.middle) : '' };
}

/** A stored corrected form 'Фамилии Имени Отчеству' split back into parts (the last word is the patronymic when there are three). */
export function splitFio(fio: string): NameParts {
  const words = fio.trim().split(/\s+/).filter(Boolean);
  if (words.length >= 3) return { last: words[0], first: words[1], middle: words.slice(2).join(' ') };
  return { last: words[0] ?? '', first: words[1] ?? '', middle: '' };
}

export function joinFio(name: NameParts): string {
  return [name.last, name.first, name.middle].filter(Boolean).join(' ');
}

/** Иванов И. И. */
export function shortFio(name: NameParts): string {
  const initials = [name.first, name.middle].filter(Boolean).map((p) => `${p[0].toUpperCase()}.`);
  return [name.last, initials.join(' ')].filter(Boolean).join(' ');
}

/** 1 500,50 -> 'Одна тысяча пятьсот рублей 50 копеек'. */
export function rublesInWords(amount: number): string {
  const fixed = (Math.round(amount * 100) / 100).toFixed(2);
  return numberToWords(fixed, { currency: 'rub', showNumberParts: { fractional: true }, convertNumberToWords: { fractional: false } });
}

/** 1 500 ₽ as written in documents: '1 500' (whole rubles) or '1 500,50'. */
export function rublesInFigures(amount: number): string {
  return new Intl.NumberFormat('ru-RU', { minimumFractionDigits: Number.isInteger(amount) ? 0 : 2, maximumFractionDigits: 2 })
    .format(amount)
    .replace(/\u00a0/g, ' ');
}

// The title quoting rules live in domain/ (the web and every server feature quote titles the same way).
export { quoted, quotedName } from '@edu/domain/common/quotes';

/** 1 день, 2 дня, 5 дней. */
export function plural(n: number, one: string, few: string, many: string): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return one;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return few;
  return many;
}
