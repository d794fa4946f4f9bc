/**
 * Quoting of titles in Russian text: one pair of «», a title's own quotes nested as „…“, and the
 * kind words dropped where the sentence names the kind itself. Shared by the documents' macros
 * (service.title_quoted, service.name_quoted) and every generated sentence (letters, payment
 * descriptions, notices), so no text reads «Пакет услуг «Пакет «…»»».
 */

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

/** «Пакет услуг «Молодой педагог»» for a package titled 'Пакет «Молодой педагог»' or 'Молодой педагог' (lower case inside a sentence). */
export function packageNamed(title: string, lower = false): string {
  return `${lower ? 'пакет' : 'Пакет'} услуг ${quotedName(title)}`;
}
