import http from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages } from '@edu/domain/common/messages';
import { AccountSlots } from './account-slots.ts';
import { registerErrorHandler } from './errors.ts';
import { sendXlsx } from './xlsx-reply.ts';
import type { XlsxExport } from './xlsx-export.ts';

// A small app around sendXlsx: the account comes from a header, the export never ends by itself
// (pages of long rows for ever), so a download is in flight until the client leaves.
let app: FastifyInstance;
let base: string;
let pagesRead = 0;

const endless: XlsxExport<{ id: number }> = {
  sheet: 'Бесконечно',
  columns: {
    id: { header: 'id', width: 10, type: 'number', value: (r) => r.id },
    text: { header: 'Текст', width: 40, value: (r) => `строка ${r.id} ${'ж'.repeat(200)}` },
  },
  page: async (after, limit) => {
    pagesRead++;
    const from = (after?.id ?? 0) + 1;
    return Array.from({ length: limit }, (_, i) => ({ id: from + i }));
  },
};

beforeAll(async () => {
  app = Fastify();
  app.decorate('exportSlots', new AccountSlots(1));
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    request.user = { id: Number(request.headers['x-account']), role: 1, tokenId: 0, impersonatorId: null };
  });
  registerErrorHandler(app);
  app.get('/x', (request, reply) => sendXlsx(request, reply, { name: 'Проба.xlsx', asciiName: 'x.xlsx' }, endless));
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(() => app.close());

/** Starts a download and resolves once its first bytes arrived; `abort` drops the connection. */
function startDownload(account: number): Promise<{ status: number; abort: () => void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/x`, { headers: { 'x-account': String(account) } }, (res) => {
      res.once('data', () => resolve({ status: res.statusCode ?? 0, abort: () => req.destroy() }));
    });
    req.on('error', (err) => (err.message.includes('socket hang up') || err.message.includes('aborted') ? undefined : reject(err)));
  });
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  return check();
};

describe('sendXlsx', () => {
  it('streams one export per account: a second one meanwhile is 429, another account is served, and the slot is freed when the client leaves', async () => {
    const first = await startDownload(7);
    expect(first.status).toBe(200);
    expect(app.exportSlots.inUse).toBe(1);

    const second = await fetch(`${base}/x`, { headers: { 'x-account': '7' } });
    expect(second.status).toBe(429);
    expect(((await second.json()) as { message: string }).message).toBe(Messages.exportRunning);

    const other = await startDownload(8);
    expect(other.status).toBe(200);
    expect(app.exportSlots.inUse).toBe(2);

    // The clients go away: the writers stop reading pages and the slots are given back.
    first.abort();
    other.abort();
    expect(await until(() => app.exportSlots.inUse === 0)).toBe(true);
    const pages = pagesRead;
    await new Promise((r) => setTimeout(r, 200));
    expect(pagesRead - pages).toBeLessThanOrEqual(2);

    const again = await startDownload(7);
    expect(again.status).toBe(200);
    again.abort();
    expect(await until(() => app.exportSlots.inUse === 0)).toBe(true);
  });
});
