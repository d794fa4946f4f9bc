import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { UPLOAD_MAX_BYTES } from '@edu/domain/users/profile';
import { files } from '../db/schema/index.ts';
import type { Queryable } from './db.ts';

/** Upload kinds by content, not by name: pdf, jpg, png (DESIGN: files). */
export const DOCUMENT_MIMES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export const IMAGE_MIMES = ['image/jpeg', 'image/png'] as const;

export async function sniffMime(buffer: Buffer): Promise<string | null> {
  return (await fileTypeFromBuffer(buffer))?.mime ?? null;
}

export function fileTooLarge(buffer: Buffer): boolean {
  return buffer.length > UPLOAD_MAX_BYTES;
}

/**
 * Files live under DATA_DIR/files with random names, outside any public folder. The storage key is
 * 128 random bits; only routes that check who is asking hand files out (avatars by their key).
 */
export class FileStore {
  constructor(private readonly root: string) {}

  private full(key: string): string {
    if (!/^[a-f0-9]{2}\/[a-f0-9]{32}(\.[a-z]+)?$/.test(key)) throw new Error('bad storage key');
    return path.join(this.root, key);
  }

  async save(db: Queryable, f: { userId: number | null; name: string; mime: string; buffer: Buffer; ext: string }) {
    const id = randomBytes(16).toString('hex');
    const key = `${id.slice(0, 2)}/${id}.${f.ext}`;
    await fs.mkdir(path.dirname(this.full(key)), { recursive: true });
    await fs.writeFile(this.full(key), f.buffer);
    const [row] = await db
      .insert(files)
      .values({ user_id: f.userId, name: f.name.slice(0, 255), storage_key: key, mime: f.mime, size: f.buffer.length })
      .returning();
    return row;
  }

  read(key: string): Promise<Buffer> {
    return fs.readFile(this.full(key));
  }
}
