import { MACRO_PATTERN } from './macro-catalogue.ts';

/**
 * Personal data a client fills in their cabinet («Данные для договора»), by macro, with the name the
 * refusal gives them. A document the client signs (consent, contract) that uses one of them without a
 * value is not printed (422 naming the data), so a contract never leaves with a blank passport line;
 * other documents print a line to fill by hand (decision 031).
 */
export const PERSONAL_DATA_MACROS: Readonly<Record<string, string>> = {
  'user.birthday': 'дата рождения',
  'user.passport': 'паспортные данные',
  'user.passport_date': 'паспортные данные',
  'user.passport_issued_by': 'паспортные данные',
  'user.address': 'адрес регистрации',
  'user.snils': 'СНИЛС',
};

/** The macro names an HTML template or a mail uses (`${name}` or a catalogue's `{name}`). */
export function htmlMacros(template: string): string[] {
  return [...new Set([...template.matchAll(MACRO_PATTERN)].map((m) => m[2]))];
}

/** What personal data the document needs and the values lack, each named once, in the order of the catalogue above. */
export function missingPersonalData(used: Iterable<string>, values: Record<string, string>): string[] {
  const names = new Set(used);
  const labels: string[] = [];
  for (const [name, label] of Object.entries(PERSONAL_DATA_MACROS)) {
    if (names.has(name) && !values[name] && !labels.includes(label)) labels.push(label);
  }
  return labels;
}
