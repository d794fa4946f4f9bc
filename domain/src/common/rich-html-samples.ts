// Cases of the rich-text policy that the server's cleaner (sanitize-html) and the browser's
// (DOMPurify) are both tested with: what must stay and what must go.

export interface RichHtmlCase {
  name: string;
  html: string;
  /** Substrings the cleaned HTML keeps. */
  keeps: string[];
  /** Substrings (lower case) the cleaned HTML must not contain. */
  drops: string[];
}

export const RICH_HTML_CASES: RichHtmlCase[] = [
  {
    name: 'formatting and lists stay',
    html: '<p><b>Жирный</b> и <i>курсив</i></p><ul><li>пункт</li></ul>',
    keeps: ['<b>Жирный</b>', '<i>курсив</i>', '<li>пункт</li>'],
    drops: [],
  },
  {
    name: 'a script goes with its text',
    html: '<p>до</p><script>alert(1)</script><p>после</p>',
    keeps: ['<p>до</p>', '<p>после</p>'],
    drops: ['<script', 'alert'],
  },
  {
    name: 'event handlers go',
    html: '<p onclick="alert(1)">текст</p><a href="https://example.org" onmouseover="x()">ссылка</a>',
    keeps: ['текст', 'href="https://example.org"'],
    drops: ['onclick', 'onmouseover'],
  },
  { name: 'images go', html: '<p>фото<img src="x" onerror="alert(1)"></p>', keeps: ['фото'], drops: ['<img', 'onerror'] },
  {
    name: 'javascript: and data: links lose their address',
    html: '<a href="javascript:alert(1)">a</a><a href="JaVaScRiPt:alert(2)">b</a><a href="data:text/html,x">c</a>',
    keeps: ['>a</a>', '>b</a>'],
    drops: ['javascript:', 'data:'],
  },
  {
    name: 'links open in a new tab without the opener',
    html: '<a href="https://example.org/x">сайт</a>',
    keeps: ['href="https://example.org/x"', 'target="_blank"', 'noopener'],
    drops: [],
  },
  {
    name: 'mailto and tel links stay',
    html: '<a href="mailto:info@example.org">почта</a> <a href="tel:+78120000000">телефон</a>',
    keeps: ['mailto:info@example.org', 'tel:+78120000000'],
    drops: [],
  },
  {
    name: 'only alignment stays of styles',
    html: '<p style="text-align: center; color: red; background: url(javascript:alert(1))">центр</p>',
    keeps: ['text-align', 'center', 'центр'],
    drops: ['color', 'background', 'javascript'],
  },
  {
    name: 'forms, frames and styles go',
    html: '<style>p{}</style><iframe src="https://evil.example"></iframe><form><input value="x"></form><p>текст</p>',
    keeps: ['<p>текст</p>'],
    drops: ['<style', '<iframe', '<form', '<input'],
  },
  {
    name: 'tables stay with their spans',
    html: '<table><tbody><tr><td colspan="2">ячейка</td></tr></tbody></table>',
    keeps: ['<table>', 'colspan="2"', 'ячейка'],
    drops: [],
  },
  { name: 'classes and ids go', html: '<p class="x" id="y">текст</p>', keeps: ['текст'], drops: ['class=', 'id='] },
];
