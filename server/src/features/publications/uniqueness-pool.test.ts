import { afterAll, describe, expect, it } from 'vitest';
import { PoolBusyError } from '../../platform/worker-pool.ts';
import { createUniquenessPool } from './uniqueness-pool.ts';
import { compare, prepareText, stemCodes, analyse } from './uniqueness/engine.ts';
import { RICH_HTML_CASES } from '@edu/domain/common/rich-html-samples';
import { publicationPlainText } from '@edu/domain/publications/plain-text';
import { sanitizeRichHtml } from '../../platform/rich-html.ts';
import { currentThreadId, threadNiceness } from '../../platform/thread-priority.ts';
import { loadConfig } from '../../platform/config.ts';
import fs from 'node:fs';

const paragraph =
  'Чтобы открыть свойства слоя, щёлкните по нему правой кнопкой мыши и выберите пункт «Свойства» в контекстном меню. ' +
  'Окно покажет имя слоя, его размеры и режим наложения. Режим наложения определяет, как пиксели слоя смешиваются с нижними. ';
const text = (chars: number) => paragraph.repeat(Math.ceil(chars / paragraph.length));

const pool = createUniquenessPool({ size: 1, maxQueue: 1 });
afterAll(() => pool.close());

describe('uniqueness worker pool', () => {
  it('prepares and compares in a worker with the same result as in process', async () => {
    const checked = `Своё вступление о школьных проектах. ${text(3000)}`;
    const source = { id: 7, codes: stemCodes(analyse(text(3000)).tokens) };
    const prepared = await pool.prepare(checked);
    const local = prepareText(checked);
    expect(prepared.codes).toEqual(local.codes);
    expect(prepared.query).toEqual(local.query);
    expect(prepared.stored).toEqual(local.stored);
    const expected = compare(local, [{ id: 7, codes: stemCodes(analyse(text(3000)).tokens) }]);
    expect(await pool.compare(prepared, [source])).toEqual(expected);
    expect(expected.matches.map((m) => m.source)).toEqual([7]);
  });

  it('hands a prepared text over as typed arrays, so crossing threads is a copy of memory, not a walk over objects', async () => {
    // 19 000 fingerprints as objects with a bigint each took 35 ms to clone, half of it on the
    // request thread, for every 480 000-character check (issue 29).
    const prepared = await pool.prepare(`Своё вступление о школьных проектах. ${text(20_000)}`);
    const { text: plain, letters, ...arrays } = prepared;
    expect(typeof plain).toBe('string');
    expect(typeof letters).toBe('number');
    const views = Object.entries(arrays).flatMap(([key, value]) =>
      ArrayBuffer.isView(value) ? [[key, value]] : Object.entries(value).map(([k, v]) => [`${key}.${k}`, v]),
    );
    for (const [key, value] of views) expect(ArrayBuffer.isView(value), key as string).toBe(true);
    expect(prepared.stored.hashes.length).toBeGreaterThan(100);
    expect(prepared.query.positions.length).toBe(prepared.query.hashes.length);
  });

  it('keeps the event loop free while a 500 000-character text is checked', { timeout: 60_000 }, async () => {
    const big = text(500_000);
    let ticks = 0;
    let worstGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worstGap = Math.max(worstGap, now - last);
      last = now;
      ticks++;
    }, 20);
    try {
      const started = performance.now();
      const prepared = await pool.prepare(big);
      const source = { id: 1, codes: prepared.codes.slice() };
      const result = await pool.compare(prepared, [source]);
      const elapsed = performance.now() - started;
      expect(result.uniqueness).toBe(0);
      // The check took a while, and the timer kept firing all along: in process it would not fire
      // until the end (one gap as long as the check). The bounds leave room for a loaded machine.
      expect(elapsed).toBeGreaterThan(200);
      expect(ticks).toBeGreaterThan(elapsed / 20 / 4);
      expect(worstGap).toBeLessThan(elapsed / 2);
    } finally {
      clearInterval(timer);
    }
  });

  it('cleans a publication text in a worker byte for byte as the save cleaned it in process (issue 29)', async () => {
    const samples = [
      ...RICH_HTML_CASES.map((c) => c.html),
      `<p>${text(480_000)}</p><script>alert(1)</script>`,
      '  <p>  пробелы  </p>  ',
      '<p>ё&nbsp;Ё &amp; &lt;тег&gt;</p>',
    ];
    for (const html of samples) {
      const cleaned = await pool.clean(html);
      const inProcess = sanitizeRichHtml(html);
      expect(cleaned.text).toBe(inProcess);
      expect(cleaned.plain).toBe(inProcess ? publicationPlainText(inProcess).trim() : '');
    }
  });

  it('queues at most maxQueue tasks beyond its workers and refuses more at once', async () => {
    const runs = [pool.prepare(text(200_000)), pool.prepare(text(1000)), pool.prepare(text(1000))];
    const settled = await Promise.allSettled(runs);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((settled[2] as PromiseRejectedResult).reason).toBeInstanceOf(PoolBusyError);
    expect(pool.stats()).toEqual({ size: 1, running: 0, queued: 0 });
  });

  it('runs its threads at a lowered scheduling priority, so the request thread wins the CPU (issue 29)', async () => {
    if (process.platform !== 'linux') return;
    const niced = () => fs.readdirSync(`/proc/${process.pid}/task`).filter((tid) => (threadNiceness(Number(tid)) ?? 0) >= 10).length;
    const nice = loadConfig({}).uniqueness.nice;
    expect(nice).toBe(10);
    const before = niced();
    const lowered = createUniquenessPool({ size: 1, maxQueue: 1, nice });
    try {
      await lowered.prepare(text(2000));
      // One more thread of this process runs at niceness 10: the pool's worker (the request thread stays at 0).
      expect(niced()).toBe(before + 1);
      expect(threadNiceness(currentThreadId()!)).toBeLessThan(nice);
    } finally {
      await lowered.close();
    }
  });
});
