// Events render with the one macro renderer shared with documents (features/macros).
import type { Queryable } from '../../platform/db.ts';
import { MACRO_NAMES, unknownMacros } from '../macros/macro-catalogue.ts';
import { macroValues, type MacroSubject } from '../macros/macro-values.ts';
import { renderMacros } from '../macros/render-macros.ts';

/**
 * Values of every catalogue macro for the recipient and the subject records. A letter to a person
 * shows nothing (rather than the macro's name) where a record has no data, e.g. no comment yet.
 */
export async function eventValues(db: Queryable, subject: MacroSubject, extra: Record<string, string>): Promise<Record<string, string>> {
  const empty = Object.fromEntries([...MACRO_NAMES].map((name) => [name, '']));
  return { ...empty, ...(await macroValues(db, subject, extra)) };
}

/** HTML bodies and notifications: values escaped. */
export const renderHtml = (template: string, values: Record<string, string>) => renderMacros(template, values, { escape: 'html' });
/** Subjects: plain text. */
export const renderText = (template: string, values: Record<string, string>) => renderMacros(template, values, { escape: 'none' }).replace(/\s+/g, ' ').trim();

/** Macros written as ${name} that the catalogue does not have, as written. */
export const unknownEventMacros = (template: string) => unknownMacros(template).map((name) => `\${${name}}`);
