import { describe, expect, it } from 'vitest';
import { RICH_HTML_CASES } from '@edu/domain/common/rich-html-samples';
import { sanitizeRichHtml } from './rich-html.ts';

// The same cases as the browser's cleaner (web/src/lib/sanitize-html.test.ts): one policy, two cleaners.
describe('sanitizeRichHtml (sanitize-html with the rich-text policy)', () => {
  for (const c of RICH_HTML_CASES) {
    it(c.name, () => {
      const clean = sanitizeRichHtml(c.html);
      for (const kept of c.keeps) expect(clean).toContain(kept);
      for (const dropped of c.drops) expect(clean.toLowerCase()).not.toContain(dropped);
    });
  }
});
