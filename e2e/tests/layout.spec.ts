import { expect, test, type Page } from '../support/test.ts';
import { openScreen, SCREENS, WIDTHS } from '../support/app-screens.ts';
import { shot } from '../support/screens.ts';
import { DEMO_OPERATOR, DEMO_PASSWORD, DEMO_USER, login } from '../support/session.ts';

// Every existing screen at 1280 and 390 px: the page never scrolls sideways, no table scrolls
// sideways on a wide screen, and no button's or badge's text is clipped. Screenshots are kept in
// e2e/output/layout-<who>-<name>-<width>.png. A new screen is one line in SCREENS
// (support/app-screens.ts).

/** What is wrong with the layout of the page as it is now; empty when nothing. */
async function layoutProblems(page: Page, wide: boolean): Promise<string[]> {
  return page.evaluate((isWide) => {
    const problems: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) problems.push(`the page scrolls sideways (${doc.scrollWidth} > ${doc.clientWidth})`);
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const name = (el: Element) => (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    if (isWide) {
      for (const el of Array.from(document.querySelectorAll('table'))) {
        // Mantine's scroll container scrolls in its viewport (the root itself never overflows).
        const container = el.closest('.mantine-Table-scrollContainer');
        const box = container?.querySelector('.mantine-ScrollArea-viewport') ?? container ?? el.parentElement;
        if (box && visible(box) && box.scrollWidth > box.clientWidth + 1)
          problems.push(`a table scrolls sideways (${box.scrollWidth} > ${box.clientWidth}): ${name(el).slice(0, 30)}`);
        // Its last column in view (the request log's «Ответ» was pushed out, issue 22).
        const last = el.querySelector('thead tr > :last-child');
        if (last && visible(last) && box && last.getBoundingClientRect().right > box.getBoundingClientRect().right + 1)
          problems.push(`the last column "${name(last)}" is out of view`);
      }
    }
    // Nothing sticks out of its table cell over the next column (the role badge «Пользовател», issue 22).
    for (const td of Array.from(document.querySelectorAll('td'))) {
      if (visible(td) && td.scrollWidth > td.clientWidth + 1)
        problems.push(`a cell's content sticks out of it (${td.scrollWidth} > ${td.clientWidth}): "${name(td)}"`);
    }
    // A chosen value shows whole in its select (read-only inputs: 'Другие города', not 'Другие го…').
    for (const el of Array.from(document.querySelectorAll<HTMLInputElement>('input[readonly].mantine-Input-input, .mantine-Select-input[readonly]'))) {
      if (visible(el) && el.value && el.scrollWidth > el.clientWidth + 1)
        problems.push(`a select cuts its value "${el.value.slice(0, 40)}" (${el.scrollWidth} > ${el.clientWidth})`);
    }
    // A floating button (the wizard's «Сохранить») never lies over a field.
    for (const fixed of Array.from(document.querySelectorAll('.mantine-Affix-root'))) {
      const f = fixed.getBoundingClientRect();
      if (!visible(fixed)) continue;
      for (const field of Array.from(document.querySelectorAll('input:not([type="hidden"]), textarea, [contenteditable="true"]'))) {
        const r = field.getBoundingClientRect();
        if (visible(field) && r.left < f.right && r.right > f.left && r.top < f.bottom && r.bottom > f.top)
          problems.push(`a floating button covers a field: "${name(fixed)}"`);
      }
    }
    // Text cut with an ellipsis keeps the whole value on hover.
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      if (el.children.length > 0 || !visible(el)) continue;
      const style = getComputedStyle(el);
      const cut = el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible' && style.textOverflow === 'ellipsis';
      if (cut && !el.closest('[title]') && !el.closest('input, textarea')) problems.push(`text cut without the whole value on hover: "${name(el)}"`);
    }
    const labels = document.querySelectorAll(
      '.mantine-Button-label, .mantine-Badge-label, .mantine-Button-inner, .mantine-Badge-root, .mantine-Tabs-tabLabel, .mantine-SegmentedControl-label',
    );
    for (const el of Array.from(labels)) {
      if (!visible(el)) continue;
      if (el.scrollWidth > el.clientWidth + 1) problems.push(`clipped text "${name(el)}" (${el.scrollWidth} > ${el.clientWidth})`);
    }
    // A word is never broken inside ('профессионально / й'): each word of 4+ letters of the
    // visible text lies on one line.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !visible(parent) || parent.closest('input, textarea, [contenteditable], .mantine-Code-root, pre, code')) continue;
      const text = node.textContent ?? '';
      // Addresses (links, e-mails) may wrap anywhere: they have no words to keep whole.
      if (/:\/\/|@/.test(text)) continue;
      for (const m of text.matchAll(/[A-Za-zА-Яа-яЁё]{4,}/g)) {
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set(
          Array.from(range.getClientRects())
            .filter((r) => r.width > 0)
            .map((r) => Math.round(r.top)),
        );
        if (lines.size > 1) problems.push(`a word broken inside: "${m[0]}" in "${name(parent)}"`);
      }
    }
    return [...new Set(problems)];
  }, wide);
}

for (const who of ['guest', 'user', 'operator'] as const) {
  for (const size of WIDTHS) {
    test(`layout of ${who} screens at ${size.width} px`, async ({ page }) => {
      await page.setViewportSize(size);
      if (who !== 'guest') await login(page, who === 'user' ? DEMO_USER : DEMO_OPERATOR, DEMO_PASSWORD);
      const found: string[] = [];
      for (const screen of SCREENS.filter((s) => s.who === who)) {
        await openScreen(page, screen);
        await shot(page, `layout-${who}-${screen.name}-${size.width}`);
        for (const p of await layoutProblems(page, size.width > 1199)) found.push(`${screen.path} at ${size.width} px: ${p}`);
      }
      expect(found, found.join('\n')).toEqual([]);
    });
  }
}
