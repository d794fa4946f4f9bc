import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/**
 * Per-stage timings of slow pipelines (document printing): each `timed(stage, fn)` adds its wall
 * time to the stages of the current `collectStages` scope (for a debug log line per request) and
 * reports it to the sink a profiling script set. Without either, `timed` only runs `fn`.
 */
export type StageSink = (stage: string, ms: number) => void;

let sink: StageSink | null = null;
const scope = new AsyncLocalStorage<Record<string, number>>();

/** Profiling scripts (bench/src/documents.ts) receive every stage time; null stops. */
export function setStageSink(fn: StageSink | null): void {
  sink = fn;
}

export async function timed<T>(stage: string, fn: () => Promise<T> | T): Promise<T> {
  const stages = scope.getStore();
  if (!sink && !stages) return fn();
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    const ms = performance.now() - t0;
    if (stages) stages[stage] = Math.round(((stages[stage] ?? 0) + ms) * 10) / 10;
    sink?.(stage, ms);
  }
}

/** Adds a time measured elsewhere (a wait in a queue) to the current scope and the sink. */
export function recordStage(stage: string, ms: number): void {
  const stages = scope.getStore();
  if (stages) stages[stage] = Math.round(((stages[stage] ?? 0) + ms) * 10) / 10;
  sink?.(stage, ms);
}

/** Runs fn collecting the stage times inside it; `done` gets them (also when fn throws). */
export async function collectStages<T>(fn: () => Promise<T>, done: (stages: Record<string, number>) => void): Promise<T> {
  const stages: Record<string, number> = {};
  try {
    return await scope.run(stages, fn);
  } finally {
    done(stages);
  }
}
