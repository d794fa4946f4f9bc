import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../platform/config.ts';
import { publicationPrices, publicationReleases } from '../../db/schema/index.ts';
import { rows } from '../../platform/db.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { courseEntry, multipart, PDF, png, type Part } from '../../../test/documents-fixtures.ts';
import { nextPurgeRun, PURGE_FILES_JOB, scheduleFilePurge } from './file-retention.ts';

const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-retention-'));
let s3: S3rver;
let s3Port = 0;

beforeAll(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(tmp, 's3'), configureBuckets: [{ name: 'edu-retention', configs: [] }] });
  const address = (await s3.run()) as unknown as { port: number } | [string, number];
  s3Port = Array.isArray(address) ? address[1] : address.port;
});
afterAll(async () => {
  await s3.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

const storages: Array<[string, () => Partial<Config>]> = [
  ['local disk', () => ({})],
  [
    'S3 (s3rver on 127.0.0.1)',
    () => ({
      s3: {
        endpoint: `http://127.0.0.1:${s3Port}`,
        region: 'us-east-1',
        bucket: 'edu-retention',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
        prefix: 'app/',
      },
    }),
  ],
];

describe.each(storages)('retired files on %s', (_name, storage) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...storage(), uploads: { quotaMb: 200, ratePerWindow: 1000, windowMinutes: 10, retentionDays: 30 } });
  });
  afterAll(async () => t?.close());

  async function post(url: string, h: Record<string, string>, parts: Part[]) {
    const body = multipart(parts);
    const res = await t.inject({ method: 'POST', url, headers: { ...h, ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  const keyOf = async (id: number) => (await rows<{ k: string }>(t.database.db, sql`select storage_key as k from files where id = ${id}`))[0].k;

  it('are removed from storage by the nightly job once the retention period is over, and only those', async () => {
    const db = t.database.db;
    const operator = await t.loginAs(await t.createUser({ role: 1 }));
    const u = await t.createUser();
    const h = await t.loginAs(u);
    await courseEntry(t, u.id);

    // Documents: one deleted long ago, one deleted yesterday, one kept.
    await post(`/api/user/${u.id}/upload-documents`, h, [
      { field: 'passport', filename: 'p.pdf', content: PDF, type: 'application/pdf' },
      { field: 'education', filename: 'e.png', content: await png(), type: 'image/png' },
      { field: 'snils', filename: 's.pdf', content: PDF, type: 'application/pdf' },
    ]);
    const docFileId = async (kind: string) => {
      const [r] = await rows<{ id: number }>(db, sql`select file_id as id from user_documents where user_id = ${u.id} and kind = ${kind}`);
      return r.id;
    };
    const oldDoc = await docFileId('passport');
    const recentDoc = await docFileId('education');
    const keptDoc = await docFileId('snils');
    for (const id of [oldDoc, recentDoc]) expect((await t.inject({ method: 'DELETE', url: `/api/file/${id}`, headers: h })).statusCode).toBe(200);

    // A publication with a main and an additional file, deleted by an operator.
    const serviceId = (await makeService(db, { dict_type_id: 5, dict_subtype_id: 4, is_publication: true, price: 0, date_type: 2 })).id;
    await db.insert(publicationPrices).values({ dict_service_subtype_id: 4, authors_num: 1, price: 2000 });
    const [release] = await db
      .insert(publicationReleases)
      .values({ title: 'Выпуск № 7', dict_service_subtype_id: 4 })
      .returning({ id: publicationReleases.id });
    const fields = { service_id: String(serviceId), title: 'Статья', dict_category_id: '3', release_id: String(release.id), authors_num: '1', authors: '[]' };
    const pub = await post('/api/publication', h, [
      ...Object.entries(fields).map(([field, content]) => ({ field, content })),
      { field: 'file', filename: 'article.pdf', content: PDF, type: 'application/pdf' },
      { field: 'additionalFiles[]', filename: 'annex.pdf', content: PDF, type: 'application/pdf' },
    ]);
    const pubFiles = [pub.data.file.id as number, pub.data.additionalFiles[0].id as number];
    expect((await t.inject({ method: 'DELETE', url: `/api/publication/${pub.data.id}`, headers: operator })).statusCode).toBe(200);

    // An avatar replaced by another.
    const avatar = async (background: string) => {
      const img = await sharp({ create: { width: 50, height: 50, channels: 3, background } })
        .png()
        .toBuffer();
      await post(`/api/user/${u.id}/upload-avatar`, h, [{ field: 'file', filename: 'me.png', content: img, type: 'image/png' }]);
      const [r] = await rows<{ id: number }>(db, sql`select avatar_id as id from users where id = ${u.id}`);
      return r.id;
    };
    const oldAvatar = await avatar('#112233');
    const avatarNow = await avatar('#445566');

    const retired = await rows<{ id: number }>(db, sql`select id from files where user_id = ${u.id} and deleted_at is not null order by id`);
    expect(retired.map((r) => r.id)).toEqual([oldDoc, recentDoc, ...pubFiles, oldAvatar].sort((a, b) => a - b));

    const due = [oldDoc, ...pubFiles, oldAvatar];
    const keys = new Map<number, string>();
    for (const id of [...due, recentDoc, keptDoc, avatarNow]) keys.set(id, await keyOf(id));
    for (const key of keys.values()) expect(await t.app.files.storage.exists(key)).toBe(true);
    await db.execute(
      sql`update files set deleted_at = now() - interval '31 days' where id in (${sql.join(
        due.map((i) => sql`${i}`),
        sql`, `,
      )})`,
    );
    await db.execute(sql`update files set deleted_at = now() - interval '29 days' where id = ${recentDoc}`);

    await scheduleFilePurge(db);
    expect(await t.app.jobs.runNow(PURGE_FILES_JOB, 'nightly')).toEqual({ state: 'done' });

    for (const id of due) expect(await t.app.files.storage.exists(keys.get(id)!), `file ${id}`).toBe(false);
    for (const id of [recentDoc, keptDoc, avatarNow]) expect(await t.app.files.storage.exists(keys.get(id)!), `file ${id}`).toBe(true);
    const purged = await rows<{ id: number }>(db, sql`select id from files where user_id = ${u.id} and purged_at is not null order by id`);
    expect(purged.map((r) => r.id)).toEqual([...due].sort((a, b) => a - b));
    // The job stays scheduled for the next night.
    const [job] = await rows<{ run_at: Date; done: boolean }>(db, sql`select run_at, done_at is not null as done from jobs where name = ${PURGE_FILES_JOB}`);
    expect(job.done).toBe(false);
    expect(new Date(job.run_at).getTime()).toBeGreaterThan(Date.now());
  });
});

it('runs at 04:00 Moscow time, the next one after now', () => {
  expect(nextPurgeRun(new Date('2026-03-10T00:30:00Z')).toISOString()).toBe('2026-03-10T01:00:00.000Z');
  expect(nextPurgeRun(new Date('2026-03-10T01:00:00Z')).toISOString()).toBe('2026-03-11T01:00:00.000Z');
});
