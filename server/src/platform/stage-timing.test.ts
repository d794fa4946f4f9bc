import { describe, expect, it } from 'vitest';
import { collectStages, recordStage, setStageSink, timed } from './stage-timing.ts';

describe('stage timing', () => {
  it('collects the stages of one scope, also across awaits and parallel work, and reports them to the sink', async () => {
    const seen: string[] = [];
    setStageSink((stage) => seen.push(stage));
    let stages: Record<string, number> = {};
    try {
      const result = await collectStages(
        async () => {
          await timed('a', () => new Promise((r) => setTimeout(r, 5)));
          await Promise.all([timed('b', () => 1), timed('b', async () => 2)]);
          recordStage('queue', 3);
          return 'done';
        },
        (s) => (stages = s),
      );
      expect(result).toBe('done');
    } finally {
      setStageSink(null);
    }
    expect(Object.keys(stages).sort()).toEqual(['a', 'b', 'queue']);
    expect(stages.a).toBeGreaterThanOrEqual(4);
    expect(stages.queue).toBe(3);
    expect(seen.sort()).toEqual(['a', 'b', 'b', 'queue']);
  });

  it('gives the stages to done when the work fails, and only runs fn when nobody listens', async () => {
    let stages: Record<string, number> | null = null;
    await expect(
      collectStages(
        () => timed('x', () => Promise.reject(new Error('no'))),
        (s) => (stages = s),
      ),
    ).rejects.toThrow('no');
    expect(Object.keys(stages!)).toEqual(['x']);
    expect(await timed('y', () => 42)).toBe(42);
  });
});
