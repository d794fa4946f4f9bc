import { PrintMessages } from '@edu/domain/documents/print';
import { isOperator, type RoleCode } from '@edu/domain/common/codes';
import { AccountSlots } from '../../platform/account-slots.ts';
import { AppError } from '../../platform/errors.ts';
import { FairQueue } from '../../platform/converters/fair-queue.ts';
import { ConverterBusy } from '../../platform/converters/converter-errors.ts';
import { isLoopback, plainAddress, subnetOf } from '../../platform/ip-subnet.ts';

/** The limits of printing on one instance (config.print; decision 021). 0 turns an address limit off. */
export interface PrintLimits {
  /** Print requests of one account at a time; one more is 429. */
  perUser: number;
  /** Renders at a time among all free accounts together (no paid entry, not operators). */
  freeRenders: number;
  /** Renders of free accounts that may wait for that share; one more is 503. */
  freeWaiting: number;
  /** Prints of free accounts in flight from one address / one /24 (IPv4) or /64 (IPv6); one more is 429. */
  perIp: number;
  perSubnet: number;
  /** Prints of free accounts started from one address / one subnet in a minute; one more is 429. */
  perIpPerMinute: number;
  perSubnetPerMinute: number;
}

/** Who prints: the account (its role) and the client address (request.ip, which honours TRUST_PROXY). */
export interface Printer {
  id: number;
  role: RoleCode;
  ip: string;
}

/** How long an account's tier (paying or free) is remembered: a payment counts within this time. */
const TIER_TTL_MS = 15_000;
const MINUTE_MS = 60_000;

/** In-flight counts by key (an address, a subnet); `take` answers a release, or null at the limit. */
class KeyedSlots {
  private readonly busy = new Map<string, number>();
  constructor(private readonly limit: number) {}

  take(key: string): (() => void) | null {
    const n = this.busy.get(key) ?? 0;
    if (this.limit > 0 && n >= this.limit) return null;
    this.busy.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.busy.get(key) ?? 1) - 1;
      if (left > 0) this.busy.set(key, left);
      else this.busy.delete(key);
    };
  }
}

/** Starts per key in fixed one-minute windows. */
class MinuteCounter {
  private readonly windows = new Map<string, { start: number; n: number }>();
  constructor(private readonly limit: number) {}

  /** True when one more start of `key` fits in its current minute (nothing is counted). */
  fits(key: string, now: number): boolean {
    if (this.limit <= 0) return true;
    const w = this.windows.get(key);
    return !w || now - w.start >= MINUTE_MS || w.n < this.limit;
  }

  count(key: string, now: number): void {
    if (this.limit <= 0) return;
    const w = this.windows.get(key);
    if (!w || now - w.start >= MINUTE_MS) this.windows.set(key, { start: now, n: 1 });
    else w.n++;
    if (this.windows.size > 10_000) for (const [k, v] of this.windows) if (now - v.start >= MINUTE_MS) this.windows.delete(k);
  }
}

/**
 * Prints in flight on this instance (decision 021):
 * - at most `perUser` print requests of one account at a time; one more is answered 429 at once,
 *   before any database or converter work;
 * - one render per distinct document at a time: a request for a document that is being rendered
 *   (same cache key, asked by anyone, a job included) waits for that render instead of starting
 *   another;
 * - free accounts (no live paid entry, not operators) are limited together (issue 29): at most
 *   `freeRenders` of their renders at a time, `freeWaiting` more waiting in turn per account (one
 *   more is 503), and per client address and subnet a few prints in flight and per minute (429).
 *   Paying clients and operators are limited per account only, so a crowd of free accounts holds at
 *   most `freeRenders` converter slots and never fills a converter's queue in front of them.
 */
export class PrintGate {
  private readonly renders = new Map<string, Promise<void>>();
  private readonly perAccount: AccountSlots;
  private readonly perIp: KeyedSlots;
  private readonly perSubnet: KeyedSlots;
  private readonly ipMinute: MinuteCounter;
  private readonly subnetMinute: MinuteCounter;
  /** Free accounts with a print in flight (how many): their renders take the free share. */
  private readonly freePrinting = new Map<number, number>();
  private readonly tiers = new Map<number, { paid: boolean; at: number }>();
  private freeActive = 0;
  private readonly freeQueue: FairQueue<() => void>;
  /** Renders started (not joined) since the server started: for tests and the bench. */
  started = 0;

  constructor(
    private readonly limits: PrintLimits,
    /** True when the account has a live paid entry (print-repository's hasPaidEntry). */
    private readonly paidAccount: (account: number) => Promise<boolean>,
  ) {
    this.perAccount = new AccountSlots(limits.perUser);
    this.perIp = new KeyedSlots(limits.perIp);
    this.perSubnet = new KeyedSlots(limits.perSubnet);
    this.ipMinute = new MinuteCounter(limits.perIpPerMinute);
    this.subnetMinute = new MinuteCounter(limits.perSubnetPerMinute);
    this.freeQueue = new FairQueue(limits.freeWaiting);
  }

  /**
   * Runs one print request, or refuses it (429): the account has `perUser` running, or (a free
   * account) its address or subnet is at its limit.
   */
  async forAccount<T>(who: Printer, print: () => Promise<T>): Promise<T> {
    const release = this.perAccount.take(who.id);
    if (!release) throw new AppError(429, PrintMessages.tooManyPrints);
    const releases = [release];
    try {
      if (!isOperator(who) && !(await this.isPaying(who.id))) {
        const ip = plainAddress(who.ip);
        // A loopback address is a proxy in front whose X-Forwarded-For is not trusted (TRUST_PROXY
        // unset): all clients would share it, so no address limits there (the free share still holds).
        if (!isLoopback(ip)) releases.push(...this.takeAddress(ip));
        this.freePrinting.set(who.id, (this.freePrinting.get(who.id) ?? 0) + 1);
        releases.push(() => {
          const left = (this.freePrinting.get(who.id) ?? 1) - 1;
          if (left > 0) this.freePrinting.set(who.id, left);
          else this.freePrinting.delete(who.id);
        });
      }
      return await print();
    } finally {
      for (const r of releases) r();
    }
  }

  /**
   * Runs `render` for the document `key` unless it is running already; then waits for that run.
   * A render for a free account (printing through `forAccount`) first waits for the free share.
   */
  once(key: string, render: () => Promise<void>, account?: number | null): Promise<void> {
    const running = this.renders.get(key);
    if (running) return running;
    this.started++;
    const free = account != null && this.freePrinting.has(account);
    const run = (free ? this.inFreeShare(account, render) : render()).finally(() => this.renders.delete(key));
    this.renders.set(key, run);
    return run;
  }

  /** True while the account prints as a free account (through `forAccount`): its renders run at low priority. */
  isFree(account: number | null | undefined): boolean {
    return account != null && this.freePrinting.has(account);
  }

  /** Renders in flight (distinct documents), waiting for the free share included. */
  get inFlight(): number {
    return this.renders.size;
  }

  /** Renders of free accounts running / waiting for their share. */
  get free(): { running: number; waiting: number } {
    return { running: this.freeActive, waiting: this.freeQueue.length };
  }

  /** Takes a print's place from its address and subnet (releases), or refuses it (429). */
  private takeAddress(ip: string): (() => void)[] {
    const subnet = subnetOf(ip);
    const now = Date.now();
    if (!this.ipMinute.fits(ip, now) || !this.subnetMinute.fits(subnet, now)) throw new AppError(429, PrintMessages.tooManyPrintsFromAddress);
    const ipSlot = this.perIp.take(ip);
    if (!ipSlot) throw new AppError(429, PrintMessages.tooManyPrintsFromAddress);
    const subnetSlot = this.perSubnet.take(subnet);
    if (!subnetSlot) {
      ipSlot();
      throw new AppError(429, PrintMessages.tooManyPrintsFromAddress);
    }
    this.ipMinute.count(ip, now);
    this.subnetMinute.count(subnet, now);
    return [ipSlot, subnetSlot];
  }

  private async isPaying(account: number): Promise<boolean> {
    const now = Date.now();
    const known = this.tiers.get(account);
    if (known && now - known.at < TIER_TTL_MS) return known.paid;
    const paid = await this.paidAccount(account);
    this.tiers.set(account, { paid, at: now });
    if (this.tiers.size > 10_000) for (const [k, v] of this.tiers) if (now - v.at >= TIER_TTL_MS) this.tiers.delete(k);
    return paid;
  }

  private async inFreeShare(account: number, render: () => Promise<void>): Promise<void> {
    if (this.freeActive < this.limits.freeRenders) this.freeActive++;
    else {
      try {
        // The finishing render hands its place over (freeActive stays the same).
        await new Promise<void>((resolve) => this.freeQueue.push(`user:${account}`, resolve));
      } catch (err) {
        if (err instanceof ConverterBusy) throw new AppError(503, PrintMessages.printQueueFull);
        throw err;
      }
    }
    try {
      await render();
    } finally {
      const next = this.freeQueue.shift();
      if (next) next();
      else this.freeActive--;
    }
  }
}
