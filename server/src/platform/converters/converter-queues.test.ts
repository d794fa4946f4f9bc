import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { PrintMessages } from '@edu/domain/documents/print';
import { ConverterBusy, ConverterUnavailable } from './converter-errors.ts';
import { FairQueue } from './fair-queue.ts';
import { HtmlPdfConverter } from './html-pdf.ts';
import { LOW_PRIORITY_NICE } from '../thread-priority.ts';
import { makeDocx } from './minimal-docx.ts';
import { OfficeConverterPool } from './office-converter.ts';
import { pdfText } from '../../../test/documents-fixtures.ts';

// The converters' queues (decision 021): owners are served in turn, so one account's burst does not
// delay another's single document by more than about one document; at most `queueLimit` documents
// wait, one more is refused at once (503) instead of the queue growing without end.

describe('FairQueue', () => {
  it('serves owners in turn, each in its own order', () => {
    const q = new FairQueue<string>(100);
    for (let i = 1; i <= 4; i++) q.push('a', `a${i}`);
    q.push('b', 'b1');
    q.push('c', 'c1');
    q.push('b', 'b2');
    const order: string[] = [];
    for (let item = q.shift(); item !== undefined; item = q.shift()) {
      order.push(item);
      // 'a' keeps adding while it is served: still one turn each.
      if (item === 'a1') q.push('a', 'a5');
    }
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4', 'a5']);
    expect(q.length).toBe(0);
  });

  it('refuses past its limit, except unbounded pushes', () => {
    const q = new FairQueue<number>(2);
    q.push('a', 1);
    q.push('b', 2);
    expect(() => q.push('c', 3)).toThrow(ConverterBusy);
    expect(() => q.push('c', 3)).toThrow(PrintMessages.printQueueFull);
    q.push('job', 4, { bounded: false });
    expect(q.length).toBe(3);
    expect(q.drain()).toEqual([1, 2, 4]);
    expect(q.length).toBe(0);
  });
});

/** Completion order of the promises, by label. */
function completionOrder(items: [string, Promise<unknown>][]): Promise<string[]> {
  const order: string[] = [];
  return Promise.all(items.map(([label, p]) => p.then(() => order.push(label)))).then(() => order);
}

describe('LibreOffice pool queue', () => {
  const pool = new OfficeConverterPool({ size: 1, queueLimit: 6 });
  afterAll(() => pool.close());

  it("serves another account's single document after at most one of a burst", async () => {
    await pool.warm();
    const burst: [string, Promise<unknown>][] = Array.from({ length: 5 }, (_, i) => [`a${i + 1}`, pool.toPdf(makeDocx([`Пакет ${i + 1}`]), { key: 'user:1' })]);
    const single: [string, Promise<unknown>] = ['b1', pool.toPdf(makeDocx(['Один документ']), { key: 'user:2' })];
    // a1 converts, a2..a5 wait, then b1 arrives: b1 goes right after a2, the one waiting ahead of it.
    expect(await completionOrder([...burst, single])).toEqual(['a1', 'a2', 'b1', 'a3', 'a4', 'a5']);
  }, 180_000);

  it('refuses a document at once when the queue is full, and queues a job lane anyway', async () => {
    const small = new OfficeConverterPool({ size: 1, queueLimit: 1 });
    try {
      const converting = small.toPdf(makeDocx(['Первый']), { key: 'user:1' });
      const waiting = small.toPdf(makeDocx(['Второй']), { key: 'user:2' });
      const refused = await small.toPdf(makeDocx(['Третий']), { key: 'user:3' }).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ConverterBusy);
      expect(refused).toBeInstanceOf(ConverterUnavailable);
      expect((refused as Error).message).toBe(PrintMessages.printQueueFull);
      const lane = small.toPdf(makeDocx(['Задание']), { key: 'job', bounded: false });
      await Promise.all([converting, waiting, lane]);
    } finally {
      await small.close();
    }
  }, 180_000);
});

describe('Chromium queue', () => {
  const html = new HtmlPdfConverter({ executablePath: '/usr/bin/chromium', concurrency: 1, queueLimit: 6 });
  afterAll(() => html.close());
  const page = (text: string) => `<!doctype html><meta charset="utf-8"><h1>${text}</h1>`;

  it("serves another account's single document after at most one of a burst", async () => {
    await html.toPdf(page('Запуск'));
    const burst: [string, Promise<unknown>][] = Array.from({ length: 5 }, (_, i) => [`a${i + 1}`, html.toPdf(page(`Пакет ${i + 1}`), { key: 'user:1' })]);
    const single: [string, Promise<unknown>] = ['b1', html.toPdf(page('Один документ'), { key: 'user:2' })];
    expect(await completionOrder([...burst, single])).toEqual(['a1', 'a2', 'b1', 'a3', 'a4', 'a5']);
  }, 180_000);

  it('refuses a document at once when the queue is full', async () => {
    const small = new HtmlPdfConverter({ executablePath: '/usr/bin/chromium', concurrency: 1, queueLimit: 1 });
    try {
      const converting = small.toPdf(page('Первый'), { key: 'user:1' });
      const waiting = small.toPdf(page('Второй'), { key: 'user:2' });
      const refused = await small.toPdf(page('Третий'), { key: 'user:3' }).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ConverterBusy);
      await Promise.all([converting, waiting]);
    } finally {
      await small.close();
    }
  }, 180_000);

  /** Process ids of the renderers of this process's Chromiums (a new context and page start one); other test files run browsers too. */
  const renderers = () => {
    const parent = new Map<string, string>();
    for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        parent.set(pid, stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      } catch {
        // Gone meanwhile.
      }
    }
    const mine = (pid: string): boolean => {
      for (let p = parent.get(pid); p && p !== '0'; p = parent.get(p)) if (p === String(process.pid)) return true;
      return false;
    };
    return [...parent.keys()].filter((pid) => {
      try {
        return mine(pid) && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
      } catch {
        return false;
      }
    });
  };

  it('keeps its page between documents: the next one starts no renderer, and shows nothing of the one before (decision 045)', async () => {
    if (process.platform !== 'linux') return;
    // The renderers of the file's other converters (tests in a file run one after another).
    const others = renderers();
    const own = () => renderers().filter((pid) => !others.includes(pid));
    const one = new HtmlPdfConverter({ executablePath: '/usr/bin/chromium', concurrency: 1, queueLimit: 4 });
    try {
      const secret = `<!doctype html><meta charset="utf-8"><style>body { display: none }</style><title>Паспорт</title><h1>Паспорт 4510 123456 Иванова</h1>`;
      expect(pdfText(await one.toPdf(secret, { key: 'user:1' }))).not.toContain('Паспорт');
      const kept = own();
      const text = pdfText(await one.toPdf(page('Список Петрова'), { key: 'user:2' }));
      // The second account's document alone: none of the first's text, none of its hiding style.
      expect(text).toContain('Список Петрова');
      expect(text).not.toMatch(/Паспорт|Иванова|4510/);
      // The first document's renderer stayed open and made the second.
      expect(kept.length).toBeGreaterThan(0);
      expect(own()).toEqual(kept);
    } finally {
      await one.close();
    }
  }, 180_000);

  it('prints the next document on a kept page as itself after a document with a refresh', async () => {
    const one = new HtmlPdfConverter({ executablePath: '/usr/bin/chromium', concurrency: 1, queueLimit: 4 });
    try {
      // The print cuts refreshes out of filled templates; the converter must not depend on it.
      const refresh = `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=data:text/html;charset=utf-8,<h1>Подмена</h1>"><h1>Первый</h1>`;
      expect(pdfText(await one.toPdf(refresh))).toContain('Первый');
      expect(pdfText(await one.toPdf(page('Второй')))).toBe('Второй ');
      expect(pdfText(await one.toPdf(page('Третий')))).toBe('Третий ');
    } finally {
      await one.close();
    }
  }, 180_000);

  it('opens a new page after its documentsPerPage documents', async () => {
    if (process.platform !== 'linux') return;
    const others = renderers();
    const own = () => renderers().filter((pid) => !others.includes(pid));
    const one = new HtmlPdfConverter({ executablePath: '/usr/bin/chromium', concurrency: 1, queueLimit: 4, documentsPerPage: 3 });
    try {
      await one.toPdf(page('Первый'));
      const first = own();
      await one.toPdf(page('Второй'));
      expect(first.length).toBeGreaterThan(0);
      expect(own()).toEqual(first);
      // The page has made its three documents: it is closed, and the fourth gets a new renderer.
      await one.toPdf(page('Третий'));
      await one.toPdf(page('Четвёртый'));
      const fourth = own();
      expect(fourth.length).toBeGreaterThan(0);
      expect(fourth.filter((pid) => first.includes(pid))).toEqual([]);
    } finally {
      await one.close();
    }
  }, 180_000);

  it("renders a free account's document (a low owner) in a Chromium at a lower CPU priority, others' at the usual one (issue 29)", async () => {
    if (process.platform !== 'linux') return;
    /** Niceness of this process's Chromium children (the browsers Playwright started). */
    const browsers = () =>
      fs
        .readdirSync('/proc')
        .filter((d) => /^\d+$/.test(d))
        .flatMap((pid) => {
          try {
            const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
            const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
            const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
            return Number(f[1]) === process.pid && cmd.includes('chromium') ? [Number(f[16])] : [];
          } catch {
            return [];
          }
        });
    const count = (list: number[], nice: number) => list.filter((n) => n === nice).length;
    const before = browsers();
    const two = new HtmlPdfConverter({ executablePath: '/usr/bin/chromium', concurrency: 2, queueLimit: 4 });
    try {
      const pdfs = await Promise.all([two.toPdf(page('Платный'), { key: 'user:1' }), two.toPdf(page('Бесплатный'), { key: 'user:2', low: true })]);
      for (const pdf of pdfs) expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      // Two more browsers: the free accounts' at LOW_PRIORITY_NICE, the usual one below it (0, or -8
      // run as root: Chromium raises its main thread's priority when it may).
      const after = browsers();
      const usual = (list: number[]) => list.filter((n) => n < LOW_PRIORITY_NICE).length;
      expect(count(after, LOW_PRIORITY_NICE)).toBe(count(before, LOW_PRIORITY_NICE) + 1);
      expect(usual(after)).toBe(usual(before) + 1);
    } finally {
      await two.close();
    }
  }, 180_000);
});
