import type { FastifyReply } from 'fastify';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Queryable } from './db.ts';
import { userFileHeaders } from './security-headers.ts';

/** How long a link handed to the browser for printing works. */
export const LINK_TTL_SECONDS = 300;

export interface LinkPayload {
  /** Storage key of the file. */
  k: string;
  /** Download name. */
  n: string;
  /** Content type. */
  t: string;
  /** Expiry, unix seconds. */
  e: number;
}

const secrets = new WeakMap<object, Promise<Buffer>>();

/** The HMAC secret, made once and kept in app_settings so every instance signs and checks alike. */
function secret(db: Queryable): Promise<Buffer> {
  let s = secrets.get(db);
  if (!s) {
    s = (async () => {
      await db.execute(sql`insert into app_settings (key, value) values ('link_secret', ${randomBytes(32).toString('hex')}) on conflict (key) do nothing`);
      const [row] = await rows<{ value: string }>(db, sql`select value from app_settings where key = 'link_secret'`);
      return Buffer.from(row.value, 'hex');
    })();
    s.catch(() => secrets.delete(db));
    secrets.set(db, s);
  }
  return s;
}

/** A short-lived link to a private file: `/api/file/signed?t=<token>`; the token is the only permission. */
export async function signedFileUrl(db: Queryable, file: { key: string; name: string; mime: string }, ttlSeconds = LINK_TTL_SECONDS): Promise<string> {
  const payload: LinkPayload = { k: file.key, n: file.name, t: file.mime, e: Math.floor(Date.now() / 1000) + ttlSeconds };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const mac = createHmac('sha256', await secret(db))
    .update(body)
    .digest('base64url');
  return `/api/file/signed?t=${body}.${mac}`;
}

/** The payload of a valid, unexpired token, or null. */
export async function verifyFileToken(db: Queryable, token: string): Promise<LinkPayload | null> {
  const [body, mac] = token.split('.');
  if (!body || !mac) return null;
  const expected = createHmac('sha256', await secret(db))
    .update(body)
    .digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LinkPayload;
    if (typeof payload.e !== 'number' || payload.e < Math.floor(Date.now() / 1000)) return null;
    return payload;
  } catch {
    return null;
  }
}

/** Content-Disposition for a Russian file name. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Sends a private file's bytes: its type, never cached or sniffed, sandboxed (USER_FILE_POLICY), shown in the browser or saved under its name. */
export function sendPrivateFile(reply: FastifyReply, file: { mime: string; name: string }, data: Buffer, kind: 'inline' | 'attachment' = 'inline') {
  return userFileHeaders(reply)
    .type(file.mime)
    .header('cache-control', 'private, no-store')
    .header('content-disposition', contentDisposition(kind, file.name))
    .send(data);
}
