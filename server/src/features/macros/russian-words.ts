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

/** Straight "…" pairs as «…», so the rules below see one kind of quotes. */
function guillemets(text: string): string {
  return text.replace(/"([^"]*)"/g, '«$1»').replace(/[“”]/g, '"');
}

/** «…» inside a quoted title become „…“: Russian nests quotes that way, never as ««…»». */
function innerQuotes(text: string): string {
  return text.replace(/«/g, '„').replace(/»/g, '“');
}

/** Whether «…» opens at the start and its pair closes at the very end (nested pairs counted). */
function quotedWhole(text: string): boolean {
  if (!text.startsWith('«') || !text.endsWith('»')) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '«') depth++;
    else if (text[i] === '»' && --depth === 0 && i < text.length - 1) return false;
  }
  return depth === 0;
}

/** A title in «», as a document quotes it: «Цифровая школа»; a title with quotes of its own keeps them as „…“ inside. */
export function quoted(title: string): string {
  const text = guillemets(title.trim());
  if (quotedWhole(text)) return `«${innerQuotes(text.slice(1, -1))}»`;
  return `«${innerQuotes(text)}»`;
}

/**
 * Words that name what a service is (its type): a title that starts with them before a quoted name
 * («Семинар «Цифровая школа»», «Курсы повышения квалификации «ФГОС ООО»») repeats what the sentence
 * around it already says («в семинаре …», «по программе …»).
 */
const KIND_WORDS =
  /(конферен|вебинар|семинар|курс|программ|переподготов|квалификац|мастер-класс|круглый стол|олимпиад|форум|конкурс|стажиров|тренинг|лекци|практикум|публикац|пакет)/i;

/**
 * The service's own name in «», without the kind words in front of it: 'Семинар «Цифровая школа»' ->
 * «Цифровая школа», for sentences that name the kind themselves («за участие в семинаре …»). Any
 * other title is quoted whole (quoted()).
 */
export function quotedName(title: string): string {
  const text = guillemets(title.trim());
  const open = text.indexOf('«');
  if (open > 0) {
    const lead = text.slice(0, open).trim();
    const rest = text.slice(open);
    if (quotedWhole(rest) && KIND_WORDS.test(lead) && lead.split(/\s+/).length <= 6) return quoted(rest);
  }
  return quoted(text);
}

/** 1 день, 2 дня, 5 дней. */
export function plural(n: number, one: string, few: string, many: string): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return one;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return few;
  return many;
}
