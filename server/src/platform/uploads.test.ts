import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DocumentMessages } from '@edu/domain/documents/documents';
import { FileMessages } from '@edu/domain/documents/files';
import { publicationPrices, publicationReleases } from '../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../test/helper.ts';
import { makeService } from '../../test/fixtures.ts';
import { courseEntry, jpg, multipart, PDF, type Part } from '../../test/documents-fixtures.ts';
import { rows } from './db.ts';
import { storeUploads, uploadTmpDir, type UploadForm } from './uploads.ts';

let t: TestApp;
let operator: Record<string, string>;
let journalServiceId: number;
let journalRelease: number;
const defaults = { quotaMb: 200, ratePerWindow: 1000, windowMinutes: 10, retentionDays: 30 };

/** A real PDF of `bytes` bytes (the magic bytes, then padding). */
const pdfOf = (bytes: number) => Buffer.concat([PDF, Buffer.alloc(Math.max(0, bytes - PDF.length), 0x20)]);
const KB = 1024;

async function person(opts: { course?: boolean } = {}) {
  const u = await t.createUser();
  if (opts.course) await courseEntry(t, u.id);
  return { ...u, h: await t.loginAs(u) };
}

function send(url: string, h: Record<string, string>, parts: Part[]) {
  const body = multipart(parts);
  return t.inject({ method: 'POST', url, headers: { ...h, ...body.headers }, payload: body.payload });
}

const uploadDocs = (u: { id: number; h: Record<string, string> }, parts: Part[], h = u.h) => send(`/api/user/${u.id}/upload-documents`, h, parts);
const passport = (bytes = 2 * KB): Part => ({ field: 'passport', filename: 'passport.pdf', content: pdfOf(bytes), type: 'application/pdf' });

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [r] = await rows<{ n: number }>(t.database.db, query);
  return Number(r.n);
}
const filesOf = (userId: number) => count(sql`select count(*)::int as n from files where user_id = ${userId}`);
const entriesOf = (userId: number) => count(sql`select count(*)::int as n from entries where created_by = ${userId}`);

/** Every object in local storage (DATA_DIR/files), as keys. */
async function storedKeys(): Promise<string[]> {
  const root = path.join(t.app.config.dataDir, 'files');
  const dirs = await fs.readdir(root).catch(() => [] as string[]);
  const keys: string[] = [];
  for (const d of dirs) for (const f of await fs.readdir(path.join(root, d))) keys.push(`${d}/${f}`);
  return keys.sort();
}
/** The temporary files of uploads: none once the answers are sent (removed right after, so wait a moment). */
const tmpFiles = async () => {
  const dir = uploadTmpDir(t.app.config.dataDir);
  await vi.waitFor(async () => expect(await fs.readdir(dir)).toEqual([]), { timeout: 1000, interval: 20 }).catch(() => undefined);
  return fs.readdir(dir);
};

const journalForm = (
  fields: Record<string, string> = {},
  files: Part[] = [{ field: 'file', filename: 'article.pdf', content: PDF, type: 'application/pdf' }],
): Part[] => [
  ...Object.entries({
    service_id: String(journalServiceId),
    title: 'Статья в журнал',
    dict_category_id: '3',
    release_id: String(journalRelease),
    authors_num: '1',
    authors: '[]',
    ...fields,
  }).map(([field, content]) => ({ field, content })),
  ...files,
];

beforeAll(async () => {
  t = await createTestApp({ uploads: { ...defaults } });
  operator = await t.loginAs(await t.createUser({ role: 1 }));
  const db = t.database.db;
  journalServiceId = (
    await makeService(db, { title: 'Публикация в журнале', dict_type_id: 5, dict_subtype_id: 4, is_publication: true, price: 0, date_type: 2 })
  ).id;
  await db.insert(publicationPrices).values([{ dict_service_subtype_id: 4, authors_num: 1, price: 2000 }]);
  [{ id: journalRelease }] = await db
    .insert(publicationReleases)
    .values({ title: 'Выпуск № 1', dict_service_subtype_id: 4 })
    .returning({ id: publicationReleases.id });
});
afterEach(() => {
  Object.assign(t.app.config.uploads, defaults);
});
afterAll(async () => {
  await t.close();
});

describe('receiving uploads', () => {
  it('streams parts to temporary files: eight 10 MB files do not stay in memory, and nothing is left behind', async () => {
    const u = await person({ course: true });
    const big = (i: number): Part => ({ field: 'other', filename: `scan-${i}.pdf`, content: pdfOf(10 * 1024 * KB - 100), type: 'application/pdf' });
    const body = multipart(Array.from({ length: 8 }, (_, i) => big(i)));
    global.gc?.();
    const base = process.memoryUsage().arrayBuffers;
    let peak = base;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 2);
    // A 10 MB file per part, each in 64 kB chunks as a socket would deliver them.
    const res = await t.inject({
      method: 'POST',
      url: `/api/user/${u.id}/upload-documents`,
      headers: { ...u.h, ...body.headers },
      payload: chunked(body.payload),
    });
    clearInterval(timer);
    expect(res.statusCode, res.body).toBe(200);
    // The 80 MB of files were never held at once (the old reader kept every part as a Buffer).
    expect(peak - base).toBeLessThan(40 * 1024 * KB);
    expect(await filesOf(u.id)).toBe(8);
    expect(await tmpFiles()).toEqual([]);
    const [f] = await rows<{ storage_key: string; size: number }>(t.database.db, sql`select storage_key, size from files where user_id = ${u.id} limit 1`);
    expect(f.size).toBe(10 * 1024 * KB - 100);
    expect((await t.app.files.read(f.storage_key)).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('stores all of a request’s files or none: a bad later part leaves no object, row or temporary file', async () => {
    const u = await person({ course: true });
    const before = await storedKeys();
    const res = await uploadDocs(u, [
      passport(),
      { field: 'education', filename: 'diploma.pdf', content: Buffer.from('MZ\x90\x00 not a document'), type: 'application/pdf' },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ education: [DocumentMessages.fileType] });
    expect(await filesOf(u.id)).toBe(0);
    expect(await storedKeys()).toEqual(before);
    expect(await tmpFiles()).toEqual([]);
  });

  it('removes the objects it stored when the transaction fails afterwards', async () => {
    const u = await t.createUser();
    const tmp = path.join(uploadTmpDir(t.app.config.dataDir), 'by-hand.part');
    await fs.writeFile(tmp, PDF);
    const form: UploadForm = { fields: {}, files: [{ field: 'file', name: 'a.pdf', mime: 'application/pdf', ext: 'pdf', size: PDF.length, path: tmp }] };
    const request = { server: t.app, user: undefined, log: t.app.log } as unknown as FastifyRequest;
    const before = await storedKeys();
    let key = '';
    await expect(
      storeUploads(request, form, async (tx, store) => {
        const row = await store(tx, u.id, form.files[0]);
        [{ key }] = await rows<{ key: string }>(tx, sql`select storage_key as key from files where id = ${row.id}`);
        expect(await t.app.files.storage.exists(key)).toBe(true);
        throw new Error('a later step failed');
      }),
    ).rejects.toThrow('a later step failed');
    expect(key).not.toBe('');
    expect(await t.app.files.storage.exists(key)).toBe(false);
    expect(await storedKeys()).toEqual(before);
    expect(await filesOf(u.id)).toBe(0);
  });
});

describe('the storage quota (UPLOAD_QUOTA_MB)', () => {
  it('refuses what would pass the quota, naming it; deleted files do not count; operators are not limited', async () => {
    t.app.config.uploads.quotaMb = 1;
    const u = await person({ course: true });
    const first = await uploadDocs(u, [passport(600 * KB)]);
    expect(first.statusCode, first.body).toBe(200);
    const keys = await storedKeys();
    const over = await uploadDocs(u, [{ field: 'education', filename: 'diploma.pdf', content: pdfOf(600 * KB), type: 'application/pdf' }]);
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ message: FileMessages.quotaExceeded(1), errors: { education: [FileMessages.quotaExceeded(1)] } });
    expect(FileMessages.quotaExceeded(1)).toContain('1 МБ');
    expect(await filesOf(u.id)).toBe(1);
    expect(await storedKeys()).toEqual(keys);
    expect(await tmpFiles()).toEqual([]);

    // An operator uploads for the client beyond the quota (staff are not limited).
    const byOperator = await uploadDocs(u, [{ field: 'other', filename: 'scan.pdf', content: pdfOf(600 * KB), type: 'application/pdf' }], operator);
    expect(byOperator.statusCode, byOperator.body).toBe(200);
    const full = await uploadDocs(u, [{ field: 'snils', filename: 'snils.pdf', content: pdfOf(10 * KB), type: 'application/pdf' }]);
    expect(full.statusCode).toBe(422);
    expect(full.json().message).toBe(FileMessages.quotaExceeded(1));

    // Deleting documents frees their space at once.
    const ids = await rows<{ id: number }>(t.database.db, sql`select id from files where user_id = ${u.id}`);
    for (const { id } of ids) expect((await t.inject({ method: 'DELETE', url: `/api/file/${id}`, headers: u.h })).statusCode).toBe(200);
    const again = await uploadDocs(u, [{ field: 'education', filename: 'diploma.pdf', content: pdfOf(600 * KB), type: 'application/pdf' }]);
    expect(again.statusCode, again.body).toBe(200);
  });

  it('holds under two parallel uploads that each fit alone', async () => {
    t.app.config.uploads.quotaMb = 1;
    const u = await person({ course: true });
    const answers = await Promise.all([
      uploadDocs(u, [passport(600 * KB)]),
      uploadDocs(u, [{ field: 'education', filename: 'd.pdf', content: pdfOf(600 * KB), type: 'application/pdf' }]),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
    expect(await filesOf(u.id)).toBe(1);
    expect(await tmpFiles()).toEqual([]);
  });

  it('a publication over the quota is refused before its entry is made', async () => {
    t.app.config.uploads.quotaMb = 1;
    const u = await person({ course: true });
    expect((await uploadDocs(u, [passport(900 * KB)])).statusCode).toBe(200);
    const entries = await entriesOf(u.id);
    const res = await send(
      '/api/publication',
      u.h,
      journalForm({}, [{ field: 'file', filename: 'article.pdf', content: pdfOf(200 * KB), type: 'application/pdf' }]),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual([FileMessages.quotaExceeded(1)]);
    expect(await entriesOf(u.id)).toBe(entries);
    // Within the quota it goes through, and makes its one entry.
    const ok = await send('/api/publication', u.h, journalForm());
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await entriesOf(u.id)).toBe(entries + 1);
  });
});

describe('the upload rate limit (UPLOAD_RATE_LIMIT per UPLOAD_RATE_WINDOW_MINUTES)', () => {
  it('answers 429 with a Russian message past the limit, refused uploads included; other users and operators go on', async () => {
    t.app.config.uploads.ratePerWindow = 3;
    const u = await person({ course: true });
    expect((await uploadDocs(u, [passport()])).statusCode).toBe(200);
    expect((await uploadDocs(u, [{ field: 'passport', filename: 'x.pdf', content: Buffer.from('not a pdf'), type: 'application/pdf' }])).statusCode).toBe(422);
    expect(
      (await send(`/api/user/${u.id}/upload-avatar`, u.h, [{ field: 'file', filename: 'me.jpg', content: await jpg(), type: 'image/jpeg' }])).statusCode,
    ).toBe(200);
    const entries = await entriesOf(u.id);
    const limited = await send('/api/publication', u.h, journalForm());
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: FileMessages.tooManyUploads(3, 10) });
    expect(await entriesOf(u.id)).toBe(entries);
    expect((await uploadDocs(u, [passport()])).statusCode).toBe(429);
    expect(await tmpFiles()).toEqual([]);

    const other = await person({ course: true });
    expect((await uploadDocs(other, [passport()])).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await uploadDocs(u, [passport()], operator)).statusCode).toBe(200);
  });
});

/** Sends a payload in 64 kB pieces, as a socket would. */
function chunked(payload: Buffer) {
  return Readable.from(
    (function* () {
      for (let i = 0; i < payload.length; i += 64 * KB) yield payload.subarray(i, i + 64 * KB);
    })(),
  );
}

describe('malformed multipart bodies', () => {
  const boundary = '----eduMalformed42';
  const valid = (): Buffer =>
    multipartWith(boundary, [
      { field: 'title', content: 'Заголовок' },
      { field: 'file', filename: 'a.pdf', content: pdfOf(64 * KB), type: 'application/pdf' },
    ]);
  const bodies: Array<[string, () => { payload: Buffer; type: string }]> = [
    ['a body cut short', () => ({ payload: valid().subarray(0, Math.floor(valid().length * 0.7)), type: `multipart/form-data; boundary=${boundary}` })],
    ['no boundary', () => ({ payload: valid(), type: 'multipart/form-data' })],
    [
      'a part with a broken header',
      () => ({
        payload: Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition form-data; name="file"; filename="a.pdf"\r\nContent-Type application/pdf\r\n\r\n`),
          PDF,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
        type: `multipart/form-data; boundary=${boundary}`,
      }),
    ],
    ['another boundary than declared', () => ({ payload: valid(), type: 'multipart/form-data; boundary=----somethingElse' })],
  ];

  it('every upload route answers 400 or 422 with a Russian message, never 500, and keeps nothing', async () => {
    const u = await person({ course: true });
    const { entryId } = await courseEntry(t, u.id);
    const created = await send('/api/publication', u.h, journalForm());
    expect(created.statusCode, created.body).toBe(200);
    const publicationId = created.json().data.id;
    const serviceId = (await makeService(t.database.db)).id;
    const routes: Array<[string, string, Record<string, string>]> = [
      ['documents', `/api/user/${u.id}/upload-documents`, u.h],
      ['contract scan', `/api/contract/upload?entry_id=${entryId}`, u.h],
      ['publication, create', '/api/publication', u.h],
      ['publication, update', `/api/publication/${publicationId}?_method=PUT`, u.h],
      ['avatar', `/api/user/${u.id}/upload-avatar`, u.h],
      ['service image', `/api/service/${serviceId}/upload-image`, operator],
      ['template, create', '/api/template', operator],
      ['template, update', '/api/template/1', operator],
    ];
    const files = await count(sql`select count(*)::int as n from files`);
    const entries = await entriesOf(u.id);
    const seen: string[] = [];
    for (const [route, url, h] of routes) {
      for (const [problem, make] of bodies) {
        const body = make();
        const res = await t.inject({ method: 'POST', url, headers: { ...h, 'content-type': body.type }, payload: body.payload });
        seen.push(`${route} / ${problem}: ${res.statusCode} ${res.json().message}`);
        expect([400, 422], `${route} / ${problem}: ${res.body}`).toContain(res.statusCode);
        expect(res.json().message, `${route} / ${problem}`).toMatch(/[А-Яа-яЁё]/);
      }
    }
    expect(seen.filter((s) => s.includes('cut short') || s.includes('no boundary'))).toEqual(
      routes.flatMap(([route]) => [
        `${route} / a body cut short: 400 ${FileMessages.malformedForm}`,
        `${route} / no boundary: 400 ${FileMessages.malformedForm}`,
      ]),
    );
    expect(await count(sql`select count(*)::int as n from files`)).toBe(files);
    expect(await entriesOf(u.id)).toBe(entries);
    expect(await tmpFiles()).toEqual([]);
    // The server is fine afterwards.
    expect((await uploadDocs(u, [passport()])).statusCode).toBe(200);
  });
});

/** A multipart body with a given boundary. */
function multipartWith(boundary: string, parts: Part[]): Buffer {
  const body = multipart(parts);
  const own = /boundary=(.+)$/.exec(body.headers['content-type'])![1];
  return Buffer.from(body.payload.toString('latin1').split(own).join(boundary), 'latin1');
}
