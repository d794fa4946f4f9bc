// The cleaning of a publication text (HTML to the rich-text policy) and its plain text: the one
// code the save uses, in a pool worker (uniqueness-pool.ts `clean`) or in process when the pool is busy.
import { sanitizeRichHtml } from '../../../platform/rich-html.ts';
import { publicationPlainText } from './plain-text.ts';

export interface CleanedText {
  /** The sanitised HTML, as stored ('' for none). */
  text: string;
  /** Its plain text, trimmed. */
  plain: string;
}

export function cleanPublicationText(html: string): CleanedText {
  const text = html ? sanitizeRichHtml(html) : '';
  return { text, plain: text ? publicationPlainText(text).trim() : '' };
}
