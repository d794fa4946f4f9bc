import sanitizeHtml from 'sanitize-html';

/**
 * The one policy for HTML written in the rich-text editor, wherever it is kept: letters (mass
 * mailing), publication texts and service descriptions (shown in the cabinet and sent to the site).
 * Text formatting, lists, headings, quotes, tables and links stay; scripts, styles, forms, frames,
 * images and event handlers are dropped; links may only be http(s), mailto and tel, and open in a
 * new tab without access to the opener.
 */
const RICH_TEXT_POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'a', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'code', 'pre', 'hr',
    'span', 'mark', 'sub', 'sup', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
  ],
  allowedAttributes: { a: ['href', 'target', 'rel'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'], '*': ['style'] },
  allowedStyles: { '*': { 'text-align': [/^(left|right|center|justify)$/] } },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
};

/** HTML from the rich-text editor (or pasted by hand), cleaned to RICH_TEXT_POLICY. */
export function sanitizeRichHtml(html: string): string {
  return sanitizeHtml(html, RICH_TEXT_POLICY).trim();
}
