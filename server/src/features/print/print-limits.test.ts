import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PrintMessages } from '@edu/domain/documents/print';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { entries, templates } from '../../db/schema/index.ts';
import { ConversionFailed } from '../../platform/converters/converter-errors.ts';
import type { HtmlPdfConverter } from '../../platform/converters/html-pdf.ts';
import type { ConvertOwner } from '../../platform/converters/office-converter.ts';

// Printing under load (issue 18, decision 021): one render per distinct document at a time, a few
// prints in flight per account (429 past it), a bounded converter queue (503 past it); free accounts
// (no paid entry) share one render at a time and are limited per address and subnet (issue 29).
// Registration lists, printed through the real Chromium.

const PER_USER = 2;
const QUEUE = 2;
const FREE_WAITING = 2;
const LIMITS = { perIp: 2, perSubnet: 3, perIpPerMinute: 4, perSubnetPerMinute: 6 };

let t: TestApp;
let html: HtmlPdfConverter;
let owner: { id: number };
let ownerH: Record<string, string>;
let otherH: Record<string, string>;
let op: Record<string, string>;
let serviceId: number;
let otherEntry: number;
let seq = 0;
/** Every conversion the print routes ask Chromium for. */
let conversions = 0;
/** When set, conversions wait for it (renders stay in flight). */
let hold: Promise<void> | null = null;
/** When set, conversions of other owners than `spared` wait for it after taking a Chromium page. */
let holdInPage: Promise<void> | null = null;
let spared = '';
let failNext = 0;

async function makeEntry(userId: number, status = 1): Promise<number> {
  const [row] = await t.database.db
    .insert(entries)
    .values({ number: `L-${Date.now()}-${seq++}`, created_by: userId, service_id: serviceId, price: 500, status })
    .returning({ id: entries.id });
  return row.id;
}

const print = (entryId: number, headers: Record<string, string>, remoteAddress?: string) =>
  t.inject({ method: 'GET', url: `/api/entry/${entryId}/print/registration-list`, headers, remoteAddress });

/** A new account with `n` unpaid entries (a free account), logged in. */
async function freeAccount(n: number): Promise<{ h: Record<string, string>; entries: number[] }> {
  const u = await t.createUser();
  const list: number[] = [];
  for (let i = 0; i < n; i++) list.push(await makeEntry(u.id));
  return { h: await t.loginAs(u), entries: list };
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${JSON.stringify({ inFlight: t.app.printGate.inFlight, free: t.app.printGate.free })}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  t = await createTestApp({
    officeConverters: 0,
    print: { perUser: PER_USER, queueLimit: QUEUE, freeRenders: 1, freeWaiting: FREE_WAITING, ...LIMITS },
  });
  html = t.app.converters.html;
  // A page taken and kept (as a long document would keep it), for the tests of who gets a page.
  const page = html as unknown as { slot: (owner: ConvertOwner) => Promise<void> };
  const takePage = page.slot.bind(html);
  page.slot = async (o: ConvertOwner) => {
    await takePage(o);
    if (holdInPage && o.key !== spared) await holdInPage;
  };
  const original = html.toPdf.bind(html);
  html.toPdf = async (...args: Parameters<HtmlPdfConverter['toPdf']>) => {
    conversions++;
    if (hold) await hold;
    if (failNext > 0) {
      failNext--;
      throw new ConversionFailed('broken on purpose');
    }
    return original(...args);
  };
  op = await t.loginAs(await t.createUser({ role: 1 }));
  owner = await t.createUser({ last_name: 'Жукова', first_name: 'Ольга', middle_name: 'Ивановна' });
  ownerH = await t.loginAs(owner);
  const other = await t.createUser();
  otherH = await t.loginAs(other);
  const [tpl] = await t.database.db
    .insert(templates)
    .values({ title: 'Лист регистрации', dict_type_id: 3, content: '<h1>Лист регистрации</h1><p>${service.title}</p><p>Участник: ${user.fio}</p>' })
    .returning({ id: templates.id });
  serviceId = (await makeService(t.database.db, { dict_type_id: 2, title: 'Семинар «Печать под нагрузкой»', template_participation_id: tpl.id })).id;
  otherEntry = await makeEntry(other.id);
  // Both are paying clients (a paid entry each): the tests below of the per-account limit and the
  // converter queue are not about the limits of free accounts.
  await makeEntry(owner.id, 2);
  await makeEntry(other.id, 2);
  // Chromium started before the timings matter.
  expect((await print(await makeEntry(owner.id), ownerH)).statusCode).toBe(200);
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('printing under load', () => {
  it('renders a document once for many identical requests at the same time (after a profile change)', async () => {
    const entryId = await makeEntry(owner.id);
    expect((await print(entryId, ownerH)).statusCode).toBe(200);
    // The profile changes: the cached list is stale, every request below misses the cache.
    await t.database.db.execute(sql`update users set last_name = 'Журавлёва' where id = ${owner.id}`);
    const operators = await Promise.all(Array.from({ length: 4 }, async () => t.loginAs(await t.createUser({ role: 1 }))));
    const before = conversions;
    const started = t.app.printGate.started;
    // The same list, asked by its owner and by operators, each as many times as allowed at once.
    const answers = await Promise.all([ownerH, ...operators].flatMap((h) => Array.from({ length: PER_USER }, () => print(entryId, h))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(5 * PER_USER).fill(200));
    expect(conversions - before).toBe(1);
    expect(t.app.printGate.started - started).toBe(1);
    const doc = await t.inject({ method: 'GET', url: answers[0].json().url });
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-type']).toBe('application/pdf');
  }, 60_000);

  it(`lets an account have ${PER_USER} prints in flight and answers 429 past that at once, not to others`, async () => {
    await t.database.db.execute(sql`update users set last_name = 'Журавлёва-Жукова' where id = ${owner.id}`);
    const [a, b, c] = [await makeEntry(owner.id), await makeEntry(owner.id), await makeEntry(owner.id)];
    let release!: () => void;
    hold = new Promise<void>((r) => (release = r));
    try {
      const first = [print(a, ownerH), print(b, ownerH)];
      await until(() => t.app.printGate.inFlight === 2);
      // A third one, another document or the same again, is refused while both render.
      for (const entryId of [c, a]) {
        // Answered at once (a print let through would wait for the held renders).
        const refused = await Promise.race([
          print(entryId, ownerH),
          new Promise<{ statusCode: number; json: () => unknown }>((r) => setTimeout(() => r({ statusCode: 0, json: () => 'still waiting after 5 s' }), 5000)),
        ]);
        expect(refused.statusCode).toBe(429);
        expect(refused.json()).toEqual({ message: PrintMessages.tooManyPrints });
      }
      // Another account is not limited by this one; an operator asking for a list being rendered
      // waits for that render (no new one).
      const others = print(otherEntry, otherH);
      await until(() => t.app.printGate.inFlight === 3);
      const joined = print(a, op);
      await new Promise((r) => setTimeout(r, 200));
      expect(t.app.printGate.inFlight).toBe(3);
      release();
      const answers = await Promise.all([...first, others, joined]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    } finally {
      hold = null;
      release();
    }
    // Slots come back when the prints end.
    expect((await print(c, ownerH)).statusCode).toBe(200);
  }, 60_000);

  it('gives the slot back when a render fails', async () => {
    failNext = PER_USER + 1;
    for (let i = 0; i <= PER_USER; i++) {
      const res = await print(await makeEntry(owner.id), ownerH);
      expect(res.statusCode).toBe(422);
    }
    expect((await print(await makeEntry(owner.id), ownerH)).statusCode).toBe(200);
  }, 60_000);

  it(`answers 503 with a message when ${QUEUE} documents already wait for Chromium`, async () => {
    // Two pages converting and QUEUE waiting (the queue is filled synchronously).
    const big = `<table>${Array.from({ length: 1500 }, (_, i) => `<tr><td>${i}</td><td>Строка таблицы для заполнения очереди</td></tr>`).join('')}</table>`;
    const fillers = Array.from({ length: 2 + QUEUE }, () => html.toPdf(big, { key: 'filler' }));
    const entryId = await makeEntry(owner.id);
    const refused = await print(entryId, ownerH);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ message: PrintMessages.printQueueFull });
    await Promise.all(fillers);
    expect((await print(entryId, ownerH)).statusCode).toBe(200);
  }, 60_000);
});

describe('a crowd of free accounts (issue 29)', () => {
  it('cannot take the converter or its queue from a paying client: free accounts share one page, the rest of them wait or get 503', async () => {
    const paying = await t.createUser({ last_name: 'Платова' });
    const payingH = await t.loginAs(paying);
    const payingEntry = await makeEntry(paying.id, 2);
    // Four free accounts, each from its own network, each with two prints of its own documents.
    const crowd = await Promise.all(Array.from({ length: 4 }, () => freeAccount(2)));
    let release!: () => void;
    holdInPage = new Promise<void>((r) => (release = r));
    spared = `user:${paying.id}`;
    try {
      const answered: { statusCode: number; json: () => unknown }[] = [];
      const sent = crowd.flatMap((a, i) =>
        a.entries.map((e) =>
          print(e, a.h, `2001:db8:${i + 1}::7`).then((r) => {
            answered.push(r);
            return r;
          }),
        ),
      );
      // Every request of the crowd is either answered or has its render in flight (on a page or waiting).
      await until(() => answered.length + t.app.printGate.inFlight === sent.length);
      // The paying client's print gets a page at once (before: the crowd held both pages and filled the queue: 503).
      const mine = await print(payingEntry, payingH, '192.0.2.200');
      expect(mine.statusCode).toBe(200);
      // One free render on a page, FREE_WAITING waiting for the free share, the others refused at once.
      expect(t.app.printGate.free).toEqual({ running: 1, waiting: FREE_WAITING });
      expect(answered.map((r) => r.statusCode)).toEqual(Array(sent.length - 1 - FREE_WAITING).fill(503));
      expect(answered[0].json()).toEqual({ message: PrintMessages.printQueueFull });
      release();
      // The ones that waited are printed.
      expect((await Promise.all(sent)).filter((r) => r.statusCode === 200)).toHaveLength(1 + FREE_WAITING);
    } finally {
      holdInPage = null;
      release();
    }
    // One at a time, the crowd's refused prints go through.
    for (const [i, a] of crowd.entries()) for (const e of a.entries) expect((await print(e, a.h, `2001:db8:${i + 1}::7`)).statusCode).toBe(200);
    expect(t.app.printGate.free).toEqual({ running: 0, waiting: 0 });
  }, 60_000);

  it(`limits free accounts to ${LIMITS.perIpPerMinute} prints a minute per address and ${LIMITS.perSubnetPerMinute} per /24, not paying clients or operators`, async () => {
    const a = await freeAccount(1);
    const [e] = a.entries;
    // Sequential: the per-minute counts, not prints in flight.
    for (let i = 0; i < LIMITS.perIpPerMinute; i++) expect((await print(e, a.h, '198.51.100.7')).statusCode).toBe(200);
    const refused = await print(e, a.h, '198.51.100.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: PrintMessages.tooManyPrintsFromAddress });
    // Another address of the same /24 (an IPv4-mapped spelling too) has what is left of the subnet's minute.
    for (let i = LIMITS.perIpPerMinute; i < LIMITS.perSubnetPerMinute; i++) expect((await print(e, a.h, '::ffff:198.51.100.8')).statusCode).toBe(200);
    expect((await print(e, a.h, '198.51.100.9')).statusCode).toBe(429);
    // Another network is not limited by this one.
    expect((await print(e, a.h, '198.51.101.7')).statusCode).toBe(200);
    // Loopback (a proxy whose X-Forwarded-For is not trusted: every client would share it) is not limited.
    for (let i = 0; i <= LIMITS.perSubnetPerMinute; i++) expect((await print(e, a.h, '127.0.0.1')).statusCode).toBe(200);
    // A paying client and an operator on the limited address are not refused.
    const paying = await t.createUser();
    const payingEntry = await makeEntry(paying.id, 2);
    expect((await print(payingEntry, await t.loginAs(paying), '198.51.100.7')).statusCode).toBe(200);
    expect((await print(e, op, '198.51.100.7')).statusCode).toBe(200);
  }, 60_000);

  it(`limits free accounts to ${LIMITS.perIp} prints in flight per address and ${LIMITS.perSubnet} per /64`, async () => {
    const [a, b, c] = await Promise.all([freeAccount(2), freeAccount(1), freeAccount(1)]);
    let release!: () => void;
    holdInPage = new Promise<void>((r) => (release = r));
    spared = '';
    try {
      const first = a.entries.map((e) => print(e, a.h, '2001:db8:aa:1::1'));
      await until(() => t.app.printGate.inFlight === 2);
      // A second account on the same address: refused at once.
      const sameAddress = await print(b.entries[0], b.h, '2001:db8:aa:1::1');
      expect(sameAddress.statusCode).toBe(429);
      expect(sameAddress.json()).toEqual({ message: PrintMessages.tooManyPrintsFromAddress });
      // Another address of the /64: one more fits, then the /64 is full.
      const second = print(b.entries[0], b.h, '2001:db8:aa:1:ffff::2');
      await until(() => t.app.printGate.inFlight === 3);
      expect((await print(c.entries[0], c.h, '2001:db8:aa:1::3')).statusCode).toBe(429);
      release();
      expect((await Promise.all([...first, second])).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    } finally {
      holdInPage = null;
      release();
    }
    // The places come back when the prints end.
    expect((await print(c.entries[0], c.h, '2001:db8:aa:1::3')).statusCode).toBe(200);
  }, 60_000);
});
