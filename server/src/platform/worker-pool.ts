// A small pool of worker threads for CPU-heavy pure code (the uniqueness engine): the main thread only
// posts a task and awaits its answer, so the event loop keeps serving requests. Tasks beyond the pool
// wait in a bounded queue; a full queue refuses at once (PoolBusyError), a worker that dies (a crash,
// the heap limit) fails its task and is replaced by the next task.
import os from 'node:os';
import { parentPort, Worker, workerData, type Transferable } from 'node:worker_threads';
import { niceCurrentThread } from './thread-priority.ts';

/** Workers for CPU work: the cores less one left to the API, at least one. */
export function defaultWorkerCount(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

export class PoolBusyError extends Error {
  constructor() {
    super('worker pool queue is full');
  }
}

interface Pending {
  message: unknown;
  transfer: Transferable[];
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  task: Pending | null;
}

interface Reply {
  ok: boolean;
  value?: unknown;
  error?: string;
}

export interface WorkerPoolOptions {
  /** The TypeScript module the workers run (it calls serveTasks). */
  entry: URL;
  size: number;
  /** Tasks waiting for a worker at most; one more is refused. */
  maxQueue: number;
  /** Heap limit of each worker (old generation), megabytes. */
  maxHeapMb?: number;
  /**
   * Niceness of the workers' threads (Linux; 0 = as the request thread): background CPU work gives
   * way to the request thread when the cores are busy.
   */
  nice?: number;
}

const BOOTSTRAP = new URL('./ts-worker.mjs', import.meta.url);

export class WorkerPool<In, Out> {
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private closed = false;

  constructor(private readonly o: WorkerPoolOptions) {}

  /** Tasks running and waiting. */
  get stats(): { size: number; running: number; queued: number } {
    return { size: this.o.size, running: this.slots.filter((s) => s.task).length, queued: this.queue.length };
  }

  run(message: In, transfer: Transferable[] = []): Promise<Out> {
    if (this.closed) return Promise.reject(new Error('worker pool is closed'));
    return new Promise<Out>((resolve, reject) => {
      const task: Pending = { message, transfer, resolve: resolve as (v: unknown) => void, reject };
      const slot = this.idleSlot();
      if (slot) this.start(slot, task);
      else if (this.queue.length >= this.o.maxQueue) reject(new PoolBusyError());
      else this.queue.push(task);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.reject(new Error('worker pool is closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots = [];
  }

  private idleSlot(): Slot | undefined {
    const idle = this.slots.find((s) => !s.task);
    if (idle) return idle;
    if (this.slots.length >= this.o.size) return undefined;
    const slot: Slot = { worker: this.spawn(), task: null };
    this.slots.push(slot);
    this.watch(slot);
    return slot;
  }

  private spawn(): Worker {
    const worker = new Worker(BOOTSTRAP, {
      workerData: { entry: this.o.entry.href, nice: this.o.nice ?? 0 },
      execArgv: [],
      resourceLimits: this.o.maxHeapMb ? { maxOldGenerationSizeMb: this.o.maxHeapMb } : undefined,
    });
    worker.unref();
    return worker;
  }

  private watch(slot: Slot): void {
    slot.worker.on('message', (reply: Reply) => {
      const task = slot.task;
      slot.task = null;
      if (task) {
        if (reply.ok) task.resolve(reply.value);
        else task.reject(new Error(reply.error ?? 'worker task failed'));
      }
      this.next(slot);
    });
    const gone = (err: Error) => {
      const task = slot.task;
      slot.task = null;
      this.slots = this.slots.filter((s) => s !== slot);
      task?.reject(err);
      // A queued task gets a fresh worker.
      if (!this.closed && this.queue.length) {
        const fresh = this.idleSlot();
        if (fresh) this.start(fresh, this.queue.shift()!);
      }
    };
    slot.worker.on('error', gone);
    slot.worker.on('exit', (code) => {
      if (this.slots.includes(slot)) gone(new Error(`worker stopped (exit code ${code})`));
    });
  }

  private next(slot: Slot): void {
    const task = this.queue.shift();
    if (task) this.start(slot, task);
    else slot.worker.unref();
  }

  private start(slot: Slot, task: Pending): void {
    slot.task = task;
    // While a task runs the worker keeps the process alive; an idle one does not.
    slot.worker.ref();
    slot.worker.postMessage(task.message, task.transfer);
  }
}

/** Worker side: answers each posted task with the handler's result (or its error message). */
export function serveTasks<In, Out>(handler: (message: In) => Out | Promise<Out>, transferOf: (result: Out) => Transferable[] = () => []): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks runs in a worker thread');
  const nice = (workerData as { nice?: number } | null)?.nice;
  if (nice) niceCurrentThread(nice);
  const answer = async (message: In): Promise<void> => {
    try {
      const value = await handler(message);
      port.postMessage({ ok: true, value } satisfies Reply, transferOf(value));
    } catch (err) {
      port.postMessage({ ok: false, error: String((err as Error)?.message ?? err) } satisfies Reply);
    }
  };
  // The listener does not wait: answer() catches its own errors and replies either way.
  port.on('message', (message: In) => {
    void answer(message);
  });
}
