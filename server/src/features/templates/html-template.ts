import { Parser } from 'htmlparser2';

/**
 * `<meta http-equiv="refresh">` tags of an HTML template, as [start, end) offsets. A refresh makes the
 * printing browser leave the document while it prints (decision 021): refused when a template is
 * saved, cut out of older ones before printing.
 */
function metaRefreshTags(html: string): [number, number][] {
  const found: [number, number][] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'meta' && (attrs['http-equiv'] ?? '').trim().toLowerCase() === 'refresh') found.push([parser.startIndex, parser.endIndex + 1]);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return found;
}

export function hasMetaRefresh(html: string): boolean {
  return metaRefreshTags(html).length > 0;
}

/** The HTML with every refresh tag cut out and nothing else touched. */
export function withoutMetaRefresh(html: string): string {
  let out = html;
  for (const [start, end] of metaRefreshTags(html).reverse()) out = out.slice(0, start) + out.slice(end);
  return out;
}
