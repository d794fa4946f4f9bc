import iconv from 'iconv-lite';
import { BankStatementMessages, parseStatement, type ParsedStatement } from '@edu/domain/bank-statements/bank-statement';
import { fieldError } from '../../platform/errors.ts';

/** A statement file above this is not a day's or a month's statement of an education centre. */
export const STATEMENT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * The statement's text: UTF-8 when the bytes are valid UTF-8 (with or without a BOM), else
 * Windows-1251 (what «Кодировка=Windows» files are), or CP866 when the file says «Кодировка=DOS».
 */
export function decodeStatement(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const windows = iconv.decode(bytes, 'win1251');
    if (windows.includes('Кодировка=Windows') || windows.includes('СекцияДокумент')) return windows;
    const dos = iconv.decode(bytes, 'cp866');
    return dos.includes('СекцияДокумент') ? dos : windows;
  }
}

/** Decodes and reads a statement; a file that is not one is a 422 on the `file` field. */
export function readStatement(bytes: Buffer): ParsedStatement {
  if (bytes.length > STATEMENT_MAX_BYTES) throw fieldError('file', BankStatementMessages.tooLarge, BankStatementMessages.tooLarge);
  const parsed = parseStatement(decodeStatement(bytes));
  if (!parsed.ok) throw fieldError('file', parsed.problem, parsed.problem);
  return parsed.statement;
}
