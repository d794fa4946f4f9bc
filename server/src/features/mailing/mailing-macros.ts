// Mass letters fill their macros with the one renderer shared with event letters and documents
// (features/macros): the same catalogue, the same escaping, each recipient's own values.
import { isMailingMacro, MailingMessages } from '@edu/domain/mailing/mailing';
import type { FieldErrors } from '@edu/domain/common/validation';
import type { Queryable } from '../../platform/db.ts';
import { MACRO_NAMES, MACRO_PATTERN, unknownMacros } from '../macros/macro-catalogue.ts';
import { commonMacroValues, userMacroValuesMany } from '../macros/macro-values.ts';
import { renderMacros } from '../macros/render-macros.ts';

/** Catalogue macros a mass letter can fill (user.*, org.*, app.*). */
const MAILING_MACROS: ReadonlySet<string> = new Set([...MACRO_NAMES].filter(isMailingMacro));

/** Every catalogue macro empty: like an event letter, a letter shows nothing where a person has no data. */
const EMPTY = Object.fromEntries([...MAILING_MACROS].map((name) => [name, '']));

/** Catalogue macros written in a text (`${name}` or the older `{name}`), in order of first appearance. */
function usedCatalogueMacros(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(MACRO_PATTERN)) if (MACRO_NAMES.has(m[2]) && !found.includes(m[2])) found.push(m[2]);
  return found;
}

/**
 * Field errors for macros a mailing cannot fill: names the catalogue lacks, and catalogue macros with
 * nothing to read in a mass letter (entry, service, publication, contract, password). Checked on the
 * letter as sent (subject and sanitised HTML), so whatever reaches a reader has been checked.
 */
export function mailingMacroErrors(fields: { subject?: string; message?: string }): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, text] of Object.entries(fields)) {
    if (!text) continue;
    const unknown = unknownMacros(text).map((name) => `\${${name}}`);
    const unavailable = usedCatalogueMacros(text)
      .filter((name) => !MAILING_MACROS.has(name))
      .map((name) => `\${${name}}`);
    const list: string[] = [];
    if (unknown.length > 0) list.push(MailingMessages.unknownMacros(unknown));
    if (unavailable.length > 0) list.push(MailingMessages.unavailableMacros(unavailable));
    if (list.length > 0) errors[field] = list;
  }
  return errors;
}

/** Whether any of the texts has a macro to fill (a letter without one is the same for everybody). */
export function hasMacros(...texts: string[]): boolean {
  return texts.some((t) => usedCatalogueMacros(t).length > 0);
}

/** Each recipient's values: the centre's and the cabinet's (read once), then the person's own. */
export async function recipientValues(db: Queryable, userIds: number[]): Promise<(userId: number) => Record<string, string>> {
  const [common, users] = await Promise.all([commonMacroValues(db), userMacroValuesMany(db, userIds)]);
  const base = { ...EMPTY, ...common };
  return (userId) => ({ ...base, ...users.get(userId) });
}

export interface LetterContent {
  html: string;
  text: string;
  subject: string;
}

/** The letter with one recipient's values: HTML-escaped in the HTML part, plain in the text part and the subject. */
export function renderLetter(m: LetterContent, values: Record<string, string>): LetterContent {
  return {
    html: renderMacros(m.html, values, { escape: 'html' }),
    text: renderMacros(m.text, values, { escape: 'none' }),
    subject: renderMacros(m.subject, values, { escape: 'none' }).replace(/\s+/g, ' ').trim(),
  };
}
