import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PrintMessages } from '@edu/domain/documents/print';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { entries, templates } from '../../db/schema/index.ts';
import { ConversionFailed } from '../../platform/converters/converter-errors.ts';
import type { HtmlPdfConverter } from '../../platform/converters/html-pdf.ts';

// Printing under load (issue 18, decision 021): one render per distinct document at a time, a few
// prints in flight per account (429 past it), a bounded converter queue (503 past it). Registration
// lists, printed through the real Chromium.

const PER_USER = 2;
const QUEUE = 2;

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
let failNext = 0;

async function makeEntry(userId: number): Promise<number> {
  const [row] = await t.database.db
    .insert(entries)
    .values({ number: `L-${Date.now()}-${seq++}`, created_by: userId, service_id: serviceId, price: 500, status: 1 })
    .returning({ id: entries.id });
  return row.id;
}

const print = (entryId: number, headers: Record<string, string>) => t.inject({ method: 'GET', url: `/api/entry/${entryId}/print/registration-list`, headers });

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  t = await createTestApp({ officeConverters: 0, print: { perUser: PER_USER, queueLimit: QUEUE } });
  html = t.app.converters.html;
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
