import { parse, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const HTML_NS = 'http://www.w3.org/1999/xhtml';

// The template is printed inside the body of a page like this one (render-document.ts, htmlPage);
// it is parsed in the same place so comments, CDATA, foreign content and raw-text elements end where
// the printing browser ends them.
const PAGE_START = '<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>t</title></head><body>';
const PAGE_END = '</body></html>';

function isRefresh(el: Element): boolean {
  if (el.tagName !== 'meta' || el.namespaceURI !== HTML_NS) return false;
  // parse5 lower-cases attribute names and decodes entities in values, as the browser does.
  const equiv = el.attrs.find((a) => a.name === 'http-equiv' && !a.prefix);
  return !!equiv && equiv.value.trim().toLowerCase() === 'refresh';
}

function collect(node: Node, found: [number, number][]): void {
  if ('tagName' in node) {
    const loc = node.sourceCodeLocation;
    if (isRefresh(node) && loc) {
      const tag = loc.startTag ?? loc;
      found.push([tag.startOffset - PAGE_START.length, tag.endOffset - PAGE_START.length]);
    }
    // An inert <template>'s content is looked at too: refusing it costs nothing.
    if (node.tagName === 'template' && 'content' in node) collect(node.content as Node, found);
  }
  if ('childNodes' in node) for (const child of node.childNodes) collect(child, found);
}

/**
 * `<meta http-equiv="refresh">` tags of an HTML template, as [start, end) offsets in it. A refresh
 * makes the printing browser leave the document while it prints (decision 021): refused when a
 * template is saved, cut out before printing. Found with an HTML5 parser (parse5) following the
 * rules Chromium follows: `<![CDATA[>` and `--!>` end what they end in a browser, `<meta>` breaks out
 * of `<svg>`/`<math>`, and `<noscript>` holds markup (the printing page runs without scripts).
 */
function metaRefreshTags(html: string): [number, number][] {
  const document = parse(PAGE_START + html + PAGE_END, { sourceCodeLocationInfo: true, scriptingEnabled: false });
  const found: [number, number][] = [];
  collect(document, found);
  // Only tags written in the template (the page's own head has none).
  return found.filter(([start, end]) => start >= 0 && end <= html.length).sort((a, b) => a[0] - b[0]);
}

export function hasMetaRefresh(html: string): boolean {
  return metaRefreshTags(html).length > 0;
}

/**
 * The HTML with every refresh tag cut out and nothing else touched. Cutting joins what was around a
 * tag, which could make a new tag; the HTML is parsed again until no refresh is left (each round is
 * shorter, so this ends).
 */
export function withoutMetaRefresh(html: string): string {
  let out = html;
  for (let tags = metaRefreshTags(out); tags.length; tags = metaRefreshTags(out)) {
    for (const [start, end] of tags.reverse()) out = out.slice(0, start) + out.slice(end);
  }
  return out;
}
