import { describe, expect, it } from 'vitest';
import { RICH_HTML_CASES } from '@edu/domain/common/rich-html-samples';
import { sanitizeHtml } from './sanitize-html';

describe('sanitizeHtml (DOMPurify with the rich-text policy)', () => {
  for (const c of RICH_HTML_CASES) {
    it(c.name, () => {
      const clean = sanitizeHtml(c.html);
      for (const kept of c.keeps) expect(clean).toContain(kept);
      for (const dropped of c.drops) expect(clean.toLowerCase()).not.toContain(dropped);
    });
  }

  it('nothing in, nothing out', () => {
    expect(sanitizeHtml(null)).toBe('');
    expect(sanitizeHtml('')).toBe('');
  });
});
