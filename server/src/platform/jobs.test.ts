import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper.ts';
import { rows } from './db.ts';
import { scheduleJob } from './jobs.ts';

// A job kind of this test only.
declare module './jobs.ts' {
  interface JobPayloads {
    'lane-probe': { name: string; owner: number };
  }
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('job lanes', () => {
  it('runs a lane beside the other jobs, at most `perOwner` of one owner at a time, the owner served least recently first', async () => {
    const log: string[] = [];
    const running = new Map<number, number>();
    let atOnce = 0;
    let mostAtOnce = 0;
    let mostOfOne = 0;
    t.app.jobs.register(
      'lane-probe',
      async (_app, payload) => {
        const owner = payload.owner;
        running.set(owner, (running.get(owner) ?? 0) + 1);
        atOnce++;
        mostAtOnce = Math.max(mostAtOnce, atOnce);
        mostOfOne = Math.max(mostOfOne, running.get(owner)!);
        log.push(String(payload.name));
        await new Promise((resolve) => setTimeout(resolve, 60));
        running.set(owner, running.get(owner)! - 1);
        atOnce--;
      },
      { concurrency: 2, perOwner: 1 },
    );
    // Owner 1 sent four at once, owner 2 one a little later, owner 3 one later still.
    const at = (s: number) => new Date(Date.now() - 60_000 + s * 1000);
    for (const [name, owner, s] of [
      ['a1', 1, 0],
      ['a2', 1, 1],
      ['a3', 1, 2],
      ['a4', 1, 3],
      ['b1', 2, 4],
      ['c1', 3, 5],
    ] as const) {
      await scheduleJob(t.database.db, 'lane-probe', { name, owner }, { ownerId: owner, runAt: at(s) });
    }
    await t.app.jobs.runDue();
    expect(log).toHaveLength(6);
    expect(mostOfOne).toBe(1);
    expect(mostAtOnce).toBe(2);
    // b1 and c1 do not wait behind all of owner 1's jobs.
    expect(log.indexOf('b1')).toBeLessThan(log.indexOf('a3'));
    expect(log.indexOf('c1')).toBeLessThan(log.indexOf('a3'));
    expect(log.filter((n) => n.startsWith('a'))).toEqual(['a1', 'a2', 'a3', 'a4']);
    const [{ n }] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from jobs where name = 'lane-probe' and done_at is not null and started_at is not null`,
    );
    expect(n).toBe(6);
  });
});
