// The worker of json-body.ts: UTF-8 bytes of a request body in, the parsed value out, with the same
// rules as Fastify's JSON parser (secure-json-parse refusing __proto__ and constructor.prototype).
import secureJson from 'secure-json-parse';
import { serveTasks } from './worker-pool.ts';

export type JsonBodyAnswer = { ok: true; value: unknown } | { ok: false };

const decoder = new TextDecoder();

serveTasks<Uint8Array, JsonBodyAnswer>((bytes) => {
  try {
    return { ok: true, value: secureJson.parse(decoder.decode(bytes), undefined, { protoAction: 'error', constructorAction: 'error' }) };
  } catch {
    return { ok: false };
  }
});
