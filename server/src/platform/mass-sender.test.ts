import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScriptedSmtp, type Reaction } from '../../test/scripted-smtp.ts';
import { createMassSender, MassSendError, type MassSender } from './mass-sender.ts';
import { massLetterBuilder } from './mass-letter.ts';

const build = massLetterBuilder({ from: 'Учебный центр <no-reply@example.ru>', subject: 'Рассылка' });
const letterTo = (to: string, n = 1) => build({ to, messageId: `<mass-${n}-${to}>`, html: `<p>Письмо ${n}</p>`, text: `Письмо ${n}`, headers: {} });

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
  vi.restoreAllMocks();
});

async function setup(opts: Parameters<typeof startScriptedSmtp>[0] = {}, poolSize = 2) {
  const smtp = await startScriptedSmtp(opts);
  const sender = createMassSender({ smtpUrl: smtp.url, poolSize });
  cleanup.push(
    () => smtp.close(),
    () => sender.close(),
  );
  return { smtp, sender };
}

/** Sends one letter and tells what the journal would hold. */
async function sendOne(sender: MassSender, to: string, n = 1) {
  const journal: string[] = [];
  try {
    const result = await sender.send(letterTo(to, n), () => journal.push(`h ${to}`));
    return { result, journal };
  } catch (err) {
    return { error: err as MassSendError, journal };
  }
}

describe('mass sender', () => {
  it('sends over at most poolSize connections kept open, each letter handed over once, before the server has it', async () => {
    const handedAt = new Map<string, number>();
    const { smtp, sender } = await setup({
      onLetter: (to) => {
        // The server has the whole letter only now; the hand-over was recorded before.
        expect(handedAt.has(to)).toBe(true);
        return 'ok';
      },
    });
    const to = Array.from({ length: 30 }, (_, i) => `r${i}@example.com`);
    const results = await Promise.all(to.map((a, i) => sender.send(letterTo(a, i), () => handedAt.set(a, Date.now()))));
    expect(results.every((r) => r === 'accepted')).toBe(true);
    expect(smtp.received.map((r) => r.to).sort()).toEqual([...to].sort());
    expect(smtp.connections()).toBe(2);
    expect(smtp.openConnections()).toBe(2);
  });

  it('writes the terminating dot in the same synchronous turn as the hand-over', async () => {
    const { sender } = await setup({}, 1);
    let justHandedOver = false;
    const dots: boolean[] = [];
    const write = net.Socket.prototype.write;
    vi.spyOn(net.Socket.prototype, 'write').mockImplementation(function (this: net.Socket, chunk: unknown, ...rest: unknown[]) {
      // The terminating dot: '.\r\n' on its own after a letter ending in CRLF.
      if (Buffer.isBuffer(chunk) && /(^|\r\n)\.\r\n$/.test(chunk.toString('latin1'))) dots.push(justHandedOver);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    });
    await sender.send(letterTo('dot@example.com'), () => {
      justHandedOver = true;
      // Anything that waits a turn (a microtask, a tick, I/O) comes after this flag is cleared.
      queueMicrotask(() => (justHandedOver = false));
      process.nextTick(() => (justHandedOver = false));
    });
    expect(dots).toEqual([true]);
  });

  it('a lost 250 (the server drops the connection after the dot) counts as handed over, and the next letter goes on a new connection', async () => {
    const { smtp, sender } = await setup({ onLetter: (to): Reaction => (to === 'lost@example.com' ? 'drop' : 'ok') }, 1);
    expect(await sendOne(sender, 'first@example.com')).toEqual({ result: 'accepted', journal: ['h first@example.com'] });
    expect(await sendOne(sender, 'lost@example.com')).toEqual({ result: 'handed-over', journal: ['h lost@example.com'] });
    expect(await sendOne(sender, 'next@example.com')).toEqual({ result: 'accepted', journal: ['h next@example.com'] });
    expect(smtp.received.map((r) => r.to)).toEqual(['first@example.com', 'lost@example.com', 'next@example.com']);
    expect(smtp.connections()).toBe(2);
  });

  it('an error answer after the dot rejects with handedOver (journal x), and the connection is reused after RSET', async () => {
    const { smtp, sender } = await setup({ onLetter: (to): Reaction => (to === 'full@example.com' ? { code: 552, message: 'mailbox full' } : 'ok') }, 1);
    const refused = await sendOne(sender, 'full@example.com');
    expect(refused.journal).toEqual(['h full@example.com']);
    expect(refused.error).toBeInstanceOf(MassSendError);
    expect(refused.error).toMatchObject({ handedOver: true, responseCode: 552 });
    expect(refused.error!.message).toMatch(/552 mailbox full/);
    expect(await sendOne(sender, 'ok@example.com')).toEqual({ result: 'accepted', journal: ['h ok@example.com'] });
    expect(smtp.connections()).toBe(1);
  });

  it('an address refused at RCPT is never handed over', async () => {
    const { smtp, sender } = await setup({ refuseRcpt: (to) => (to === 'nobody@example.com' ? 'no such user' : null) }, 1);
    const refused = await sendOne(sender, 'nobody@example.com');
    expect(refused.journal).toEqual([]);
    expect(refused.error).toMatchObject({ handedOver: false, responseCode: 550 });
    expect(await sendOne(sender, 'ok@example.com')).toMatchObject({ result: 'accepted' });
    expect(smtp.received.map((r) => r.to)).toEqual(['ok@example.com']);
  });

  it('reconnects after the server closes its idle connections', async () => {
    const { smtp, sender } = await setup({}, 2);
    await Promise.all([sendOne(sender, 'a@example.com'), sendOne(sender, 'b@example.com')]);
    expect(smtp.connections()).toBe(2);
    smtp.closeAll();
    await new Promise((r) => setTimeout(r, 50));
    const again = await Promise.all(['c', 'd', 'e'].map((x) => sendOne(sender, `${x}@example.com`)));
    expect(again.map((r) => r.result)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(smtp.connections()).toBe(4);
  });

  it('a connection closed while a letter waits is replaced without losing the letter', async () => {
    const { smtp, sender } = await setup({}, 1);
    await sendOne(sender, 'a@example.com');
    // Closed by the server, and the client has not noticed yet when the next letter starts.
    smtp.closeAll();
    expect(await sendOne(sender, 'b@example.com')).toMatchObject({ result: 'accepted' });
    expect(smtp.received.map((r) => r.to)).toEqual(['a@example.com', 'b@example.com']);
  });

  it('a hand-over that cannot be journaled stops the letter before its dot', async () => {
    const { smtp, sender } = await setup({}, 1);
    await expect(
      sender.send(letterTo('disk-full@example.com'), () => {
        throw new Error('ENOSPC');
      }),
    ).rejects.toMatchObject({ handedOver: false });
    await new Promise((r) => setTimeout(r, 50));
    expect(smtp.received).toEqual([]);
    expect(await sendOne(sender, 'ok@example.com')).toMatchObject({ result: 'accepted' });
  });

  it('fails a letter when the server cannot be reached', async () => {
    const sender = createMassSender({ smtpUrl: 'smtp://127.0.0.1:1', poolSize: 1 });
    cleanup.push(() => sender.close());
    const r = await sendOne(sender, 'a@example.com');
    expect(r.journal).toEqual([]);
    expect(r.error).toMatchObject({ handedOver: false });
  });
});
