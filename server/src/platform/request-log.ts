import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { requestLogs } from '../db/schema/index.ts';
import { compileStatement } from './db.ts';

type Row = Required<Omit<typeof requestLogs.$inferInsert, 'id' | 'created_at'>> & { created_at: string };
/** The logged columns with their PostgreSQL types (each column's values go as one array of its type). */
const COLUMN_TYPES = {
  method: 'varchar',
  path: 'varchar',
  status: 'smallint',
  duration_ms: 'real',
  memory_mb: 'real',
  ip: 'varchar',
  user_id: 'int',
  response: 'text',
  created_at: 'timestamptz',
} as const satisfies Record<keyof Row, string>;
const COLUMNS = Object.keys(COLUMN_TYPES) as Array<keyof Row>;

/**
 * A flush in one statement whatever its size: each column's values as one array parameter, rendered
 * once (a query builder's insert of a few thousand rows cost more than the requests it logged).
 */
const INSERT = compileStatement(
  'request_log_insert',
  sql`insert into request_logs (${sql.raw(COLUMNS.join(', '))})
      select * from unnest(${sql.join(
        COLUMNS.map((c) => sql`${sql.placeholder(c)}::${sql.raw(COLUMN_TYPES[c])}[]`),
        sql`, `,
      )})`,
);
const MAX_RESPONSE = 2000;
const FLUSH_MS = 1000;
const MAX_BATCH = 200;

/**
 * Request log (/manager/api-requests): every /api call with status, duration, memory and, for
 * errors, the response body. Rows are buffered and written in one insert per second so logging
 * does not double the database work of each request; a crash loses at most a second of log.
 */
export const requestLogPlugin = fp(async (app) => {
  let buffer: Row[] = [];
  let flushing: Promise<void> | null = null;

  async function flush() {
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    try {
      await app.database.run(INSERT, Object.fromEntries(COLUMNS.map((c) => [c, batch.map((row) => row[c])])));
    } catch (err) {
      app.log.warn({ err }, 'request log flush failed');
    }
  }
  // Memory is sampled with the flush, not per request (rss() costs a system call).
  let rssMb = Math.round((process.memoryUsage.rss() / 1048576) * 10) / 10;
  const timer = setInterval(() => {
    rssMb = Math.round((process.memoryUsage.rss() / 1048576) * 10) / 10;
    flushing = flush();
  }, FLUSH_MS);
  timer.unref();

  // Callback hooks, not async ones: no promise per request.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      (request as unknown as { logBody: string }).logBody = payload.slice(0, MAX_RESPONSE);
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    record(request, reply);
    done();
  });

  function record(request: FastifyRequest, reply: FastifyReply) {
    const url = request.url.split('?')[0];
    if (!url.startsWith('/api/') && !['/login', '/register', '/logout', '/password-forgot', '/password-reset'].includes(url)) return;
    if (url.startsWith('/api/telescope')) return;
    buffer.push({
      method: request.method,
      path: request.url.slice(0, 1000),
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
      memory_mb: rssMb,
      ip: request.ip,
      user_id: request.user?.id ?? null,
      response: (request as unknown as { logBody?: string }).logBody ?? null,
      // The time of the request, not of the flush.
      created_at: new Date().toISOString(),
    });
    if (buffer.length >= MAX_BATCH) flushing = flush();
  }

  app.addHook('onClose', async () => {
    clearInterval(timer);
    await flushing;
    await flush();
  });
  app.decorate('flushRequestLog', flush);
});

declare module 'fastify' {
  interface FastifyInstance {
    flushRequestLog: () => Promise<void>;
  }
}
