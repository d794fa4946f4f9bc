// The panel import's file is read in a worker thread (issue 32): parsing a 20 000-row .xlsx or CSV
// takes seconds of CPU, which on the request thread would hold every other request. A refusal of the
// file (empty, unreadable) comes back as its Russian message; the route turns it into the 422.
import { serveTasks } from '../../platform/worker-pool.ts';
import { AppError } from '../../platform/errors.ts';
import { readTable, type Table } from './read-table.ts';

export type ReadTableAnswer = { table: Table } | { refused: string };

serveTasks<Uint8Array, ReadTableAnswer>(async (bytes) => {
  try {
    return { table: await readTable(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) };
  } catch (err) {
    if (err instanceof AppError) return { refused: err.message };
    throw err;
  }
});
