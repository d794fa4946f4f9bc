// Large JSON request bodies are decoded and parsed in a worker thread (issue 29). A publication's
// 480 000-character text arrives as about 900 KB of UTF-8: decoding it to a string and parsing it took
// 7-9 ms of the request thread per body, and five such saves at once held every other request for
// 40 ms, plus the garbage collections their 4 MB of intermediate strings brought on. The worker
// answers the parsed object; the request thread only copies its strings in. Bodies below
// OFF_THREAD_JSON_MIN_BYTES, and any body when the worker's queue is full or the worker fails, are
// parsed here by Fastify's own parser, so the answers (400 «Некорректный запрос» for a malformed or
// empty body, the prototype-poisoning guard) are the same either way.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastify from 'fastify';
import { WorkerPool } from './worker-pool.ts';
import type { JsonBodyAnswer } from './json-body-worker.ts';

/** Bodies from this size on are parsed in the worker (below it, parsing here takes well under a millisecond). */
export const OFF_THREAD_JSON_MIN_BYTES = 64 * 1024;

/** Bodies waiting for the worker at most; one more is parsed on the request thread. */
const QUEUE = 32;

/** Bodies parsed by the worker and on the request thread, since the app started. */
export interface JsonBodyCounts {
  offThread: number;
  inProcess: number;
}

/**
 * Replaces Fastify's `application/json` parser on `app` (before the routes are registered); the
 * worker starts with the first large body and stops with the app.
 */
export function parseLargeJsonOffThread(app: FastifyInstance): JsonBodyCounts {
  const counts: JsonBodyCounts = { offThread: 0, inProcess: 0 };
  const pool = new WorkerPool<Uint8Array, JsonBodyAnswer>({ entry: new URL('./json-body-worker.ts', import.meta.url), size: 1, maxQueue: QUEUE });
  app.addHook('onClose', () => pool.close());
  const defaultParser = app.getDefaultJsonParser('error', 'error');
  const inProcess = (request: FastifyRequest, body: Buffer) => {
    counts.inProcess++;
    return new Promise<unknown>((resolve, reject) => {
      // Fastify's own parser answers through its callback.
      void defaultParser(request, body.toString('utf8'), (err, value) => (err ? reject(err) : resolve(value)));
    });
  };
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, async (request: FastifyRequest, body: Buffer) => {
    if (body.length < OFF_THREAD_JSON_MIN_BYTES) return inProcess(request, body);
    let answer: JsonBodyAnswer;
    try {
      answer = await pool.run(body);
    } catch (err) {
      request.log.warn({ err }, 'parsing a JSON body in the worker failed; parsing it on the request thread');
      return inProcess(request, body);
    }
    counts.offThread++;
    if (!answer.ok) throw new fastify.errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
    return answer.value;
  });
  return counts;
}
