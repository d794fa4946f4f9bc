// Which work is a person waiting for, and which is background (issue 29): the job runner runs its
// claims and handlers inside `asBackground`, a save of a long text runs its transaction inside
// `asHeavy`, and the embedded database's worker (pglite-worker.ts) serves other requests' statements
// before a heavy request's, and those before a background job's (decision 033). Everything not
// marked is a request's: a forgotten mark costs only the priority, never the order of one caller's
// statements.
import { AsyncLocalStorage } from 'node:async_hooks';

const priority = new AsyncLocalStorage<'background' | 'heavy'>();

/** Runs fn (and everything it awaits or starts) as background work. */
export function asBackground<T>(fn: () => T): T {
  return priority.run('background', fn);
}

/** True inside `asBackground`. */
export function isBackground(): boolean {
  return priority.getStore() === 'background';
}

/**
 * Runs fn as a heavy request's work: a person waits for it, but it holds the database long (a
 * 480 000-character text written), so other people's short statements go first.
 */
export function asHeavy<T>(fn: () => T): T {
  return priority.run('heavy', fn);
}

/** True inside `asHeavy`. */
export function isHeavy(): boolean {
  return priority.getStore() === 'heavy';
}
