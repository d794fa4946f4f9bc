import iconv from 'iconv-lite';
import { BankStatementMessages, parseStatement, type ParsedStatement, type StatementParse } from '@edu/domain/bank-statements/bank-statement';
import { AppError, fieldError } from '../../platform/errors.ts';
import { LOW_PRIORITY_NICE } from '../../platform/thread-priority.ts';
import { PoolBusyError, WorkerPool } from '../../platform/worker-pool.ts';

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

/** The decoding and reading of a statement's bytes, as its worker runs them. */
export function parseStatementBytes(bytes: Uint8Array): StatementParse {
  return parseStatement(decodeStatement(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
}

export type StatementReader = WorkerPool<Uint8Array, StatementParse>;

/**
 * One worker thread for the statements: a 5 MB statement takes 0.2-0.4 s of CPU to decode and read,
 * which the request thread must not spend (the other users' requests would wait). Operators import
 * one statement each at a time; a few more wait, beyond that a 429.
 */
export function createStatementReader(o: { maxQueue?: number } = {}): StatementReader {
  return new WorkerPool({ entry: new URL('./statement-worker.ts', import.meta.url), size: 1, maxQueue: o.maxQueue ?? 8, nice: LOW_PRIORITY_NICE });
}

/** Decodes and reads a statement in the reader's worker; a file that is not one is a 422 on the `file` field. */
export async function readStatement(reader: StatementReader, bytes: Buffer): Promise<ParsedStatement> {
  if (bytes.length > STATEMENT_MAX_BYTES) throw fieldError('file', BankStatementMessages.tooLarge, BankStatementMessages.tooLarge);
  const parsed = await reader.run(bytes).catch((err: unknown) => {
    if (err instanceof PoolBusyError) throw new AppError(429, BankStatementMessages.othersRunning);
    throw err;
  });
  if (!parsed.ok) throw fieldError('file', parsed.problem, parsed.problem);
  return parsed.statement;
}
