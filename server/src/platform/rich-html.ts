import sanitizeHtml from 'sanitize-html';
import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_LINK, RICH_TEXT_SCHEMES, RICH_TEXT_STYLES, RICH_TEXT_TAGS } from '@edu/domain/common/rich-html-policy';

/**
 * The rich-text policy of domain/common/rich-html-policy.ts for sanitize-html: letters (mass
 * mailing), publication texts and service descriptions (shown in the cabinet and sent to the site).
 */
const RICH_TEXT_POLICY: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(RICH_TEXT_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
  allowedStyles: { '*': Object.fromEntries(Object.entries(RICH_TEXT_STYLES).map(([name, value]) => [name, [value]])) },
  allowedSchemes: [...RICH_TEXT_SCHEMES],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { ...RICH_TEXT_LINK }) },
};

/** HTML from the rich-text editor (or pasted by hand), cleaned to the rich-text policy. */
export function sanitizeRichHtml(html: string): string {
  return sanitizeHtml(html, RICH_TEXT_POLICY).trim();
}
