import { escapeHtml } from '../../platform/html.ts';
import { MACRO_NAMES, MACRO_PATTERN } from './macro-catalogue.ts';

/** What a document shows where a macro has no value: visible, never an empty hole. */
export function missingMarker(name: string): string {
  return `[нет данных: ${name}]`;
}

export interface RenderOptions {
  /** 'html' for HTML templates, mail and notifications; 'none' for plain text (subjects, file names). */
  escape: 'html' | 'none';
  /** A macro without a value: 'keep' leaves the macro text (default), 'marker' prints missingMarker, 'empty' prints nothing (public pages). */
  missing?: 'keep' | 'marker' | 'empty';
}

/**
 * The one renderer of `${name}` macros (and the older `{name}`) for HTML templates, mail and
 * notifications; .docx templates use the same names through docxtemplater (documents/docx.ts).
 */
export function renderMacros(template: string, values: Record<string, string>, opts: RenderOptions): string {
  return template.replace(MACRO_PATTERN, (whole, dollar: string, name: string) => {
    const value = Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined;
    // The older `{name}` is a macro only when it names one; other braces are ordinary text.
    if (!dollar && value === undefined && !MACRO_NAMES.has(name)) return whole;
    if (value === undefined || value === null) {
      if (opts.missing === 'empty') return '';
      if (opts.missing === 'marker') return opts.escape === 'html' ? escapeHtml(missingMarker(name)) : missingMarker(name);
      return whole;
    }
    return opts.escape === 'html' ? escapeHtml(String(value)) : String(value);
  });
}
