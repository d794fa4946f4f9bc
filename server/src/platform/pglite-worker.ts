// The embedded database's own thread (decision 033): this worker owns the PGlite instance and runs
// every statement the main thread sends it (pglite-proxy.ts), so PGlite's work (its queries, WAL and
// checkpoints, all synchronous WebAssembly) never blocks the request thread's event loop.
// Protocol: each request carries an id and gets one reply with that id. A transaction is opened by
// 'begin' (answered once PGlite's BEGIN ran) and held open, inside `pg.transaction`, until the main
// thread's 'end' (commit or rollback); statements carrying its id run in it, in the order they
// arrive. Everything else (a statement outside a transaction, a begin, a dump) is a unit that needs
// the one connection to itself: the worker runs one unit at a time and, when one ends, starts the
// oldest unit of a request before any of a heavy request (`heavy`: a 480 000-character text saved or
// read) or a background job (`low`), and after a request's unit holds those back for
// REQUEST_HOLD_MS, so that the request's next statement comes first; a person's save waits for at
// most the statement or transaction already running, not for a check's queue of chunks or five long
// saves (issue 29). A heavy or background unit that has waited HEAVY_MAX_WAIT_MS or LOW_MAX_WAIT_MS
// goes first, so requests cannot starve them.
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export interface WorkerQueryOptions {
  rowMode?: 'array' | 'object';
  paramTypes?: number[];
  /** Types whose values come back as PostgreSQL's text (the main thread applies its own parsers). */
  rawTypes?: number[];
}

/**
 * `low`: a background job's; `heavy`: a request's that carries a long text (work-priority.ts). Both
 * wait while requests' statements and begins wait (UnitQueue).
 */
export type WorkerRequest =
  | { op: 'query'; id: number; tx?: number; sql: string; params?: unknown[]; options?: WorkerQueryOptions; low?: boolean; heavy?: boolean }
  | { op: 'exec'; id: number; tx?: number; sql: string; options?: WorkerQueryOptions; low?: boolean; heavy?: boolean }
  | { op: 'begin'; id: number; tx: number; low?: boolean; heavy?: boolean }
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'rollback'; id: number; tx: number }
  | { op: 'dump'; id: number; compression: 'none' | 'gzip' | 'auto' }
  | { op: 'close'; id: number };

/** An error as it crosses the thread: PostgreSQL's fields (code, constraint, detail…) kept as they are. */
export interface WireError {
  message: string;
  name: string;
  stack?: string;
  fields: Record<string, string | number | boolean | null>;
}

export type WorkerReply = { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: WireError };

/** The worker's first message: PGlite is open (or could not be opened). */
export type WorkerHello = { op: 'ready' } | { op: 'failed'; error: WireError };

export interface PgliteWorkerData {
  entry: string;
  dataDir?: string;
  /** A data folder tarball (PGlite's dumpDataDir) to start from. */
  loadDataDir?: ArrayBuffer;
}

export function toWire(err: unknown): WireError {
  if (!(err instanceof Error)) return { message: String(err), name: 'Error', fields: {} };
  const fields: WireError['fields'] = {};
  for (const [key, value] of Object.entries(err)) {
    // Scalars only: PGlite's error also carries the query's params and options (parser functions).
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return { message: err.message, name: err.name, stack: err.stack, fields };
}

const identity = (value: unknown) => value;

function pgliteOptions(o: WorkerQueryOptions | undefined): QueryOptions | undefined {
  if (!o) return undefined;
  const options: QueryOptions = {};
  if (o.rowMode) options.rowMode = o.rowMode;
  if (o.paramTypes) options.paramTypes = o.paramTypes;
  if (o.rawTypes?.length) options.parsers = Object.fromEntries(o.rawTypes.map((t) => [t, identity]));
  return options;
}

/** Thrown inside `pg.transaction` to make PGlite roll back when the main thread asks for it. */
class RollbackRequested extends Error {}

/** A background unit waiting longer than this goes before requests' units. */
export const LOW_MAX_WAIT_MS = 2000;

/** A heavy request's unit (work-priority.ts: a save of a long text) waiting longer than this goes before other requests' units. */
export const HEAVY_MAX_WAIT_MS = 1000;

/**
 * After a request's unit, how long heavy and background units are held back for the next unit of a
 * request: a request runs its statements one after another (the session, the access, the limits,
 * its transaction), each sent when the previous one's answer reached the main thread, a fraction of a
 * millisecond later; without the hold a check's chunk or another's 1 MB save would start in every
 * such gap, and the request would wait for one at each of its statements.
 */
export const REQUEST_HOLD_MS = 2;

type Waiting = { m: WorkerRequest; since: number };

/**
 * The units that need the connection to themselves, run one at a time: requests' first, in arrival
 * order; then heavy requests' (`heavy`), then background ones (`low`). A heavy or background unit
 * starts only when no request's unit has ended in the last REQUEST_HOLD_MS, and goes first once it has
 * waited HEAVY_MAX_WAIT_MS or LOW_MAX_WAIT_MS, so requests cannot starve the others.
 */
export class UnitQueue {
  private high: WorkerRequest[] = [];
  private heavy: Waiting[] = [];
  private low: Waiting[] = [];
  private running = false;
  /** While set, heavy and background units wait: a request's unit has just ended. */
  private holding: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly run: (m: WorkerRequest) => Promise<void>,
    private readonly now: () => number = () => performance.now(),
    private readonly holdMs = REQUEST_HOLD_MS,
  ) {}

  push(m: WorkerRequest): void {
    if ('low' in m && m.low) this.low.push({ m, since: this.now() });
    else if ('heavy' in m && m.heavy) this.heavy.push({ m, since: this.now() });
    else this.high.push(m);
    this.next();
  }

  private take(): WorkerRequest | undefined {
    const now = this.now();
    if (this.low[0] && now - this.low[0].since >= LOW_MAX_WAIT_MS) return this.low.shift()!.m;
    if (this.heavy[0] && now - this.heavy[0].since >= HEAVY_MAX_WAIT_MS) return this.heavy.shift()!.m;
    if (this.high.length) return this.high.shift();
    if (this.holding) return undefined;
    return (this.heavy.shift() ?? this.low.shift())?.m;
  }

  private next(): void {
    if (this.running) return;
    const m = this.take();
    if (!m) return;
    this.running = true;
    const request = !('low' in m && m.low) && !('heavy' in m && m.heavy);
    void this.run(m).finally(() => {
      this.running = false;
      if (request && this.holdMs > 0 && (this.heavy.length || this.low.length)) this.hold();
      this.next();
    });
  }

  private hold(): void {
    if (this.holding) clearTimeout(this.holding);
    this.holding = setTimeout(() => {
      this.holding = null;
      this.next();
    }, this.holdMs);
  }
}

async function serve(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('pglite-worker runs in a worker thread');
  const data = workerData as PgliteWorkerData;
  let pg: PGlite;
  try {
    pg = await PGlite.create(data.dataDir, {
      loadDataDir: data.loadDataDir ? new Blob([data.loadDataDir]) : undefined,
      // pg_trgm: trigram indexes for the substring searches (titles), as on the PostgreSQL server.
      extensions: { pg_trgm },
    });
  } catch (err) {
    port.postMessage({ op: 'failed', error: toWire(err) } satisfies WorkerHello);
    return;
  }

  /** Open transactions by id: PGlite's handle and the way to finish the held callback. */
  const open = new Map<number, { tx: Transaction; finish: (commit: boolean) => void }>();

  const target = (tx: number | undefined) => {
    if (tx === undefined) return pg;
    const t = open.get(tx);
    if (!t) throw new Error('Transaction is closed');
    return t.tx;
  };

  const reply = (id: number, value?: unknown, transfer: ArrayBuffer[] = []) => port.postMessage({ id, ok: true, value } satisfies WorkerReply, transfer);
  const fail = (id: number, err: unknown) => port.postMessage({ id, ok: false, error: toWire(err) } satisfies WorkerReply);

  /** Outcome waiters of the 'end' requests, by transaction id. */
  const ends = new Map<number, number>();

  /** Opens a transaction; resolves when it has ended (committed, rolled back or failed to open). */
  const begin = (id: number, txId: number): Promise<void> => {
    let begun = false;
    return pg
      .transaction(async (tx) => {
        const commit = await new Promise<boolean>((finish) => {
          open.set(txId, { tx, finish });
          begun = true;
          reply(id);
        });
        if (!commit) throw new RollbackRequested();
      })
      .then(
        () => {
          open.delete(txId);
          const endId = ends.get(txId);
          ends.delete(txId);
          if (endId !== undefined) reply(endId);
        },
        (err: unknown) => {
          open.delete(txId);
          const endId = ends.get(txId);
          ends.delete(txId);
          if (!begun) fail(id, err);
          else if (endId !== undefined) {
            if (err instanceof RollbackRequested) reply(endId);
            else fail(endId, err);
          }
        },
      );
  };

  const handle = async (m: WorkerRequest): Promise<void> => {
    try {
      switch (m.op) {
        case 'query':
          return reply(m.id, await target(m.tx).query(m.sql, m.params, pgliteOptions(m.options)));
        case 'exec':
          return reply(m.id, await target(m.tx).exec(m.sql, pgliteOptions(m.options)));
        case 'begin':
          return await begin(m.id, m.tx);
        case 'end': {
          const t = open.get(m.tx);
          if (!t) return reply(m.id);
          ends.set(m.tx, m.id);
          return t.finish(m.commit);
        }
        case 'rollback':
          return reply(m.id, await (target(m.tx) as Transaction).rollback());
        case 'dump': {
          const buffer = await (await pg.dumpDataDir(m.compression)).arrayBuffer();
          return reply(m.id, buffer, [buffer]);
        }
        case 'close':
          await pg.close();
          reply(m.id);
          port.close();
          return;
      }
    } catch (err) {
      fail(m.id, err);
    }
  };

  // PGLITE_PRIORITY=0 (the proxy then marks nothing): one queue in arrival order, no hold either.
  const queue = new UnitQueue(handle, undefined, process.env.PGLITE_PRIORITY === '0' ? 0 : REQUEST_HOLD_MS);
  port.on('message', (m: WorkerRequest) => {
    // A statement of an open transaction, its end or rollback: it runs in the unit holding the
    // connection, at once and in arrival order.
    if ('tx' in m && m.tx !== undefined && m.op !== 'begin') void handle(m);
    else queue.push(m);
  });
  port.postMessage({ op: 'ready' } satisfies WorkerHello);
}

// Imported by tests for UnitQueue; serves only as the worker.
if (!isMainThread && (workerData as PgliteWorkerData | undefined)?.entry?.endsWith('pglite-worker.ts')) await serve();
