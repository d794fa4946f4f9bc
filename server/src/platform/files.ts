import fs from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { sql } from 'drizzle-orm';
import { files } from '../db/schema/index.ts';
import type { Queryable } from './db.ts';
import type { Config } from './config.ts';

/** Upload kinds by content, not by name: pdf, jpg, png (DESIGN: files). */
export const DOCUMENT_MIMES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export const IMAGE_MIMES = ['image/jpeg', 'image/png'] as const;
export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** The extension a stored file gets by its detected kind (a .docx may be seen as a plain zip). */
export const EXT_BY_MIME: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  [DOCX_MIME]: 'docx',
  'application/zip': 'zip',
};

export async function sniffMime(buffer: Buffer): Promise<string | null> {
  return (await fileTypeFromBuffer(buffer))?.mime ?? null;
}

/** A display name safe to keep and to send in Content-Disposition: no folders, no control characters. */
export function safeFileName(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f"<>|:*?]/g, '')
    .replace(/^\.+/, '')
    .trim()
    .slice(0, 200);
  return clean || fallback;
}

/** Where bytes live. Keys are made by the app (random hex), never from user input. */
export interface ObjectStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Stores the bytes of a local file (streamed, never read whole); the local file may be moved. */
  putFile(key: string, file: string, size: number, contentType: string): Promise<void>;
  /** The bytes, or null when there is no such object. */
  get(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  remove(key: string): Promise<void>;
  /** Every stored object (keys of the store only: temporary files being written are left out), in no set order. */
  list(): AsyncIterable<{ key: string; size: number }>;
  describe(): string;
}

export class DiskStorage implements ObjectStorage {
  constructor(private readonly root: string) {}

  private full(key: string): string {
    return path.join(this.root, key);
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.full(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    await fs.writeFile(tmp, body);
    await fs.rename(tmp, file);
  }

  async putFile(key: string, file: string): Promise<void> {
    const target = this.full(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      // An upload's temporary file lives under DATA_DIR too: usually one rename, no copy.
      await fs.rename(file, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      const tmp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
      await fs.copyFile(file, tmp);
      await fs.rename(tmp, target);
    }
  }

  async get(key: string): Promise<Buffer | null> {
    return fs.readFile(this.full(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
  }

  async exists(key: string): Promise<boolean> {
    return fs.access(this.full(key)).then(
      () => true,
      () => false,
    );
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.full(key), { force: true });
  }

  async *list(): AsyncIterable<{ key: string; size: number }> {
    const names = await fs.readdir(this.root, { recursive: true, withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    for (const entry of names) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath, entry.name);
      const key = path.relative(this.root, full).split(path.sep).join('/');
      if (!isStorageKey(key)) continue;
      const stat = await fs.stat(full).catch(() => null);
      if (stat) yield { key, size: stat.size };
    }
  }

  describe(): string {
    return `disk ${this.root}`;
  }
}

export interface S3Settings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style addressing (MinIO, s3rver, most S3-compatible stores). */
  forcePathStyle: boolean;
  /** Key prefix inside the bucket. */
  prefix?: string;
}

/** Any S3-compatible storage (Yandex Object Storage, Selectel, MinIO, AWS). The bucket stays private. */
export class S3Storage implements ObjectStorage {
  private readonly client: S3Client;
  constructor(private readonly s: S3Settings) {
    this.client = new S3Client({
      endpoint: s.endpoint,
      region: s.region,
      forcePathStyle: s.forcePathStyle,
      credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    });
  }

  private k(key: string): string {
    return `${this.s.prefix ?? ''}${key}`;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.s.bucket, Key: this.k(key), Body: body, ContentType: contentType }));
  }

  async putFile(key: string, file: string, size: number, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.s.bucket, Key: this.k(key), Body: createReadStream(file), ContentLength: size, ContentType: contentType }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.s.bucket, Key: this.k(key) }));
      if (!r.Body) return null;
      return Buffer.from(await r.Body.transformToByteArray());
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.s.bucket, Key: this.k(key) }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.s.bucket, Key: this.k(key) }));
  }

  async *list(): AsyncIterable<{ key: string; size: number }> {
    const prefix = this.s.prefix ?? '';
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.s.bucket, Prefix: prefix || undefined, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        const key = (o.Key ?? '').slice(prefix.length);
        if (isStorageKey(key)) yield { key, size: o.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  describe(): string {
    return `S3 ${this.s.endpoint ?? 'aws'} bucket ${this.s.bucket}`;
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Marks files as no longer used by anything live (a deleted document or publication, a replaced
 * avatar): they stop being served and counted in the quota, and the retention job removes their
 * bytes DELETED_FILES_RETENTION_DAYS later.
 */
export async function retireFiles(db: Queryable, ids: Array<number | null | undefined>): Promise<void> {
  const list = [...new Set(ids.filter((i): i is number => typeof i === 'number'))];
  if (list.length === 0) return;
  await db.execute(
    sql`update files set deleted_at = now() where deleted_at is null and id in (${sql.join(
      list.map((i) => sql`${i}`),
      sql`, `,
    )})`,
  );
}

/**
 * Uploaded files: 'ab/<32 hex>.ext'. Generated files: 'cache/ab/<hex>.ext', 'batches/ab/<hex>.zip',
 * 'exports/ab/<hex>.zip' (personal-data archives, removed when their link expires).
 */
const KEY_PATTERN = /^(?:[a-f0-9]{2}\/[a-f0-9]{32}(?:\.[a-z0-9]+)?|(?:cache|batches|exports)\/[a-f0-9]{2}\/[a-f0-9]{16,64}\.[a-z0-9]+)$/;

export function assertKey(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new Error('bad storage key');
  return key;
}

/** A key the store makes (and so a safe relative path): see KEY_PATTERN. */
export const isStorageKey = (key: string): boolean => KEY_PATTERN.test(key);

/** The storage of an install's settings: S3 when configured, else the disk under DATA_DIR/files. */
export function storageFor(config: Pick<Config, 's3' | 'dataDir'>): ObjectStorage {
  return config.s3 ? new S3Storage(config.s3) : new DiskStorage(path.join(config.dataDir, 'files'));
}

/**
 * The private file store: uploaded files (a `files` row each, with its owner) and generated files
 * (cached documents, zips) on one storage, the local disk under DATA_DIR/files by default or S3 when
 * configured. Storage keys are random; only routes that check who is asking hand files out.
 */
export class FileStore {
  readonly storage: ObjectStorage;

  constructor(storage: ObjectStorage | string) {
    this.storage = typeof storage === 'string' ? new DiskStorage(storage) : storage;
  }

  private newKey(ext: string): string {
    const id = randomBytes(16).toString('hex');
    return assertKey(`${id.slice(0, 2)}/${id}.${ext}`);
  }

  /** Writes the row of a stored object; when that fails the object is removed again. */
  private async insertRow(db: Queryable, key: string, f: { userId: number | null; name: string; mime: string; ext: string; size: number }) {
    try {
      const [row] = await db
        .insert(files)
        .values({ user_id: f.userId, name: safeFileName(f.name, `file.${f.ext}`).slice(0, 255), storage_key: key, mime: f.mime, size: f.size })
        .returning();
      return row;
    } catch (err) {
      await this.storage.remove(key).catch(() => undefined);
      throw err;
    }
  }

  /** Keeps bytes held in memory (small generated files: resized images, templates). */
  async save(db: Queryable, f: { userId: number | null; name: string; mime: string; buffer: Buffer; ext: string }) {
    const key = this.newKey(f.ext);
    await this.storage.put(key, f.buffer, f.mime);
    return this.insertRow(db, key, { ...f, size: f.buffer.length });
  }

  /** Keeps an upload received into a local temporary file (streamed to the storage). */
  async saveFile(db: Queryable, f: { userId: number | null; name: string; mime: string; ext: string; size: number; path: string }) {
    const key = this.newKey(f.ext);
    await this.storage.putFile(key, f.path, f.size, f.mime);
    return this.insertRow(db, key, f);
  }

  /** The bytes of a stored key; throws when missing (callers answer 404). */
  async read(key: string): Promise<Buffer> {
    const data = await this.storage.get(assertKey(key));
    if (!data) throw Object.assign(new Error('file not found'), { code: 'ENOENT' });
    return data;
  }

  /** Generated files under a namespace ('cache', 'batches'), keyed by a hex digest. */
  generatedKey(namespace: 'cache' | 'batches' | 'exports', digest: string, ext: string): string {
    return assertKey(`${namespace}/${digest.slice(0, 2)}/${digest}.${ext}`);
  }

  putGenerated(key: string, body: Buffer, contentType: string): Promise<void> {
    return this.storage.put(assertKey(key), body, contentType);
  }

  getGenerated(key: string): Promise<Buffer | null> {
    return this.storage.get(assertKey(key));
  }

  /** Any stored key (uploaded or generated), or null when missing. */
  getGeneratedOrFile(key: string): Promise<Buffer | null> {
    return this.storage.get(assertKey(key));
  }

  remove(key: string): Promise<void> {
    return this.storage.remove(assertKey(key));
  }

  describe(): string {
    return this.storage.describe();
  }
}
