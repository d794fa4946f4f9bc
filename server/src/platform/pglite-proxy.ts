// The main thread's side of the PGlite worker (pglite-worker.ts, decision 033): an object with the
// part of PGlite's interface that drizzle's pglite driver and db.ts use (query with params, exec,
// transaction with its statements in order, dumpDataDir, close), each call a message with an id over
// the worker's port. Values cross by structured clone, which keeps what PGlite returns (Date,
// bigint, Uint8Array, parsed JSON); errors keep PostgreSQL's fields (code, constraint, detail…).
import { Worker } from 'node:worker_threads';
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { isBackground, isHeavy } from './work-priority.ts';
import type { PgliteWorkerData, WireError, WorkerHello, WorkerQueryOptions, WorkerReply, WorkerRequest } from './pglite-worker.ts';

/** What drizzle's pglite driver and db.ts call on a PGlite instance. */
export type PgliteClient = Pick<PGlite, 'query' | 'exec' | 'transaction' | 'dumpDataDir' | 'close'>;

const BOOTSTRAP = new URL('./ts-worker.mjs', import.meta.url);
const ENTRY = new URL('./pglite-worker.ts', import.meta.url);

type Parsers = NonNullable<QueryOptions['parsers']>;

/** A PostgreSQL (or PGlite) error rebuilt on this side of the thread with all its scalar fields. */
export function fromWire(w: WireError): Error {
  const err = new Error(w.message);
  Object.assign(err, w.fields);
  err.name = w.name;
  if (w.stack) err.stack = w.stack;
  return err;
}

type RequestBody<R = WorkerRequest> = R extends WorkerRequest ? Omit<R, 'id'> : never;

export class PgliteProxy implements PgliteClient {
  private nextId = 1;
  private nextTx = 1;
  /** Calls not answered yet; `locks`: the call needs the database to itself (a statement outside a transaction, a begin). */
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; locks: boolean }>();
  private dead: Error | null = null;
  private closing = false;
  /** Transactions whose begin was answered and that have not ended: the one holding the database, if any. */
  private held = 0;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: WorkerReply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (!this.pending.size) worker.unref();
      if (m.ok) p.resolve(m.value);
      else p.reject(fromWire(m.error));
    });
    const gone = (err: Error) => {
      // Not closed by close(): every statement from now on fails, so say why once.
      if (!this.dead && !this.closing) console.error(`The embedded database (PGlite worker) stopped: ${err.message}`);
      this.dead ??= err;
      for (const p of this.pending.values()) p.reject(this.dead);
      this.pending.clear();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`PGlite worker stopped (exit code ${code})`)));
  }

  /** Starts the worker and opens PGlite in it (the data folder, or memory, optionally from a dump). */
  static async start(o: { dataDir?: string; loadDataDir?: Blob }): Promise<PgliteProxy> {
    const loadDataDir = o.loadDataDir ? await o.loadDataDir.arrayBuffer() : undefined;
    const workerData: PgliteWorkerData = { entry: ENTRY.href, dataDir: o.dataDir, loadDataDir };
    // The same bootstrap as the uniqueness pool: tsx's loader registered in the thread itself.
    const worker = new Worker(BOOTSTRAP, { workerData, transferList: loadDataDir ? [loadDataDir] : [], execArgv: [] });
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`PGlite worker stopped while opening (exit code ${code})`));
      worker.once('error', reject);
      worker.once('exit', onExit);
      worker.once('message', (hello: WorkerHello) => {
        worker.off('error', reject);
        worker.off('exit', onExit);
        if (hello.op === 'ready') resolve();
        else reject(fromWire(hello.error));
      });
    });
    // Idle, the worker does not keep the process alive (as an in-process PGlite would not); a
    // request in flight does.
    worker.unref();
    return new PgliteProxy(worker);
  }

  private call<T>(body: RequestBody, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (!this.pending.size) this.worker.ref();
      const locks = !('tx' in body) || body.tx === undefined || body.op === 'begin';
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, locks });
      // A heavy request's or a background job's statement or transaction waits in the worker while
      // requests' wait (PGLITE_PRIORITY=0: one queue in arrival order, for comparison in the bench).
      const marked = locks && process.env.PGLITE_PRIORITY !== '0';
      const mark = marked && isBackground() ? { low: true } : marked && isHeavy() ? { heavy: true } : {};
      this.worker.postMessage({ ...body, ...mark, id } as WorkerRequest, transfer);
    });
  }

  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.runQuery<T>(undefined, query, params, options);
  }

  exec(query: string, options?: QueryOptions): Promise<Array<Results>> {
    return this.runExec(undefined, query, options);
  }

  /**
   * Runs callback with a transaction held open on the worker: its statements run there in one PGlite
   * transaction, in order; everyone else's statements wait until it ends (as with PGlite in one
   * thread). Commits when callback resolves, rolls back when it throws (and rethrows).
   */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const txId = this.nextTx++;
    await this.call({ op: 'begin', tx: txId });
    this.held++;
    try {
      return await this.inTransaction(txId, callback);
    } finally {
      this.held--;
    }
  }

  /**
   * The database's one connection, for the metrics: in use while a statement runs or a transaction
   * holds it; waiting, the statements (and transactions' begins) queued in the worker behind it.
   */
  stats(): { inUse: number; waiting: number } {
    let locking = 0;
    for (const p of this.pending.values()) if (p.locks) locking++;
    if (this.held > 0) return { inUse: 1, waiting: locking };
    return { inUse: this.pending.size > 0 ? 1 : 0, waiting: Math.max(0, locking - 1) };
  }

  private async inTransaction<T>(txId: number, callback: (tx: Transaction) => Promise<T>): Promise<T> {
    let closed = false;
    const check = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx: Transaction = {
      query: async <R>(query: string, params?: unknown[], options?: QueryOptions) => (check(), this.runQuery<R>(txId, query, params, options)),
      exec: async (query: string, options?: QueryOptions) => (check(), this.runExec(txId, query, options)),
      sql: () => Promise.reject(new Error('sql`` is not available through the PGlite worker; use query()')),
      rollback: async () => {
        check();
        await this.call({ op: 'rollback', tx: txId });
        closed = true;
      },
      listen: () => Promise.reject(new Error('LISTEN is not available through the PGlite worker')),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (err) {
      closed = true;
      // The callback's error is the one to report; a failed rollback means the worker is gone.
      await this.call({ op: 'end', tx: txId, commit: false }).catch(() => undefined);
      throw err;
    }
    closed = true;
    await this.call({ op: 'end', tx: txId, commit: true });
    return result;
  }

  async dumpDataDir(compression: 'none' | 'gzip' | 'auto' = 'auto'): Promise<Blob> {
    const buffer = await this.call<ArrayBuffer>({ op: 'dump', compression });
    return new Blob([buffer]);
  }

  async close(): Promise<void> {
    if (this.dead) return;
    this.closing = true;
    await this.call({ op: 'close' });
    this.dead = new Error('PGlite worker is closed');
    await this.worker.terminate();
  }

  private async runQuery<T>(tx: number | undefined, query: string, params: unknown[] | undefined, options: QueryOptions | undefined): Promise<Results<T>> {
    const { wire, parsers } = wireOptions(options);
    const result = await this.call<Results<T>>({ op: 'query', tx, sql: query, params, options: wire });
    if (parsers) applyParsers(result, parsers);
    return result;
  }

  private async runExec(tx: number | undefined, query: string, options: QueryOptions | undefined): Promise<Array<Results>> {
    const { wire, parsers } = wireOptions(options);
    const results = await this.call<Array<Results>>({ op: 'exec', tx, sql: query, options: wire });
    if (parsers) for (const r of results) applyParsers(r, parsers);
    return results;
  }
}

/**
 * Functions do not cross threads: the types of the caller's parsers come back as text from the worker
 * and the parsers run here, on each non-null value of those columns, as PGlite would run them.
 */
function wireOptions(options: QueryOptions | undefined): { wire?: WorkerQueryOptions; parsers?: Parsers } {
  if (!options) return {};
  if (options.serializers || options.blob || options.onNotice) throw new Error('PGlite worker: serializers, blob and onNotice are not supported');
  const parsers = options.parsers && Object.keys(options.parsers).length ? options.parsers : undefined;
  return {
    wire: { rowMode: options.rowMode, paramTypes: options.paramTypes, rawTypes: parsers ? Object.keys(parsers).map(Number) : undefined },
    parsers,
  };
}

function applyParsers(result: Results<unknown>, parsers: Parsers): void {
  const fields = result.fields ?? [];
  const columns = fields.flatMap((f, index) => (f.dataTypeID in parsers ? [{ index, name: f.name, parse: parsers[f.dataTypeID], type: f.dataTypeID }] : []));
  if (!columns.length) return;
  for (const row of result.rows as Array<Record<string | number, unknown>>) {
    for (const c of columns) {
      const key = Array.isArray(row) ? c.index : c.name;
      const value = row[key];
      if (value !== null && value !== undefined) row[key] = (c.parse as (v: unknown, t: number) => unknown)(value, c.type);
    }
  }
}
