import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPglite, openPostgres, rows, type Database } from '../platform/db.ts';
import { S3Storage, type S3Settings } from '../platform/files.ts';
import { createTestApp } from '../../test/helper.ts';
import { makeService } from '../../test/fixtures.ts';
import { courseEntry, multipart, PDF, png } from '../../test/documents-fixtures.ts';
import { countRows } from './backup-repository.ts';
import { backup, type InstallSettings } from './backup.ts';
import { restore } from './restore.ts';
import { BackupError, libpqTarget, MANIFEST } from './snapshot.ts';

// A seeded install (accounts, entries, a payment, uploaded documents) is backed up, restored into a
// fresh data folder (on PostgreSQL: a fresh, empty database too), and the copy is compared with the
// original: every table's rows and every stored file's sha256.

const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-backup-'));
const onPostgres = inject('dbKind') === 'postgres';
const databases: string[] = [];

async function adminQuery(text: string) {
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/** A new PostgreSQL database (from the migrated test template, or empty), dropped after the file. */
async function newPostgresDatabase(fromTemplate: boolean): Promise<string> {
  const name = `${inject('pgTemplate')}_fbk${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${name}${fromTemplate ? ` template ${inject('pgTemplate')}` : ''}`);
  databases.push(name);
  const u = new URL(inject('pgAdminUrl'));
  u.pathname = `/${name}`;
  return u.toString();
}

/** The install's database, opened as the app opens it. */
async function open(settings: InstallSettings, loadDataDir?: Blob): Promise<Database> {
  return settings.databaseUrl ? openPostgres(settings.databaseUrl, 2) : openPglite(path.join(settings.dataDir, 'pglite'), { loadDataDir });
}

/** sha256 of every file under the store's folder, by key. */
async function storedFiles(dataDir: string): Promise<Record<string, string>> {
  const root = path.join(dataDir, 'files');
  const names = await fs.readdir(root, { recursive: true, withFileTypes: true });
  const result: Record<string, string> = {};
  for (const e of names.filter((n) => n.isFile())) {
    const full = path.join(e.parentPath, e.name);
    result[path.relative(root, full)] = createHash('sha256')
      .update(await fs.readFile(full))
      .digest('hex');
  }
  return result;
}

let s3: S3rver;
let s3Settings: S3Settings;
beforeAll(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(tmp, 's3'), configureBuckets: [{ name: 'edu-backup', configs: [] }] });
  const address = (await s3.run()) as unknown as { port: number } | [string, number];
  const port = Array.isArray(address) ? address[1] : address.port;
  s3Settings = {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket: 'edu-backup',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    prefix: 'app/',
  };
});

afterAll(async () => {
  await s3?.close();
  for (const name of databases) await adminQuery(`drop database if exists ${name} with (force)`);
  await fs.rm(tmp, { recursive: true, force: true });
});

describe(`backup and restore (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('restores a seeded install into a fresh one with the same rows and files, and refuses to overwrite data', async () => {
    const source: InstallSettings = { dataDir: path.join(tmp, 'source'), databaseUrl: onPostgres ? await newPostgresDatabase(true) : undefined, s3: undefined };
    const target: InstallSettings = {
      dataDir: path.join(tmp, 'target'),
      databaseUrl: onPostgres ? await newPostgresDatabase(false) : undefined,
      s3: undefined,
    };
    const dir = path.join(tmp, 'backup-1');

    // The seeded install: PGlite in its data folder (the migrated test database loaded into it).
    const t = await createTestApp(
      { dataDir: source.dataDir },
      { database: await open(source, onPostgres ? undefined : new Blob([await fs.readFile(inject('pgliteDump'))])) },
    );
    const operator = await t.loginAs(await t.createUser({ role: 1 }));
    const user = await t.createUser();
    const h = await t.loginAs(user);
    const entryIds: number[] = [];
    for (const price of [1500, 2400]) {
      const s = await makeService(t.database.db, { price });
      const res = await t.inject({ method: 'POST', url: '/api/entry', headers: h, payload: { service_id: s.id, pay_type: 3, is_extramural: 0 } });
      expect(res.statusCode, res.body).toBe(201);
      entryIds.push(res.json().data.id);
    }
    const paid = await t.inject({ method: 'POST', url: `/api/entry/${entryIds[0]}/pay`, headers: operator, payload: { pay_type: 1 } });
    expect(paid.statusCode, paid.body).toBe(200);
    // Documents are uploaded by clients of qualification courses.
    await courseEntry(t, user.id);
    const body = multipart([
      { field: 'passport', filename: 'passport.pdf', content: PDF, type: 'application/pdf' },
      { field: 'education', filename: 'diploma.png', content: await png(), type: 'image/png' },
    ]);
    const uploaded = await t.inject({
      method: 'POST',
      url: `/api/user/${user.id}/upload-documents`,
      headers: { ...h, ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);

    const counts = await countRows(t.database.db);
    expect(counts['public.entries']).toBeGreaterThanOrEqual(2);
    expect(counts['public.payments']).toBeGreaterThanOrEqual(1);
    expect(counts['public.files']).toBeGreaterThanOrEqual(2);
    const paymentOf = (db: Database['db']) =>
      rows<{ id: number; sum: number; pay_type: number; created_at: Date }>(
        db,
        sql`select p.id, p.sum, p.pay_type, p.created_at from payments p join payment_entries pe on pe.payment_id = p.id where pe.entry_id = ${entryIds[0]}`,
      );
    const [payment] = await paymentOf(t.database.db);
    expect(payment).toBeDefined();
    const files = await storedFiles(source.dataDir);

    if (!onPostgres) {
      // The app holds its PGlite folder: a backup now would copy a folder being written. It refuses.
      const refused = await backup(source, dir).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(BackupError);
      expect((refused as Error).message).toContain('открыта другим процессом');
      await expect(fs.access(dir)).rejects.toThrow();
      await t.close();
    }
    // PostgreSQL is backed up live, with the app still running.
    const manifest = await backup(source, dir);
    if (onPostgres) await t.close();

    expect(manifest.database.kind).toBe(onPostgres ? 'postgres' : 'pglite');
    expect(manifest.database.tables).toEqual(counts);
    expect(manifest.app.migration).toMatch(/^\d{4}_/);
    expect(Object.fromEntries(manifest.files.items.map((i) => [i.key, i.sha256]))).toEqual(files);
    expect(manifest.files.missing).toEqual([]);
    expect(JSON.parse(await fs.readFile(path.join(dir, MANIFEST), 'utf8'))).toEqual(manifest);
    // A second backup into a folder that is not empty is refused.
    await expect(backup(source, dir)).rejects.toThrow(/не пуста/);

    const report = await restore(target, dir);
    expect(report.files).toBe(Object.keys(files).length);
    expect(report.movedAside).toBeNull();
    expect(await storedFiles(target.dataDir)).toEqual(files);

    // The restored install, opened as the app opens it: the same rows.
    const restored = await open(target);
    try {
      expect(await countRows(restored.db)).toEqual(counts);
      expect(await paymentOf(restored.db)).toEqual([payment]);
    } finally {
      await restored.close();
    }

    // Now it has data: a second restore refuses without --force.
    await expect(restore(target, dir)).rejects.toThrow(/уже есть учётные записи/);
    // Forced, and with the file store on S3 this time: the files go to the bucket.
    const onS3: InstallSettings = { ...target, s3: s3Settings };
    const forced = await restore(onS3, dir, { force: true });
    expect(forced.tables).toEqual(counts);
    if (!onPostgres) expect(forced.movedAside).toMatch(/pglite\.before-restore-/);
    const bucket = new S3Storage(s3Settings);
    const inBucket: Record<string, string> = {};
    for await (const o of bucket.list())
      inBucket[o.key] = createHash('sha256')
        .update((await bucket.get(o.key))!)
        .digest('hex');
    expect(inBucket).toEqual(files);

    // And a backup of that install reads the bucket: the same rows and files again.
    const again = await backup(onS3, path.join(tmp, 'backup-2'));
    expect(again.database.tables).toEqual(counts);
    expect(again.files.items).toEqual(manifest.files.items);
  }, 180_000); // eight opens of PGlite: 24-40 s on 2 cores at load 9-13; the limit only stops a hang

  it('refuses a damaged backup before touching the target', async () => {
    const dir = path.join(tmp, 'backup-1');
    const manifest = JSON.parse(await fs.readFile(path.join(dir, MANIFEST), 'utf8')) as { files: { items: Array<{ key: string }> } };
    const victim = path.join(dir, 'files', manifest.files.items[0].key);
    await fs.appendFile(victim, 'x');
    const target: InstallSettings = {
      dataDir: path.join(tmp, 'target-2'),
      databaseUrl: onPostgres ? await newPostgresDatabase(false) : undefined,
      s3: undefined,
    };
    await expect(restore(target, dir)).rejects.toThrow(/повреждена/);
    await expect(fs.access(target.dataDir)).rejects.toThrow();
  });

  it("keeps the database password out of pg_dump's and pg_restore's arguments (ps shows them to everyone)", () => {
    const target = libpqTarget('postgres://app:s%40cret@db.example.ru:5433/cabinet?sslmode=require');
    expect(target.dbname).toBe('postgres://app@db.example.ru:5433/cabinet?sslmode=require');
    expect(target.env.PGPASSWORD).toBe('s@cret');
  });
});
