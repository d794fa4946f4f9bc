// HTML written by operators and clients (descriptions, notifications, publication texts) is cleaned
// by DOMPurify before it is shown, to the same policy the server stores it with
// (domain/common/rich-html-policy.ts); texts stored before that policy are cleaned here too.
import DOMPurify from 'dompurify';
import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_LINK, RICH_TEXT_SCHEMES, RICH_TEXT_STYLES, RICH_TEXT_TAGS } from '@edu/domain/common/rich-html-policy';

const ATTRIBUTES = [...new Set(Object.values(RICH_TEXT_ATTRIBUTES).flat())];
const SAFE_URL = new RegExp(`^(?:(?:${RICH_TEXT_SCHEMES.join('|')}):|[^a-z]|[a-z+.-]+(?:[^a-z+.:-]|$))`, 'i');

let purifier: ReturnType<typeof DOMPurify> | null = null;

/** One DOMPurify with the policy's hooks: attributes only on their own tags, alignment only, links to a new tab. */
function policyPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook('uponSanitizeAttribute', (node, data) => {
    const tag = node.nodeName.toLowerCase();
    const allowed = RICH_TEXT_ATTRIBUTES[tag]?.includes(data.attrName) || RICH_TEXT_ATTRIBUTES['*']?.includes(data.attrName);
    if (!allowed) {
      data.keepAttr = false;
      return;
    }
    if (data.attrName === 'href' && data.attrValue.trim().startsWith('//')) data.keepAttr = false;
    if (data.attrName === 'style') {
      const kept = data.attrValue
        .split(';')
        .map((rule) => rule.split(':').map((part) => part.trim().toLowerCase()))
        .filter(([name, value]) => name && value !== undefined && RICH_TEXT_STYLES[name]?.test(value))
        .map(([name, value]) => `${name}: ${value}`);
      if (kept.length) data.attrValue = kept.join('; ');
      else data.keepAttr = false;
    }
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      node.setAttribute('target', RICH_TEXT_LINK.target);
      node.setAttribute('rel', RICH_TEXT_LINK.rel);
    }
  });
  purifier = p;
  return p;
}

/** HTML without scripts, event handlers, styles other than alignment, images and javascript: links. */
export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return '';
  return policyPurifier().sanitize(html, { ALLOWED_TAGS: [...RICH_TEXT_TAGS], ALLOWED_ATTR: ATTRIBUTES, ALLOWED_URI_REGEXP: SAFE_URL });
}
