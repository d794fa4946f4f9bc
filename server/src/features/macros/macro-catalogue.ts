import { macrosesData } from '../../db/seed/dictionaries-data.ts';

/** `${name}` (the catalogue's form, also docxtemplater's delimiters) or the older `{name}`. */
export const MACRO_PATTERN = /(\$?)\{\s*([a-zA-Z_][\w.]*)\s*\}/g;

/** Macro names of the catalogue, without delimiters: 'user.fio', 'entry.number', ... */
export const MACRO_NAMES: ReadonlySet<string> = new Set(macrosesData.map((m) => macroName(m.fdv)));

/** '${user.fio}' or '{user.fio}' -> 'user.fio'. */
export function macroName(text: string): string {
  return text.replace(/^\$?\{\s*/, '').replace(/\s*\}$/, '');
}

export function isKnownMacro(name: string): boolean {
  return MACRO_NAMES.has(name);
}

/**
 * Names written as `${name}` that the catalogue does not have, in order of first appearance. A template
 * with any of them is refused on save. (`{name}` without the dollar is the older form: it only counts
 * as a macro when the name is in the catalogue, so CSS and other braces in HTML are left alone.)
 */
export function unknownMacros(template: string): string[] {
  const found: string[] = [];
  for (const m of template.matchAll(MACRO_PATTERN)) {
    const name = m[2];
    if (m[1] === '$' && !MACRO_NAMES.has(name) && !found.includes(name)) found.push(name);
  }
  return found;
}

/** Every `${...}` whose inside is not a valid macro name (for example `${user fio}` or an unclosed `${`). */
export function malformedMacros(template: string): string[] {
  const bad: string[] = [];
  for (const m of template.matchAll(/\$\{([^}]*)(\}|$)/g)) {
    if (m[2] !== '}' || !/^\s*[a-zA-Z_][\w.]*\s*$/.test(m[1])) bad.push(m[0].slice(0, 40));
  }
  return bad;
}
