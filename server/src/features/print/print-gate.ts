import { PrintMessages } from '@edu/domain/documents/print';
import { AppError } from '../../platform/errors.ts';

/**
 * Renders in flight on this instance (decision 019):
 * - one render per distinct document at a time: a request for a document that is being rendered
 *   (same cache key) waits for that render instead of starting another;
 * - at most `perUser` renders started by one account at a time; one more is answered 429.
 * A request that joins a render in flight, or finds the document in the cache, costs no render and
 * is not counted. Work of jobs (no account) is not limited here: a job bounds its own lanes.
 */
export class PrintGate {
  private readonly renders = new Map<string, Promise<void>>();
  private readonly perAccount = new Map<number, number>();
  /** Renders started (not joined) since the server started: for tests and the bench. */
  started = 0;

  constructor(private readonly perUser: number) {}

  /**
   * Runs `render` for the document `key` unless it is running already (then waits for that run).
   * `account` is the asking user, null for a job.
   */
  async once(key: string, account: number | null, render: () => Promise<void>): Promise<void> {
    const running = this.renders.get(key);
    if (running) return running;
    if (account !== null) {
      const busy = this.perAccount.get(account) ?? 0;
      if (busy >= this.perUser) throw new AppError(429, PrintMessages.tooManyPrints);
      this.perAccount.set(account, busy + 1);
    }
    this.started++;
    const run = render().finally(() => {
      this.renders.delete(key);
      if (account === null) return;
      const left = (this.perAccount.get(account) ?? 1) - 1;
      if (left > 0) this.perAccount.set(account, left);
      else this.perAccount.delete(account);
    });
    this.renders.set(key, run);
    return run;
  }

  /** Renders in flight (distinct documents). */
  get inFlight(): number {
    return this.renders.size;
  }
}
