import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { columnName, writeXlsx, type XlsxExport } from './xlsx-export.ts';

interface Row {
  id: number;
  name: string;
  sum: number;
  at: Date;
}

/** An export over an array, newest first, read by keyset like the real ones; pages are counted. */
function arrayExport(data: Row[], pages: number[] = []): XlsxExport<Row> {
  return {
    sheet: 'Проба: [1/2]',
    columns: {
      n: { header: '№', width: 5, type: 'number', value: (_, n) => n },
      name: { header: 'Имя', width: 20, value: (r) => r.name },
      sum: { header: 'Сумма, ₽', width: 10, type: 'money', value: (r) => r.sum },
      at: { header: 'Когда', width: 16, type: 'datetime', value: (r) => r.at },
      day: { header: 'День', width: 10, type: 'date', value: (r) => r.at },
    },
    page: async (after, limit) => {
      const from = after ? data.findIndex((r) => r.id === after.id) + 1 : 0;
      pages.push(from);
      return data.slice(from, from + limit);
    },
    totals: () => {
      let sum = 0;
      return { add: (r) => (sum += r.sum), cells: (count) => ({ name: `Итого: ${count}`, sum }) };
    },
  };
}

async function toBuffer(write: (out: PassThrough) => Promise<number>): Promise<{ count: number; file: Buffer }> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const count = await write(out);
  return { count, file: Buffer.concat(chunks) };
}

async function readSheet(file: Buffer): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(file as unknown as ArrayBuffer);
  return wb.worksheets[0];
}

describe('writeXlsx', () => {
  it('writes the header, typed rows read page by page, and the totals row', async () => {
    const at = new Date('2026-11-23T21:30:00Z'); // 24.11.2026 00:30 in Moscow
    const data: Row[] = Array.from({ length: 7 }, (_, i) => ({ id: 100 - i, name: `Клиент ${i}`, sum: 100.5 * (i + 1), at }));
    data[1].name = 'A & B <c> "d"\u0001 ';
    const pages: number[] = [];
    const { count, file } = await toBuffer((out) => writeXlsx(arrayExport(data, pages), out, 3));
    expect(count).toBe(7);
    // Pages of 3 by keyset: 3, 3, 1.
    expect(pages).toEqual([0, 3, 6]);
    const sheet = await readSheet(file);
    expect(sheet.name).toBe('Проба   1 2 ');
    expect(sheet.rowCount).toBe(9);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['№', 'Имя', 'Сумма, ₽', 'Когда', 'День']);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect((sheet.getRow(2).values as unknown[]).slice(1)).toEqual([1, 'Клиент 0', 100.5, new Date('2026-11-24T00:30:00Z'), new Date('2026-11-24T00:00:00Z')]);
    expect(sheet.getRow(3).getCell(2).value).toBe('A & B <c> "d" ');
    expect(sheet.getRow(2).getCell(3).numFmt).toBe('#,##0.00');
    expect(sheet.getRow(2).getCell(4).numFmt).toBe('dd.mm.yyyy hh:mm');
    expect(sheet.getRow(2).getCell(5).numFmt).toBe('dd.mm.yyyy');
    const totals = sheet.getRow(9);
    expect(totals.getCell(2).value).toBe('Итого: 7');
    expect(totals.getCell(3).value).toBeCloseTo(100.5 * 28);
    expect(totals.getCell(3).font?.bold).toBe(true);
    expect(totals.getCell(1).value).toBe(null);
    expect(sheet.getColumn(2).width).toBe(20);
  });

  it('makes a valid file with the header only when nothing matches', async () => {
    const { count, file } = await toBuffer((out) => writeXlsx({ ...arrayExport([]), totals: undefined }, out));
    expect(count).toBe(0);
    const sheet = await readSheet(file);
    expect(sheet.rowCount).toBe(1);
  });

  it('waits for a slow reader (memory stays about one page) and stops when the reader goes away', async () => {
    const data: Row[] = Array.from({ length: 20_000 }, (_, i) => ({
      id: 100_000 - i,
      name: `Клиент с длинным именем ${i} ${'x'.repeat(i % 50)}`,
      sum: i,
      at: new Date(),
    }));
    let pagesRead = 0;
    const spec = arrayExport(data);
    const page = spec.page;
    spec.page = (after, limit) => {
      pagesRead++;
      return page(after, limit);
    };
    // A reader that takes nothing: the writer must stop reading pages once the pipes are full.
    const stuck = new Writable({ highWaterMark: 1024, write: () => undefined });
    const done = writeXlsx(spec, stuck, 500);
    await new Promise((r) => setTimeout(r, 300));
    // 40 pages in all; the pipes between here and the socket hold a few (a page compresses tenfold).
    expect(pagesRead).toBeLessThan(20);
    stuck.destroy();
    await expect(done).rejects.toThrow(/closed before the end/);
  });

  it('names columns as Excel does', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});
