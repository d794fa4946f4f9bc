// The cleaning of a publication text (HTML to the rich-text policy) and its plain text: the one
// code the save uses, in a pool worker (uniqueness-pool.ts `clean`) or in process when the pool is busy.
import { createHash } from 'node:crypto';
import { sanitizeRichHtml } from '../../../platform/rich-html.ts';
import { publicationPlainText } from './plain-text.ts';

export interface CleanedText {
  /** The sanitised HTML, as stored ('' for none). */
  text: string;
  /** Its plain text, trimmed. */
  plain: string;
  /** textDigest(text): a save compares it with the stored text's instead of reading that text back. */
  digest: string | null;
}

export function cleanPublicationText(html: string): CleanedText {
  const text = html ? sanitizeRichHtml(html) : '';
  return { text, plain: text ? publicationPlainText(text).trim() : '', digest: textDigest(text) };
}

/**
 * MD5 of a text's UTF-8 bytes, as the database keeps it in publications.text_digest (`md5(text)`; null for no text): whether a
 * save changes the text is decided by comparing the two, so the 480 000 characters stored are not read
 * back and decoded on the request thread. A match only spares the owner's own check, so MD5 is enough.
 */
export function textDigest(text: string | null): string | null {
  return text ? createHash('md5').update(text, 'utf8').digest('hex') : null;
}
