import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import S3rver from 's3rver';
import { DiskStorage, FileStore, S3Storage, safeFileName, type ObjectStorage } from './files.ts';

const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-files-'));
let s3: S3rver;
let s3Port = 0;

beforeAll(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(tmp, 's3'), configureBuckets: [{ name: 'edu-files', configs: [] }] });
  const address = (await s3.run()) as unknown as { port: number } | [string, number];
  s3Port = Array.isArray(address) ? address[1] : address.port;
});
afterAll(async () => {
  await s3.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

const s3Settings = () => ({
  endpoint: `http://127.0.0.1:${s3Port}`,
  region: 'us-east-1',
  bucket: 'edu-files',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  forcePathStyle: true,
  prefix: 'app/',
});

const backends: [string, () => ObjectStorage][] = [
  ['local disk', () => new DiskStorage(path.join(tmp, 'disk'))],
  ['S3 (s3rver on 127.0.0.1)', () => new S3Storage(s3Settings())],
];

describe.each(backends)('object storage: %s', (_name, make) => {
  it('puts, reads, checks and removes objects', async () => {
    const storage = make();
    const store = new FileStore(storage);
    const key = store.generatedKey('cache', 'ab'.repeat(32), 'pdf');
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
    const body = Buffer.from('%PDF-1.4 test body');
    await store.putGenerated(key, body, 'application/pdf');
    expect(await storage.exists(key)).toBe(true);
    expect(Buffer.compare((await store.getGenerated(key))!, body)).toBe(0);
    await store.remove(key);
    expect(await storage.exists(key)).toBe(false);
  });

  it('lists every object it stores with its size, and nothing that is not its own (the backup reads it)', async () => {
    const storage = make();
    const store = new FileStore(storage);
    const upload = `12/${'12'.repeat(16)}.png`;
    const keys = [store.generatedKey('cache', 'cd'.repeat(32), 'pdf'), store.generatedKey('batches', 'ef'.repeat(16), 'zip'), upload];
    for (const [i, key] of keys.entries()) await storage.put(key, Buffer.alloc(10 + i, i), 'application/octet-stream');
    // Not the store's: a file being written on disk; on S3, an object outside the store's prefix.
    if (storage instanceof DiskStorage) await fs.writeFile(path.join(tmp, 'disk', `${upload}.abcd1234.tmp`), 'x');
    else await new S3Storage({ ...s3Settings(), prefix: undefined }).put(upload, Buffer.from('x'), 'image/png');
    const listed: Array<{ key: string; size: number }> = [];
    for await (const o of storage.list()) listed.push(o);
    const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
    expect(listed.sort(byKey)).toEqual(keys.map((key, i) => ({ key, size: 10 + i })).sort(byKey));
    for (const key of keys) await storage.remove(key);
  });

  it('refuses keys that are not its own (no paths from outside)', async () => {
    const store = new FileStore(make());
    await expect(store.read('../../etc/passwd')).rejects.toThrow('bad storage key');
    await expect(store.read('ab/../../x')).rejects.toThrow('bad storage key');
    expect(() => store.generatedKey('cache', '../x', 'pdf')).toThrow('bad storage key');
  });
});

describe('file names', () => {
  it('keeps only a safe display name', () => {
    expect(safeFileName('../../etc/passwd', 'x')).toBe('passwd');
    expect(safeFileName('C:\\Windows\\evil".pdf', 'x')).toBe('evil.pdf');
    expect(safeFileName('..', 'file.pdf')).toBe('file.pdf');
  });
});
