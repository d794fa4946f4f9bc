// The one home of the .xlsx exports (entries, payments, contracts, the journal): an export declares
// its sheet, its typed columns, a keyset page query and, when it has one, a totals row; `writeXlsx`
// streams it. The sheet is written as SpreadsheetML text straight into a zip stream (yazl, already
// used for certificate archives): one string per batch of rows, inline strings (no shared-strings
// table to hold in memory), numbers and dates as typed cells. Deflating runs in libuv's thread pool,
// so the request thread only reads rows and joins strings (decision in bench/README "List exports").
import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import yazl from 'yazl';
import { recordStage, timed } from './stage-timing.ts';
import { MOSCOW_OFFSET_MS } from '@edu/domain/common/moscow-time';

export type CellValue = string | number | Date | null | undefined;

/**
 * How a column's cells look: text (the default) and number as they come, money with two decimals and
 * thousands, date and datetime as real Excel dates shown dd.mm.yyyy (hh:mm) in Moscow time, the
 * centre's time everywhere. A cell's kind follows its value (a string in a money column, such as a
 * totals label, stays text).
 */
export type ColumnType = 'text' | 'number' | 'money' | 'date' | 'datetime';

export interface XlsxColumn<R> {
  header: string;
  /** Excel's width, in characters. */
  width: number;
  type?: ColumnType;
  /** The cell of a data row; `n` is the row's number in the export, from 1. */
  value: (row: R, n: number) => CellValue;
}

export interface XlsxTotals<R, K extends string> {
  /** Called for each data row, in order. */
  add(row: R): void;
  /** The totals row (bold) after the last data row, by column key; `count` is the rows written. */
  cells(count: number): Partial<Record<K, CellValue>>;
}

export interface XlsxExport<R, K extends string = string> {
  /** The sheet's name (at most 31 characters). */
  sheet: string;
  /** The columns in order, by key (the totals row refers to them by key). */
  columns: Record<K, XlsxColumn<R>>;
  /**
   * The rows after `after` (null: the first page), at most `limit`, in the export's order: a keyset
   * query (`where id < after.id order by id desc limit n`), never an offset.
   */
  page: (after: R | null, limit: number) => Promise<R[]>;
  /** A fresh accumulator per export, for a totals row. */
  totals?: () => XlsxTotals<R, K>;
}

/** Rows per page query. */
export const XLSX_BATCH = 2000;
/**
 * Rows turned into text between two turns of the event loop (a few milliseconds of CPU): other
 * requests are served in between, and each string written to the zip stays small.
 */
const ROWS_PER_TURN = 250;

/** Excel refuses longer cells. */
const MAX_CELL = 32_767;
const DAY_MS = 86_400_000;
/** Excel's serial of 1970-01-01. */
const EPOCH_SERIAL = 25_569;

/** Style index: format (0 general, 1 money, 2 date, 3 datetime) plus 4 when bold (styles.xml below). */
const FORMAT: Record<ColumnType, number> = { text: 0, number: 0, money: 1, date: 2, datetime: 3 };
const BOLD = 4;

// Characters XML 1.0 cannot hold are dropped; &, < and > are escaped.
// eslint-disable-next-line no-control-regex
const XML_SPECIAL = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
// eslint-disable-next-line no-control-regex
const XML_SPECIAL_ALL = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

function xmlText(value: string): string {
  const text = value.length > MAX_CELL ? value.slice(0, MAX_CELL) : value;
  return XML_SPECIAL.test(text) ? text.replace(XML_SPECIAL_ALL, (c) => ESCAPES[c] ?? '') : text;
}

/** A, B, …, Z, AA, … for a 0-based column index. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** A Date as Excel's serial day number of its Moscow wall time (whole days for date columns). */
function excelSerial(value: Date, type: ColumnType): number {
  const serial = (value.getTime() + MOSCOW_OFFSET_MS) / DAY_MS + EPOCH_SERIAL;
  return type === 'date' ? Math.floor(serial) : serial;
}

function cellXml(ref: string, value: CellValue, type: ColumnType, bold: boolean): string {
  if (value === null || value === undefined || value === '') return '';
  const b = bold ? BOLD : 0;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    const s = FORMAT[type] + b;
    return `<c r="${ref}"${s ? ` s="${s}"` : ''}><v>${value}</v></c>`;
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    const dateType = type === 'date' ? 'date' : 'datetime';
    return `<c r="${ref}" s="${FORMAT[dateType] + b}"><v>${excelSerial(value, dateType)}</v></c>`;
  }
  return `<c r="${ref}" t="inlineStr"${b ? ` s="${b}"` : ''}><is><t xml:space="preserve">${xmlText(value)}</t></is></c>`;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const CONTENT_TYPES =
  `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '</Types>';

const ROOT_RELS =
  `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

const WORKBOOK_RELS =
  `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`;

const FONT = '<sz val="11"/><name val="Calibri"/><family val="2"/>';
const xf = (numFmtId: number, bold: boolean) =>
  `<xf numFmtId="${numFmtId}" fontId="${bold ? 1 : 0}" fillId="0" borderId="0" xfId="0"${numFmtId ? ' applyNumberFormat="1"' : ''}${bold ? ' applyFont="1"' : ''}/>`;
const FORMAT_IDS = [0, 164, 165, 166];
const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  '<numFmts count="3"><numFmt numFmtId="164" formatCode="#,##0.00"/><numFmt numFmtId="165" formatCode="dd.mm.yyyy"/><numFmt numFmtId="166" formatCode="dd.mm.yyyy hh:mm"/></numFmts>' +
  `<fonts count="2"><font>${FONT}</font><font><b/>${FONT}</font></fonts>` +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  `<cellXfs count="8">${FORMAT_IDS.map((id) => xf(id, false)).join('')}${FORMAT_IDS.map((id) => xf(id, true)).join('')}</cellXfs>` +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

const workbookXml = (sheet: string) =>
  `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews>` +
  `<sheets><sheet name="${xmlText(sheet.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31)).replace(/"/g, '&quot;')}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

/**
 * Streams the export into `out` as an .xlsx: the header row (bold, frozen), one row per record read
 * page by page, and the totals row (bold) if the export has one. Waits whenever `out` is full, so
 * memory holds about one page whatever the count, and stops (rejects) if `out` is closed before the
 * end (the client went away). Resolves with the number of data rows.
 */
export async function writeXlsx<R, K extends string>(spec: XlsxExport<R, K>, out: Writable, batch = XLSX_BATCH): Promise<number> {
  const keys = Object.keys(spec.columns) as K[];
  const columns = keys.map((k) => spec.columns[k]);
  const types = columns.map((c) => c.type ?? 'text');
  const refs = columns.map((_, i) => columnName(i));
  const totals = spec.totals?.();

  const zip = new yazl.ZipFile();
  const sheet = new PassThrough();
  zip.outputStream.pipe(out);
  zip.outputStream.on('error', (err) => out.destroy(err));
  const finished = new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
    out.once('close', () => (out.writableFinished ? resolve() : reject(new Error('xlsx output closed before the end'))));
  });
  finished.catch(() => undefined); // awaited below; a failure is thrown there
  const gone = finished.then(
    () => false,
    () => true,
  );
  zip.addBuffer(Buffer.from(CONTENT_TYPES), '[Content_Types].xml');
  zip.addBuffer(Buffer.from(ROOT_RELS), '_rels/.rels');
  zip.addBuffer(Buffer.from(workbookXml(spec.sheet)), 'xl/workbook.xml');
  zip.addBuffer(Buffer.from(WORKBOOK_RELS), 'xl/_rels/workbook.xml.rels');
  zip.addBuffer(Buffer.from(STYLES), 'xl/styles.xml');
  // Level 1: the sheet is large and repetitive; the fastest level already shrinks it about tenfold.
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml', { compressionLevel: 1 });
  zip.end();

  const write = async (text: string) => {
    if (out.destroyed) throw new Error('xlsx output closed before the end');
    if (!sheet.write(text) && (await Promise.race([once(sheet, 'drain').then(() => false), gone]))) throw new Error('xlsx output closed before the end');
  };

  try {
    const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join('');
    const header = columns.map((c, i) => cellXml(`${refs[i]}1`, c.header, 'text', true)).join('');
    await write(
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
        '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
        `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData><row r="1">${header}</row>`,
    );

    const read = (after: R | null) => {
      const rows = timed('excel-query', () => spec.page(after, batch));
      rows.catch(() => undefined); // awaited below; a failure is thrown there
      return rows;
    };
    let count = 0;
    let next = read(null);
    for (;;) {
      const rows = await next;
      // The next page is read while this one is written.
      if (rows.length === batch) next = read(rows[rows.length - 1]);
      for (let start = 0; start < rows.length; start += ROWS_PER_TURN) {
        const t0 = performance.now();
        let xml = '';
        for (const row of rows.slice(start, start + ROWS_PER_TURN)) {
          count++;
          const r = count + 1;
          xml += `<row r="${r}">`;
          for (let i = 0; i < columns.length; i++) xml += cellXml(refs[i] + r, columns[i].value(row, count), types[i], false);
          xml += '</row>';
          totals?.add(row);
        }
        recordStage('excel-rows', performance.now() - t0);
        await write(xml);
        await nextTurn();
      }
      if (rows.length < batch) break;
    }
    if (totals) {
      const cells = totals.cells(count);
      const r = count + 2;
      await write(`<row r="${r}">${keys.map((k, i) => cellXml(refs[i] + r, cells[k], types[i], true)).join('')}</row>`);
    }
    sheet.end('</sheetData></worksheet>');
    await timed('excel-finish', () => finished);
    return count;
  } catch (err) {
    sheet.destroy();
    zip.outputStream.unpipe(out);
    if (!out.destroyed) out.destroy(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
}
