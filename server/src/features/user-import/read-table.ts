import { parseString } from '@fast-csv/parse';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { ImportMessages } from '@edu/domain/users/user-import';
import { fieldError } from '../../platform/errors.ts';

/** A file's header row and its data rows, every cell as text. */
export interface Table {
  headers: string[];
  rows: string[][];
}

const XLSX_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Reads a CSV (UTF-8 or Windows-1251, «;» or «,») or an .xlsx file, told apart by their bytes. */
export async function readTable(bytes: Buffer): Promise<Table> {
  const table = bytes.subarray(0, 4).equals(XLSX_MAGIC) ? await readXlsx(bytes) : await readCsv(bytes);
  // Rows left blank (Excel keeps formatted empty rows) are not people.
  const rows = table.rows.filter((row) => row.some((cell) => cell.trim() !== ''));
  if (rows.length === 0) throw fieldError('file', ImportMessages.emptyFile, ImportMessages.emptyFile);
  return { headers: table.headers, rows };
}

/** UTF-8 when the bytes are valid UTF-8 (with or without a BOM), else Windows-1251 (Excel's «CSV» in Russian Windows). */
export function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return iconv.decode(bytes, 'win1251');
  }
}

/** The delimiter of the header line: the more frequent of «;» and «,» outside quotes. */
export function delimiterOf(text: string): ';' | ',' {
  const line = text.slice(0, text.search(/\r?\n|$/)).replace(/"[^"]*"/g, '');
  const count = (c: string) => line.split(c).length - 1;
  return count(';') >= count(',') && count(';') > 0 ? ';' : ',';
}

async function readCsv(bytes: Buffer): Promise<Table> {
  const text = decodeText(bytes);
  if (text.includes('\u0000')) throw fieldError('file', ImportMessages.unreadable, ImportMessages.unreadable);
  const rows: string[][] = [];
  await new Promise<void>((resolve, reject) => {
    parseString(text, { delimiter: delimiterOf(text), ignoreEmpty: true, trim: false, discardUnmappedColumns: false, strictColumnHandling: false })
      .on('error', () => reject(fieldError('file', ImportMessages.unreadable, ImportMessages.unreadable)))
      .on('data', (row: string[]) => rows.push(row))
      .on('end', () => resolve());
  });
  const [headers = [], ...data] = rows;
  return { headers, rows: data };
}

/**
 * A cell as the person typed it: links and rich text as their text, dates as the wall clock Excel
 * shows (it keeps no zone; exceljs reads it as UTC), which the import takes as Moscow time.
 */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 19).replace('T', ' ');
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return String(value.text);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    return '';
  }
  return String(value);
}

async function readXlsx(bytes: Buffer): Promise<Table> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw fieldError('file', ImportMessages.unreadable, ImportMessages.unreadable);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw fieldError('file', ImportMessages.emptyFile, ImportMessages.emptyFile);
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(cellText(row.getCell(c).value));
    rows.push(cells);
  });
  const [headers = [], ...data] = rows;
  return { headers, rows: data };
}
