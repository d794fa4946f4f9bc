// Which work is a person waiting for, and which is background (issue 29): the job runner runs its
// claims and handlers inside `asBackground`, and the embedded database's worker (pglite-worker.ts)
// serves a request's statements before a background job's (decision 033). Everything not marked is
// a request's: a forgotten mark costs only the priority, never the order of one caller's statements.
import { AsyncLocalStorage } from 'node:async_hooks';

const background = new AsyncLocalStorage<true>();

/** Runs fn (and everything it awaits or starts) as background work. */
export function asBackground<T>(fn: () => T): T {
  return background.run(true, fn);
}

/** True inside `asBackground`. */
export function isBackground(): boolean {
  return background.getStore() === true;
}
