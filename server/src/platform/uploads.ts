import fs from 'node:fs/promises';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DocumentMessages } from '@edu/domain/documents/documents';
import { FILE_MAX_BYTES, FileMessages } from '@edu/domain/documents/files';
import type { FieldErrors } from '@edu/domain/common/validation';
import { rows, type Queryable } from './db.ts';
import { takeAttempt } from './attempts.ts';
import { DOCUMENT_MIMES, EXT_BY_MIME, safeFileName, sniffMime } from './files.ts';
import { AppError, fieldError, validationError } from './errors.ts';
import { isOperator } from './access.ts';

/**
 * A file part that passed the checks (its kind by content, never by name or declared type; at most
 * 10 MB). Its bytes are in a temporary file, removed when the request ends.
 */
export interface CheckedUpload {
  /** The form field, without a trailing "[]". */
  field: string;
  /** The browser's file name, cleaned; kept as a label only, never used as a path. */
  name: string;
  mime: string;
  ext: string;
  size: number;
  /** The temporary file with the bytes. */
  path: string;
}

export interface UploadForm {
  files: CheckedUpload[];
  /** Text fields as strings. */
  fields: Record<string, string>;
}

/** Bytes read before the kind is decided (file-type looks at no more for pdf, jpg, png; a docx is a zip here). */
const SNIFF_BYTES = 4100;

/** A display name from whatever the browser sent: no folders, no control characters, at most 200 characters. */
export function cleanFileName(raw: string | undefined, ext: string): string {
  return safeFileName(raw, `document.${ext}`);
}

function isCode(error: unknown, ...codes: string[]): boolean {
  return Boolean(error && typeof error === 'object' && codes.includes(String((error as { code?: unknown }).code)));
}

/**
 * Failures of the multipart body itself (busboy's and the plugin's): a body cut short, no boundary,
 * a part with a broken header. These are the client's fault: 400 with a Russian message.
 */
function isMalformedMultipart(error: unknown): boolean {
  if (isCode(error, 'FST_PROTO_VIOLATION', 'FST_INVALID_JSON_FIELD_ERROR', 'FST_MP_PREMATURE_CLOSE')) return true;
  return error instanceof Error && /^Multipart: |unexpected end of multipart data|terminated early/i.test(error.message);
}

export const malformedForm = () => new AppError(400, FileMessages.malformedForm, { errors: { file: [FileMessages.malformedForm] } });

/** The temporary folder of uploads being received (under DATA_DIR, so a finished file moves into local storage by rename). */
export function uploadTmpDir(dataDir: string): string {
  return path.join(dataDir, 'tmp', 'uploads');
}

const TEMPS = Symbol('uploadTemps');
type WithTemps = FastifyRequest & { [TEMPS]?: string[] };

async function removeTemps(list: string[] | undefined): Promise<void> {
  if (!list?.length) return;
  await Promise.all(list.splice(0).map((p) => fs.rm(p, { force: true }).catch(() => undefined)));
}

/** Removes the temporary files of a request when its answer is sent (or the client went away). */
export const uploadsPlugin = fp(async (app) => {
  await fs.mkdir(uploadTmpDir(app.config.dataDir), { recursive: true });
  // Callback hooks: a request without uploads (nearly all) costs no promise.
  const remove = (request: FastifyRequest, done: () => void) => {
    const list = (request as WithTemps)[TEMPS];
    if (!list?.length) return done();
    void removeTemps(list).finally(done);
  };
  app.addHook('onResponse', (request, _reply, done) => remove(request, done));
  app.addHook('onRequestAbort', (request, done) => remove(request, done));
});

/** Temporary upload files older than `maxAgeMs` (left by a crash): removed at start and by the retention job. */
export async function sweepUploadTmp(dataDir: string, maxAgeMs = 6 * 60 * 60_000): Promise<number> {
  const dir = uploadTmpDir(dataDir);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const st = await fs.stat(file).catch(() => null);
    if (st && Date.now() - st.mtimeMs > maxAgeMs) {
      await fs.rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

/** Users are limited (quota, rate); operators are staff and are not. */
function limitedUser(request: FastifyRequest): number | null {
  const user = request.user;
  return user && !isOperator(user) ? user.id : null;
}

/** The bytes of a user's live files (what the quota counts). */
async function liveBytesOf(db: Queryable, userId: number): Promise<number> {
  const [r] = await rows<{ bytes: string | number }>(
    db,
    sql`select coalesce(sum(size), 0) as bytes from files where user_id = ${userId} and deleted_at is null`,
  );
  return Number(r?.bytes ?? 0);
}

const quotaError = (app: FastifyInstance, field: string) => fieldError(field, FileMessages.quotaExceeded(app.config.uploads.quotaMb));

/**
 * The quota, exact: locks the user's row (uploads of one user wait for each other) and checks that
 * the live files plus `adding` bytes fit. Called in the transaction that stores the files.
 */
async function assertQuota(app: FastifyInstance, tx: Queryable, userId: number, adding: number, field = 'file'): Promise<void> {
  const quotaMb = app.config.uploads.quotaMb;
  if (!(quotaMb > 0)) return;
  await tx.execute(sql`select id from users where id = ${userId} for update`);
  if ((await liveBytesOf(tx, userId)) + adding > quotaMb * 1024 * 1024) throw quotaError(app, field);
}

type Received = { ok: true; path: string; size: number; mime: string } | { ok: false; problem: string };

/** The problem of a part that would not fit in the quota (the message is made with the quota). */
const QUOTA = 'quota';

/**
 * Streams one file part to a temporary file while counting its size and deciding its kind from the
 * first bytes. A part of the wrong kind, over 10 MB or over what is left of the quota stops being
 * written at once; the rest of it is read and thrown away (the next part follows it in the body).
 */
async function receivePart(stream: Readable, o: { dir: string; allowed: readonly string[]; typeMessage: string; left: number }): Promise<Received> {
  const file = path.join(o.dir, `${randomBytes(16).toString('hex')}.part`);
  const st: { out: WriteStream | null; head: Buffer[] | null; headLength: number; mime: string | null } = { out: null, head: [], headLength: 0, mime: null };
  let size = 0;
  let problem: string | null = null;
  /** Decides the kind from the first bytes; a right one opens the temporary file. */
  const decide = async (): Promise<string | null> => {
    const sample = Buffer.concat(st.head ?? []);
    st.head = null;
    st.mime = await sniffMime(sample);
    if (!st.mime || !o.allowed.includes(st.mime)) return o.typeMessage;
    st.out = createWriteStream(file, { flags: 'wx' });
    if (!st.out.write(sample)) await once(st.out, 'drain');
    return null;
  };
  const discard = async () => {
    st.out?.destroy();
    await fs.rm(file, { force: true });
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (problem) continue;
      if (size > FILE_MAX_BYTES) problem = FileMessages.tooLarge;
      else if (size > o.left) problem = QUOTA;
      else if (st.head) {
        st.head.push(chunk);
        st.headLength += chunk.length;
        if (st.headLength >= SNIFF_BYTES) problem = await decide();
      } else if (st.out && !st.out.write(chunk)) await once(st.out, 'drain');
    }
    if (!problem && size === 0) problem = DocumentMessages.noFile;
    if (!problem && st.head) problem = await decide();
    if (problem || !st.out || !st.mime) {
      await discard();
      return { ok: false, problem: problem ?? o.typeMessage };
    }
    st.out.end();
    await once(st.out, 'finish');
    return { ok: true, path: file, size, mime: st.mime };
  } catch (error) {
    await discard();
    throw error;
  }
}

/**
 * Reads a multipart request part by part and checks each file by its magic bytes (never by its name
 * or declared type). Files stream to temporary files, so memory stays flat whatever the size; the
 * caller stores them (storeUploads) only when every part passed, so a request stores all of its
 * files or none. Text fields come back as strings. A file problem is a 422 naming the field.
 *
 * The limits of users (operators are exempt) are checked here, before the body is read: at most
 * UPLOAD_RATE_LIMIT upload requests per window (429) and the storage quota (422; a part that would
 * pass it stops being received). A malformed body answers 400.
 */
export async function readCheckedUploads(
  request: FastifyRequest,
  opts: { allowedFields?: (field: string) => boolean; allowed?: readonly string[]; typeMessage?: string; quota?: boolean } = {},
): Promise<UploadForm> {
  if (!request.isMultipart()) throw fieldError('file', DocumentMessages.noFile);
  const app = request.server;
  const limits = app.config.uploads;
  const limitedId = limitedUser(request);
  let left = Number.POSITIVE_INFINITY;
  if (limitedId !== null) {
    if (limits.ratePerWindow > 0 && !(await takeAttempt(app.db, `upload:user:${limitedId}`, limits.ratePerWindow, limits.windowMinutes))) {
      throw new AppError(429, FileMessages.tooManyUploads(limits.ratePerWindow, limits.windowMinutes));
    }
    if (opts.quota !== false && limits.quotaMb > 0) {
      left = limits.quotaMb * 1024 * 1024 - (await liveBytesOf(app.db, limitedId));
      if (left <= 0) throw quotaError(app, 'file');
    }
  }
  const allowed = opts.allowed ?? DOCUMENT_MIMES;
  const typeMessage = opts.typeMessage ?? DocumentMessages.fileType;
  const dir = uploadTmpDir(app.config.dataDir);
  const temps = ((request as WithTemps)[TEMPS] ??= []);
  const files: CheckedUpload[] = [];
  const fields: Record<string, string> = {};
  const errors: FieldErrors = {};
  const add = (field: string, text: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(text)) list.push(text);
  };
  try {
    for await (const part of request.parts()) {
      const field = part.fieldname.replace(/\[\]$/, '');
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[field] = part.value;
        continue;
      }
      if (opts.allowedFields && !opts.allowedFields(field)) {
        part.file.resume();
        await once(part.file, 'end');
        add(field, DocumentMessages.unknownField);
        continue;
      }
      const got = await receivePart(part.file, { dir, allowed, typeMessage, left });
      if (!got.ok) {
        add(field, got.problem === QUOTA ? FileMessages.quotaExceeded(limits.quotaMb) : got.problem);
        continue;
      }
      temps.push(got.path);
      left -= got.size;
      const ext = EXT_BY_MIME[got.mime];
      files.push({ field, name: cleanFileName(part.filename, ext), mime: got.mime, ext, size: got.size, path: got.path });
    }
  } catch (error) {
    await removeTemps(temps);
    if (isCode(error, 'FST_FILES_LIMIT')) throw fieldError('file', DocumentMessages.tooManyFiles);
    if (isCode(error, 'FST_INVALID_MULTIPART_CONTENT_TYPE', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT')) throw fieldError('file', DocumentMessages.noFile);
    if (error instanceof AppError) throw error;
    if (isMalformedMultipart(error)) throw malformedForm();
    throw error;
  }
  if (Object.keys(errors).length > 0) {
    await removeTemps(temps);
    throw validationError(errors);
  }
  return { files, fields };
}

/** Stores one checked upload for its owner inside the transaction of storeUploads. */
export type StoreUpload = (
  tx: Queryable,
  ownerId: number | null,
  upload: Pick<CheckedUpload, 'field' | 'name' | 'mime' | 'ext' | 'size' | 'path'>,
) => Promise<{ id: number }>;

/**
 * Runs `work` in one transaction with a `store` function that keeps an upload: the owner's quota is
 * checked (exactly, under the owner's row lock) before their first file is stored, then the bytes
 * go to storage and the row is written. When the transaction fails, the objects it stored are
 * removed again: all or nothing.
 */
export async function storeUploads<T>(request: FastifyRequest, form: UploadForm, work: (tx: Queryable, store: StoreUpload) => Promise<T>): Promise<T> {
  const app = request.server;
  const limitedId = limitedUser(request);
  const stored: string[] = [];
  const checked = new Set<number>();
  const total = form.files.reduce((sum, f) => sum + f.size, 0);
  const store: StoreUpload = async (tx, ownerId, upload) => {
    if (ownerId !== null && ownerId === limitedId && !checked.has(ownerId)) {
      checked.add(ownerId);
      await assertQuota(app, tx, ownerId, total, upload.field);
    }
    const row = await app.files.saveFile(tx, { userId: ownerId, name: upload.name, mime: upload.mime, ext: upload.ext, size: upload.size, path: upload.path });
    stored.push(row.storage_key);
    return row;
  };
  try {
    return await app.db.transaction((tx) => work(tx, store));
  } catch (error) {
    await Promise.all(stored.map((key) => app.files.remove(key).catch((err: unknown) => request.log.warn({ err, key }, 'could not remove a stored upload'))));
    throw error;
  } finally {
    await removeTemps(form.files.map((f) => f.path));
  }
}
