import { PrintMessages } from '@edu/domain/documents/print';
import { AccountSlots } from '../../platform/account-slots.ts';
import { AppError } from '../../platform/errors.ts';

/**
 * Prints in flight on this instance (decision 021):
 * - at most `perUser` print requests of one account at a time; one more is answered 429 at once,
 *   before any database or converter work;
 * - one render per distinct document at a time: a request for a document that is being rendered
 *   (same cache key, asked by anyone, a job included) waits for that render instead of starting
 *   another.
 */
export class PrintGate {
  private readonly renders = new Map<string, Promise<void>>();
  private readonly perAccount: AccountSlots;
  /** Renders started (not joined) since the server started: for tests and the bench. */
  started = 0;

  constructor(perUser: number) {
    this.perAccount = new AccountSlots(perUser);
  }

  /** Runs one print request of `account`, or refuses it (429) when the account has `perUser` running. */
  async forAccount<T>(account: number, print: () => Promise<T>): Promise<T> {
    const release = this.perAccount.take(account);
    if (!release) throw new AppError(429, PrintMessages.tooManyPrints);
    try {
      return await print();
    } finally {
      release();
    }
  }

  /** Runs `render` for the document `key` unless it is running already; then waits for that run. */
  once(key: string, render: () => Promise<void>): Promise<void> {
    const running = this.renders.get(key);
    if (running) return running;
    this.started++;
    const run = render().finally(() => this.renders.delete(key));
    this.renders.set(key, run);
    return run;
  }

  /** Renders in flight (distinct documents). */
  get inFlight(): number {
    return this.renders.size;
  }
}
