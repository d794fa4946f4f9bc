// The one policy for HTML written in the rich-text editor (letters, publication texts, service
// descriptions) and shown in the cabinet: the server cleans with sanitize-html when it stores or
// sends such HTML, the browser with DOMPurify before it shows it. Both read this.

/** Text formatting, lists, headings, quotes, tables and links; no scripts, styles, forms, frames or images. */
export const RICH_TEXT_TAGS = [
  'p',
  'br',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'a',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'code',
  'pre',
  'hr',
  'span',
  'mark',
  'sub',
  'sup',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
] as const;

/** Attributes kept, per tag ('*': on every kept tag). */
export const RICH_TEXT_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href', 'target', 'rel'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan'],
  '*': ['style'],
};

/** The only style kept: the editor's paragraph alignment. */
export const RICH_TEXT_STYLES: Record<string, RegExp> = { 'text-align': /^(left|right|center|justify)$/ };

/** Link schemes kept (no javascript:, data:, protocol-relative //host). */
export const RICH_TEXT_SCHEMES = ['http', 'https', 'mailto', 'tel'] as const;

/** Links open in a new tab without access to the opener. */
export const RICH_TEXT_LINK = { rel: 'noopener noreferrer', target: '_blank' } as const;
