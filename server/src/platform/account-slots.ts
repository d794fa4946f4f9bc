/**
 * At most `perAccount` pieces of long work of one account at a time on this instance (an .xlsx export
 * streams for seconds): `take` answers a release function, or null when the account is at its limit.
 * Releasing twice is harmless.
 */
export class AccountSlots {
  private readonly busy = new Map<number, number>();

  constructor(private readonly perAccount: number) {}

  take(account: number): (() => void) | null {
    const n = this.busy.get(account) ?? 0;
    if (n >= this.perAccount) return null;
    this.busy.set(account, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.busy.get(account) ?? 1) - 1;
      if (left > 0) this.busy.set(account, left);
      else this.busy.delete(account);
    };
  }

  /** Slots in use, all accounts together. */
  get inUse(): number {
    let n = 0;
    for (const v of this.busy.values()) n += v;
    return n;
  }
}
