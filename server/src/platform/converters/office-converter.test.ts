import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConverterTimeout, ConverterUnavailable } from './converter-errors.ts';
import { makeDocx } from './minimal-docx.ts';
import { OfficeConverterPool } from './office-converter.ts';
import { LOW_PRIORITY_NICE } from '../thread-priority.ts';

// The LibreOffice pool's recycling (decision 006): a process is replaced after `maxDocuments`
// documents and when a conversion hangs past `timeoutMs`. Real LibreOffice (scripts/test-all.mjs
// installs it), one process, small limits.

let pool: OfficeConverterPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

const isPdf = (b: Buffer) => b.subarray(0, 5).toString('latin1') === '%PDF-';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

/** Live members of the process group `pgid` (zombies waiting to be reaped do not count). */
function groupMembers(pgid: number): string[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .flatMap((n) => {
      try {
        const stat = readFileSync(`/proc/${n}/stat`, 'utf8');
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(pgrp) === pgid && state !== 'Z' && state !== 'X' ? [stat.slice(0, stat.lastIndexOf(')') + 1)] : [];
      } catch {
        return [];
      }
    });
}

/** The niceness of every thread of every live process in the group `pgid` (field 19 of each task's stat). */
function groupNiceness(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .flatMap((n) => {
      try {
        const stat = readFileSync(`/proc/${n}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) return [];
        return readdirSync(`/proc/${n}/task`).map((tid) => {
          const t = readFileSync(`/proc/${n}/task/${tid}/stat`, 'utf8');
          return Number(t.slice(t.lastIndexOf(')') + 2).split(' ')[19 - 3]);
        });
      } catch {
        return [];
      }
    });
}

async function groupGone(pgid: number, ms = 5000): Promise<string[]> {
  const end = Date.now() + ms;
  while (groupMembers(pgid).length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  return groupMembers(pgid);
}

describe('LibreOffice converter pool', () => {
  it('on close finishes the document being converted, fails the waiting ones and ends its whole process group', async () => {
    pool = new OfficeConverterPool({ size: 1 });
    expect(isPdf(await pool.toPdf(makeDocx(['Первый'])))).toBe(true);
    // The pool marks the process free right after it answers.
    await new Promise((r) => setImmediate(r));
    // Taken at once by the process; the second one waits in the queue.
    const inFlight = pool.toPdf(makeDocx(['В работе при остановке']));
    const waiting = pool.toPdf(makeDocx(['В очереди'])).then(
      () => null,
      (err: unknown) => err,
    );
    const [bridge] = pool.pids();
    const closed = pool.close();
    expect(isPdf(await inFlight)).toBe(true);
    expect(await waiting).toBeInstanceOf(ConverterUnavailable);
    await closed;
    // Not the bridge, nor oosplash, nor soffice.bin.
    expect(await groupGone(bridge)).toEqual([]);
    await expect(pool.toPdf(makeDocx(['После остановки']))).rejects.toBeInstanceOf(ConverterUnavailable);
    expect(pool.pids()).toEqual([]);
  }, 180_000);

  it('on close while LibreOffice is still starting ends it at once, not after the grace period', async () => {
    // A LibreOffice that takes a minute to come up (a loaded machine): the bridge waits for it and
    // does not read its input yet.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'edu-slow-office-'));
    const slow = path.join(dir, 'soffice');
    writeFileSync(slow, '#!/bin/sh\nexec sleep 60\n', { mode: 0o755 });
    pool = new OfficeConverterPool({ size: 1, soffice: slow });
    const inFlight = pool.toPdf(makeDocx(['Не дождался'])).then(
      () => null,
      (err: unknown) => err,
    );
    const [bridge] = pool.pids();
    // The bridge has started its "soffice" (same process group).
    while (!groupMembers(bridge).some((p) => p.includes('(sleep)'))) await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    await pool.close();
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await inFlight).toBeInstanceOf(ConverterUnavailable);
    expect(await groupGone(bridge)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  }, 180_000);

  // Raising a niceness back needs CAP_SYS_NICE: as another user the converter is never lowered at all.
  it.skipIf(process.getuid?.() !== 0)(
    "converts a free account's document with every LibreOffice thread at LOW_PRIORITY_NICE, the next one back at 0 (issue 29)",
    async () => {
      pool = new OfficeConverterPool({ size: 1 });
      await pool.warm();
      const [bridge] = pool.pids();
      const base = os.getPriority();
      const before = groupNiceness(bridge);
      expect(before.length).toBeGreaterThan(3); // the bridge, oosplash, soffice.bin and its threads
      expect(new Set(before)).toEqual(new Set([base]));

      expect(isPdf(await pool.toPdf(makeDocx(['Бесплатный']), { key: 'user:1', low: true }))).toBe(true);
      const low = groupNiceness(bridge);
      expect(new Set(low)).toEqual(new Set([base + LOW_PRIORITY_NICE]));

      expect(isPdf(await pool.toPdf(makeDocx(['Платный']), { key: 'user:2' }))).toBe(true);
      expect(new Set(groupNiceness(bridge))).toEqual(new Set([base]));
    },
    180_000,
  );

  it('replaces a process after maxDocuments documents', async () => {
    pool = new OfficeConverterPool({ size: 1, maxDocuments: 2 });
    expect(pool.missing()).toBeNull();
    const pids: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const pdf = await pool.toPdf(makeDocx([`Документ ${i}`]));
      expect(isPdf(pdf)).toBe(true);
      pids.push(...pool.pids());
    }
    // Documents 1 and 2 on the first process, which is then stopped; document 3 on a new one.
    expect(pids[0]).toBe(pids[1]);
    expect(pids[2]).not.toBe(pids[0]);
    expect(pool.replaced).toBe(1);
    expect(pool.converted).toBe(3);
    expect(await gone(pids[0])).toBe(true);
  }, 180_000);

  it('kills a hung process, fails that document with a clear message and converts the next one', async () => {
    pool = new OfficeConverterPool({ size: 1, timeoutMs: 6000 });
    // A first document, so the process is up and Writer loaded.
    expect(isPdf(await pool.toPdf(makeDocx(['Перед зависанием'])))).toBe(true);
    const [hung] = pool.pids();
    // Hang it for real: the bridge (and its soffice, same process group) stop reading and answering.
    process.kill(-hung, 'SIGSTOP');
    const started = Date.now();
    const failed = await pool.toPdf(makeDocx(['Зависший документ'])).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(ConverterTimeout);
    // Answered 503 with this text by the print routes (ConverterUnavailable).
    expect(failed).toBeInstanceOf(ConverterUnavailable);
    expect((failed as Error).message).toBe('Документ не удалось преобразовать в PDF за 6 с: конвертер перезапущен, попробуйте ещё раз');
    expect(Date.now() - started).toBeGreaterThanOrEqual(5900);
    // Killed (a stopped process still dies of SIGKILL), not left behind.
    expect(await gone(hung)).toBe(true);
    const next = await pool.toPdf(makeDocx(['После зависания']));
    expect(isPdf(next)).toBe(true);
    expect(pool.pids()).toHaveLength(1);
    expect(pool.pids()[0]).not.toBe(hung);
    expect(pool.replaced).toBe(1);
  }, 180_000);
});
