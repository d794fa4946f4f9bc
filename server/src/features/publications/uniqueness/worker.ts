// A worker thread of the uniqueness pool (uniqueness-pool.ts): the engine's two heavy steps and the
// cleaning of a saved text, on messages. Pure: the engine only, no Fastify, no database.
import type { Transferable } from 'node:worker_threads';
import { serveTasks } from '../../../platform/worker-pool.ts';
import {
  compare,
  prepareText,
  selectFromCompact,
  type CandidateOptions,
  type CandidatePostings,
  type CheckResult,
  type CompareSource,
  type PreparedText,
} from './engine.ts';
import { publicationPlainText } from './plain-text.ts';
import { cleanPublicationText, type CleanedText } from './clean-text.ts';

export type UniquenessTask =
  | { kind: 'prepare'; text: string }
  | { kind: 'prepare-html'; html: string }
  | { kind: 'select'; postings: CandidatePostings; options: CandidateOptions }
  | { kind: 'compare'; check: PreparedText; sources: Array<CompareSource<number>> }
  | { kind: 'clean'; html: string };
export type UniquenessAnswer = PreparedText | CheckResult<number> | CleanedText | number[];

/** The typed arrays of a prepared text move to the main thread instead of being copied. */
function transferOf(answer: UniquenessAnswer): Transferable[] {
  if (Array.isArray(answer) || !('codes' in answer)) return [];
  const { codes, starts, ends, wordLetters, query, stored } = answer;
  return [codes, starts, ends, wordLetters, query.hashes, query.positions, stored.hashes, stored.positions].map((a) => a.buffer as ArrayBuffer);
}

function run(task: UniquenessTask): UniquenessAnswer {
  switch (task.kind) {
    case 'prepare':
      return prepareText(task.text);
    case 'prepare-html':
      return prepareText(publicationPlainText(task.html));
    case 'select':
      return selectFromCompact(task.postings, task.options);
    case 'clean':
      return cleanPublicationText(task.html);
    case 'compare':
      return compare(task.check, task.sources);
  }
}

serveTasks<UniquenessTask, UniquenessAnswer>(run, transferOf);
