// A small HTML cleaner for texts written by operators (service descriptions, notifications).
// The browser parses the text into an inert document; dangerous elements are dropped and only
// harmless attributes are kept. No scripts run while parsing a DOMParser document.

const DROP = new Set(['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'FRAME', 'FRAMESET', 'LINK', 'META', 'BASE', 'FORM', 'INPUT', 'BUTTON', 'TEXTAREA', 'SELECT', 'SVG', 'MATH', 'TEMPLATE', 'NOSCRIPT']);
const ALLOWED_ATTRS = new Set(['href', 'src', 'alt', 'title', 'target', 'rel', 'colspan', 'rowspan', 'width', 'height', 'class']);
const URL_ATTRS = new Set(['href', 'src']);
const SAFE_URL = /^(https?:|mailto:|tel:|\/|#|\.{0,2}\/|[^:]*$)/i;

function clean(node: Element): void {
  for (const child of Array.from(node.children)) {
    if (DROP.has(child.tagName.toUpperCase())) {
      child.remove();
      continue;
    }
    for (const attr of Array.from(child.attributes)) {
      const name = attr.name.toLowerCase();
      const value = Array.from(attr.value)
        .filter((ch) => ch.charCodeAt(0) > 32)
        .join('');
      if (!ALLOWED_ATTRS.has(name) || (URL_ATTRS.has(name) && !SAFE_URL.test(value))) child.removeAttribute(attr.name);
    }
    if (child.tagName === 'A' && child.getAttribute('target') === '_blank') child.setAttribute('rel', 'noopener noreferrer');
    clean(child);
  }
}

/** Returns HTML without scripts, event handlers, styles and javascript: links. */
export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  clean(doc.body);
  return doc.body.innerHTML;
}
