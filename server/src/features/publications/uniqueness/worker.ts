// A worker thread of the uniqueness pool (uniqueness-pool.ts): the engine's two heavy steps and the
// cleaning of a saved text, on messages. Pure: the engine only, no Fastify, no database.
import type { Transferable } from 'node:worker_threads';
import { serveTasks } from '../../../platform/worker-pool.ts';
import { compare, prepareText, type CheckResult, type CompareSource, type PreparedText } from './engine.ts';
import { cleanPublicationText, type CleanedText } from './clean-text.ts';

export type UniquenessTask =
  { kind: 'prepare'; text: string } | { kind: 'compare'; check: PreparedText; sources: Array<CompareSource<number>> } | { kind: 'clean'; html: string };
export type UniquenessAnswer = PreparedText | CheckResult<number> | CleanedText;

/** The typed arrays of a prepared text move to the main thread instead of being copied. */
function transferOf(answer: UniquenessAnswer): Transferable[] {
  return 'codes' in answer ? [answer.codes, answer.starts, answer.ends, answer.wordLetters].map((a) => a.buffer as ArrayBuffer) : [];
}

serveTasks<UniquenessTask, UniquenessAnswer>(
  (task) => (task.kind === 'prepare' ? prepareText(task.text) : task.kind === 'clean' ? cleanPublicationText(task.html) : compare(task.check, task.sources)),
  transferOf,
);
