import { ConverterBusy } from './converter-errors.ts';

/**
 * Work waiting for a converter, served fairly: one FIFO per owner (an account, a job), taken in
 * turn, so one owner's burst waits behind itself rather than in front of everybody else. An owner
 * that gets an item goes to the back of the turn; a newcomer joins at the back.
 *
 * Bounded: at most `limit` items wait in all; a bounded push past that throws ConverterBusy
 * (answered 503). Unbounded pushes (a job's few lanes, bounded by the job itself) always queue.
 */
export class FairQueue<T> {
  /** Map keeps insertion order: its first owner is the one whose turn it is. */
  private readonly byOwner = new Map<string, T[]>();
  private count = 0;

  constructor(private readonly limit: number) {}

  get length(): number {
    return this.count;
  }

  push(owner: string, item: T, opts: { bounded?: boolean } = {}): void {
    if ((opts.bounded ?? true) && this.count >= this.limit) throw new ConverterBusy();
    const queue = this.byOwner.get(owner);
    if (queue) queue.push(item);
    else this.byOwner.set(owner, [item]);
    this.count++;
  }

  /** The oldest item of the owner whose turn it is; that owner goes to the back of the turn. */
  shift(): T | undefined {
    const first = this.byOwner.entries().next();
    if (first.done) return undefined;
    const [owner, queue] = first.value;
    const item = queue.shift()!;
    this.byOwner.delete(owner);
    if (queue.length > 0) this.byOwner.set(owner, queue);
    this.count--;
    return item;
  }

  /** Takes every waiting item out (when the converter closes). */
  drain(): T[] {
    const all = [...this.byOwner.values()].flat();
    this.byOwner.clear();
    this.count = 0;
    return all;
  }
}
