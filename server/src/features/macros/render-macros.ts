import { escapeHtml } from '../../platform/html.ts';
import { MACRO_NAMES, MACRO_PATTERN } from './macro-catalogue.ts';

/**
 * What a printed document shows where a macro has no value: a line to fill by hand, as paper forms
 * have, never the macro's internal name (decision 031). Personal data a client fills themselves
 * never get here: a document that needs them is refused until they are filled (personal-data.ts).
 */
export const BLANK_LINE = '________________';

export interface RenderOptions {
  /** 'html' for HTML templates, mail and notifications; 'none' for plain text (subjects, file names). */
  escape: 'html' | 'none';
  /** A macro without a value: 'keep' leaves the macro text (default), 'blank' prints BLANK_LINE (documents), 'empty' prints nothing (public pages). */
  missing?: 'keep' | 'blank' | 'empty';
  /** Macros whose markup is inserted as it is (the QR code's <img> of `${cert.qr}`), when the macro has a value. */
  raw?: Record<string, string>;
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
      if (opts.missing === 'blank') return BLANK_LINE;
      return whole;
    }
    if (opts.raw && Object.prototype.hasOwnProperty.call(opts.raw, name)) return opts.raw[name];
    return opts.escape === 'html' ? escapeHtml(String(value)) : String(value);
  });
}
