import sanitizeHtml from 'sanitize-html';

/**
 * What a letter written in the rich-text editor may contain: text formatting, lists, headings,
 * quotes and links. Scripts, styles, forms, frames, images from anywhere and event handlers are
 * dropped; links may only be http(s), mailto and tel.
 */
const LETTER_POLICY: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'a', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'blockquote', 'code', 'pre', 'hr', 'span', 'mark', 'sub', 'sup'],
  allowedAttributes: { a: ['href', 'target', 'rel'], '*': ['style'] },
  allowedStyles: { '*': { 'text-align': [/^(left|right|center|justify)$/] } },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
};

export function sanitizeLetterHtml(html: string): string {
  return sanitizeHtml(html, LETTER_POLICY).trim();
}
