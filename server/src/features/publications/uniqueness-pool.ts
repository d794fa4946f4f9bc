// The uniqueness engine's work in worker threads: `prepare`/`prepareHtml` (plain text, analysis and
// fingerprints of the checked text), `select` (parsing the candidate query's postings and choosing
// the candidates) and `compare` (alignment with the candidates) each run in a pool worker, so a 500 000-character
// check never blocks the event loop. The pool is sized from the cores (one left to the API); its
// queue is bounded, a full one answers PoolBusyError at once.
import type { Transferable } from 'node:worker_threads';
import { WorkerPool } from '../../platform/worker-pool.ts';
import type { CheckResult, CompareSource, PreparedText, UniquenessWork } from './uniqueness/engine.ts';
import type { UniquenessAnswer, UniquenessTask } from './uniqueness/worker.ts';
import type { CleanedText } from './uniqueness/clean-text.ts';

export interface UniquenessPool extends UniquenessWork {
  /** A saved publication text cleaned (cleanPublicationText) in a worker; PoolBusyError when the queue is full. */
  clean(html: string): Promise<CleanedText>;
  stats(): { size: number; running: number; queued: number };
  close(): Promise<void>;
}

/** Heap limit of one worker: a 500 000-character check needs well under it. */
const WORKER_HEAP_MB = 256;

export function createUniquenessPool(o: { size: number; maxQueue: number; nice?: number }): UniquenessPool {
  const pool = new WorkerPool<UniquenessTask, UniquenessAnswer>({
    entry: new URL('./uniqueness/worker.ts', import.meta.url),
    size: o.size,
    maxQueue: o.maxQueue,
    maxHeapMb: WORKER_HEAP_MB,
    nice: o.nice,
  });
  return {
    prepare: async (text) => (await pool.run({ kind: 'prepare', text })) as PreparedText,
    prepareHtml: async (html) => (await pool.run({ kind: 'prepare-html', html })) as PreparedText,
    select: async (postings, options) => (await pool.run({ kind: 'select', postings, options })) as number[],
    compare: async (check: PreparedText, sources: Array<CompareSource<number>>) => {
      // The check's arrays are copied (the caller keeps them for the index); the sources' move.
      const transfer: Transferable[] = sources.flatMap((s) => ('codes' in s ? [s.codes.buffer as ArrayBuffer] : []));
      return (await pool.run({ kind: 'compare', check, sources }, transfer)) as CheckResult<number>;
    },
    clean: async (html) => (await pool.run({ kind: 'clean', html })) as CleanedText,
    stats: () => pool.stats,
    close: () => pool.close(),
  };
}
