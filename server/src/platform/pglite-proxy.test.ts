// The embedded database in its worker thread (decision 033): the proxy behind `openPglite` answers as
// an in-process PGlite does (values, errors with PostgreSQL's fields, transactions) and keeps the
// event loop free while PGlite works.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { dataErrorAnswer, DataErrorMessages, pgError } from './errors.ts';
import { openPglite, rows, type Database } from './db.ts';
import { asBackground } from './work-priority.ts';
import { HEAVY_MAX_WAIT_MS, LOW_MAX_WAIT_MS, UnitQueue, type WorkerRequest } from './pglite-worker.ts';

let worker: Database;
let inProcess: Database;

beforeAll(async () => {
  [worker, inProcess] = await Promise.all([openPglite(undefined, { worker: true }), openPglite(undefined, { worker: false })]);
  for (const d of [worker, inProcess]) {
    await d.db.execute(sql`create table item (id int primary key, name text not null unique, at timestamptz, big int8, doc jsonb, bin bytea)`);
  }
});

afterAll(async () => {
  await Promise.all([worker?.close(), inProcess?.close()]);
});

describe('PGlite through its worker thread', () => {
  it('answers queries with params as an in-process PGlite does (dates, int8, json, bytea, nulls)', async () => {
    const at = new Date('2026-03-01T10:20:30.456Z');
    const query = sql`select ${7}::int as n, ${'текст'}::text as t, ${at}::timestamptz as at, ${'9007199254740993'}::int8 as big,
      ${JSON.stringify({ a: [1, 'б'] })}::jsonb as doc, '\\x00ff'::bytea as bin, null::text as nothing, array[1,2]::int[] as arr`;
    const [viaWorker] = await rows<Record<string, unknown>>(worker.db, query);
    const [inThread] = await rows<Record<string, unknown>>(inProcess.db, query);
    expect(viaWorker).toEqual(inThread);
    expect(viaWorker).toMatchObject({ n: 7, t: 'текст', doc: { a: [1, 'б'] }, nothing: null, arr: [1, 2] });
    expect(viaWorker.bin).toEqual(new Uint8Array([0, 255]));
    // drizzle keeps timestamps as PostgreSQL's text on PGlite (its own parsers, run on this side).
    expect(new Date(viaWorker.at as string).toISOString()).toBe(at.toISOString());

    const insert = sql`insert into item (id, name, at, big, doc, bin) values (1, 'один', ${at}, 42, ${JSON.stringify({ k: 'v' })}, ${new Uint8Array([1, 2, 3])}) returning *`;
    const [fromWorker] = await rows(worker.db, insert);
    const [fromThread] = await rows(inProcess.db, insert);
    expect(fromWorker).toEqual(fromThread);
    expect(await worker.prepared(null, sql`select name from item where id = ${1}`)).toEqual([{ name: 'один' }]);
  });

  it('keeps the PostgreSQL fields of an error (23505 stays a 422 duplicate)', async () => {
    const duplicate = sql`insert into item (id, name) values (2, 'один')`;
    const viaWorker = await worker.db.execute(duplicate).then(
      () => null,
      (e: unknown) => e,
    );
    const inThread = await inProcess.db.execute(duplicate).then(
      () => null,
      (e: unknown) => e,
    );
    expect(pgError(viaWorker)).toEqual({ code: '23505', constraint: 'item_name_key', detail: 'Key (name)=(один) already exists.', column: undefined });
    expect(pgError(viaWorker)).toEqual(pgError(inThread));
    const cause = (viaWorker as { cause: Record<string, unknown> & Error }).cause;
    expect(cause).toBeInstanceOf(Error);
    expect(cause).toMatchObject({ table: 'item', severity: 'ERROR', message: 'duplicate key value violates unique constraint "item_name_key"' });
    expect(dataErrorAnswer(viaWorker)).toEqual({ message: DataErrorMessages.duplicate, errors: { name: [DataErrorMessages.duplicate] } });
    // A syntax error too, with its position.
    const syntax = await worker.db.execute(sql.raw('selec 1')).catch((e: { cause: unknown }) => e.cause);
    expect(syntax).toMatchObject({ code: '42601', position: '1' });
  });

  it('rolls back a transaction whose callback throws, and rethrows its error', async () => {
    const failure = new Error('передумали');
    await expect(
      worker.db.transaction(async (tx) => {
        await tx.execute(sql`insert into item (id, name) values (10, 'десять')`);
        expect(await rows(tx, sql`select name from item where id = 10`)).toEqual([{ name: 'десять' }]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await rows(worker.db, sql`select name from item where id = 10`)).toEqual([]);
    // A failed statement inside rolls the transaction back with its PostgreSQL error.
    const err = await worker.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into item (id, name) values (11, 'одиннадцать')`);
        await tx.execute(sql`insert into item (id, name) values (12, 'один')`);
      })
      .catch((e: unknown) => e);
    expect(pgError(err)?.code).toBe('23505');
    expect(await rows(worker.db, sql`select id from item where id in (11, 12)`)).toEqual([]);
    // A nested transaction (a savepoint) rolls back alone.
    await worker.db.transaction(async (tx) => {
      await tx.execute(sql`insert into item (id, name) values (13, 'тринадцать')`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into item (id, name) values (14, 'четырнадцать')`);
          inner.rollback();
        })
        .catch(() => undefined);
    });
    expect(await rows(worker.db, sql`select id from item where id in (13, 14) order by id`)).toEqual([{ id: 13 }]);
  });

  it('serialises two concurrent transactions, and statements outside wait for the open one', async () => {
    const log: string[] = [];
    let bDone: Promise<unknown> = Promise.resolve();
    let outside: Promise<unknown> = Promise.resolve();
    await worker.db.transaction(async (a) => {
      await a.execute(sql`insert into item (id, name) values (20, 'a1')`);
      log.push('a1');
      bDone = worker.db.transaction(async (b) => {
        log.push('b begins');
        const seen = await rows<{ n: number }>(b, sql`select count(*)::int as n from item where id between 20 and 29`);
        log.push(`b sees ${seen[0].n}`);
        await b.execute(sql`insert into item (id, name) values (22, 'b1')`);
      });
      outside = rows<{ n: number }>(worker.db, sql`select count(*)::int as n from item where id between 20 and 29`).then((r) =>
        log.push(`outside sees ${r[0].n}`),
      );
      // Several round trips of A while B and the outside read wait.
      for (let i = 0; i < 5; i++) await a.execute(sql`select 1`);
      await a.execute(sql`insert into item (id, name) values (21, 'a2')`);
      log.push('a2');
    });
    log.push('a committed');
    await Promise.all([bDone, outside]);
    // B began only after A committed and saw A's two rows; the outside read, queued behind B, saw three.
    expect(log.indexOf('b begins')).toBeGreaterThan(log.indexOf('a2'));
    expect(log.filter((l) => l !== 'a committed')).toEqual(['a1', 'a2', 'b begins', 'b sees 2', 'outside sees 3']);
    expect(await rows(worker.db, sql`select name from item where id between 20 and 29 order by id`)).toEqual([{ name: 'a1' }, { name: 'a2' }, { name: 'b1' }]);
  });

  it("serves a request's statement before the background jobs' statements queued ahead of it (issue 29)", async () => {
    const order: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let holding!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    // A job's transaction holds the connection until the others are queued behind it.
    const holder = asBackground(() =>
      worker.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        holding();
        await released;
        order.push('job holds');
      }),
    );
    await held;
    const background = asBackground(() => [
      ...[1, 2, 3].map((i) => rows(worker.db, sql`select ${i}::int as i`).then(() => order.push(`job ${i}`))),
      // Another transaction of a job is one unit too, begin to end.
      worker.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        order.push('job tx');
      }),
    ]);
    const request = rows(worker.db, sql`select 'request' as r`).then(() => order.push('request'));
    // Every one of them has reached the worker's queue (the proxy counts what waits for the connection).
    while ((worker.poolStats?.().waiting ?? 0) < 5) await new Promise((r) => setImmediate(r));
    release();
    await Promise.all([holder, ...background, request]);
    // The request waited only for the transaction already holding the connection (in one queue in
    // arrival order it came last); the jobs' units then ran in the order they reached the worker.
    expect(order.slice(0, 2)).toEqual(['job holds', 'request']);
    expect(order.slice(2).sort()).toEqual(['job 1', 'job 2', 'job 3', 'job tx']);
  });

  it('orders the units of the connection: requests first, in arrival order, and a background one that waited too long before them', () => {
    let clock = 0;
    const ran: number[] = [];
    const finish: Array<() => void> = [];
    const q = new UnitQueue(
      (m) =>
        new Promise<void>((resolve) => {
          ran.push(m.id);
          finish.push(resolve);
        }),
      () => clock,
    );
    const unit = (id: number, low: boolean): WorkerRequest => ({ op: 'query', id, sql: 'select 1', low });
    q.push(unit(1, true)); // runs at once
    q.push(unit(2, true));
    q.push(unit(3, false));
    q.push(unit(4, false));
    expect(ran).toEqual([1]);
    const step = async () => {
      finish.shift()!();
      await new Promise((r) => setImmediate(r));
    };
    return (async () => {
      await step();
      expect(ran).toEqual([1, 3]);
      // The background unit 2 has now waited its limit: it goes before the request 4.
      clock = LOW_MAX_WAIT_MS;
      q.push(unit(5, false));
      await step();
      expect(ran).toEqual([1, 3, 2]);
      await step();
      await step();
      expect(ran).toEqual([1, 3, 2, 4, 5]);
    })();
  });

  it("holds heavy and background units back for a request's next statement, heavy before background, and a heavy one that waited too long first", async () => {
    vi.useFakeTimers();
    try {
      let clock = 0;
      const ran: string[] = [];
      const finish: Array<() => void> = [];
      const q = new UnitQueue(
        (m) =>
          new Promise<void>((resolve) => {
            ran.push(names.get(m.id)!);
            finish.push(resolve);
          }),
        () => clock,
        5,
      );
      const names = new Map<number, string>();
      let seq = 0;
      const unit = (name: string, mark: { low?: boolean; heavy?: boolean } = {}): WorkerRequest => {
        names.set(++seq, name);
        return { op: 'query', id: seq, sql: 'select 1', ...mark };
      };
      const step = async () => {
        finish.shift()!();
        await vi.advanceTimersByTimeAsync(0);
      };
      q.push(unit('request 1')); // runs at once
      q.push(unit('check chunk', { low: true }));
      q.push(unit('long save', { heavy: true }));
      await step();
      // A request's statement has just ended: the others wait for its next one.
      expect(ran).toEqual(['request 1']);
      q.push(unit('request 1, next statement'));
      await vi.advanceTimersByTimeAsync(0);
      expect(ran).toEqual(['request 1', 'request 1, next statement']);
      await step();
      expect(ran).toHaveLength(2);
      // No request came within the hold: the heavy unit, then the background one.
      await vi.advanceTimersByTimeAsync(5);
      expect(ran).toEqual(['request 1', 'request 1, next statement', 'long save']);
      await step();
      expect(ran.at(-1)).toBe('check chunk');
      await step();

      // A heavy unit that has waited HEAVY_MAX_WAIT_MS goes before a request's.
      q.push(unit('request 2'));
      q.push(unit('long read', { heavy: true }));
      q.push(unit('request 3'));
      clock += HEAVY_MAX_WAIT_MS;
      await step();
      expect(ran.slice(-2)).toEqual(['request 2', 'long read']);
      await step();
      expect(ran.at(-1)).toBe('request 3');
      await step();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the event loop turning while PGlite runs a long statement (in process it stalls)', async () => {
    const heavy = sql`select count(*)::int as n from generate_series(1, 2000000)`;
    const ticksDuring = async (d: Database) => {
      let ticks = 0;
      let running = true;
      const tick = () => {
        if (!running) return;
        ticks++;
        setImmediate(tick);
      };
      setImmediate(tick);
      const [{ n }] = await rows<{ n: number }>(d.db, heavy);
      running = false;
      expect(n).toBe(2_000_000);
      return ticks;
    };
    // In process the statement runs between two turns of the loop: (almost) no tick.
    expect(await ticksDuring(inProcess)).toBeLessThan(10);
    // Through the worker the loop keeps turning all along.
    expect(await ticksDuring(worker)).toBeGreaterThan(1000);
  });

  it('dumps a database that another worker opens, and refuses statements once closed', async () => {
    const dump = await worker.dump!();
    const copy = await openPglite(undefined, { loadDataDir: dump, worker: true });
    try {
      expect(await rows(copy.db, sql`select name from item where id = 1`)).toEqual([{ name: 'один' }]);
    } finally {
      await copy.close();
    }
    await expect(copy.db.execute(sql`select 1`)).rejects.toThrow();
  });
});
