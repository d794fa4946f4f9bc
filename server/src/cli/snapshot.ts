// What `npm run backup` writes and `npm run restore` reads (README, section "Backup and restore"):
//   DIR/manifest.json            this file's Manifest
//   DIR/database.pglite.tar.gz   PGlite's data folder (dumpDataDir), or
//   DIR/database.pgdump          pg_dump's custom format (PostgreSQL)
//   DIR/files/<storage key>      every object of the file store, under its key
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { pipeline } from 'node:stream/promises';
import { plural } from '@edu/domain/common/plural';
import { migrationsFolder, openPglite, type Database } from '../platform/db.ts';
import { DataFolderBusyError } from '../platform/pglite-lock.ts';

export const MANIFEST = 'manifest.json';
export const FORMAT = 1;
export const DATABASE_FILE = { pglite: 'database.pglite.tar.gz', postgres: 'database.pgdump' } as const;
export const FILES_DIR = 'files';

export interface FileItem {
  key: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  created_at: string;
  app: {
    /** The git commit of the code that made the backup, when it runs from a git checkout. */
    commit: string | null;
    /** The latest migration applied to the database (its tag and journal time). */
    migration: string | null;
    migration_when: number | null;
    node: string;
  };
  database: { kind: 'pglite' | 'postgres'; file: string; size: number; sha256: string; tables: Record<string, number> };
  files: {
    storage: string;
    count: number;
    size: number;
    items: FileItem[];
    /** Keys the database names (files not purged) that were not in the store when the backup was made. */
    missing: string[];
  };
}

/** A refusal or failure with a message for the operator (printed as is, no stack). */
export class BackupError extends Error {}

export const databaseKind = (config: { databaseUrl?: string }): 'pglite' | 'postgres' => (config.databaseUrl ? 'postgres' : 'pglite');

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

interface JournalEntry {
  when: number;
  tag: string;
}

/** The migrations this code knows (drizzle's journal), oldest first. */
export function journal(): JournalEntry[] {
  const parsed = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] };
  return parsed.entries;
}

export const migrationTag = (when: number | null): string | null => (when === null ? null : (journal().find((e) => e.when === when)?.tag ?? null));

export function gitCommit(): string | null {
  const r = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: path.dirname(migrationsFolder), encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/**
 * A connection string without its password, and the password for the PGPASSWORD of pg_dump and
 * pg_restore: a password in their arguments would show in `ps` to every user of the machine.
 */
export function libpqTarget(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env } };
}

/** Runs pg_dump or pg_restore (PG_DUMP / PG_RESTORE name another binary); its stderr becomes the error. */
export async function runPgTool(tool: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const bin = (tool === 'pg_dump' ? process.env.PG_DUMP : process.env.PG_RESTORE) || tool;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(bin, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-8000)));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new BackupError(
              `Не найдена программа ${bin}: установите postgresql-client той же основной версии, что и сервер PostgreSQL, или новее (или укажите путь в ${tool === 'pg_dump' ? 'PG_DUMP' : 'PG_RESTORE'}).\n` +
                `${bin} not found: install postgresql-client of the server's major version or newer (or set ${tool === 'pg_dump' ? 'PG_DUMP' : 'PG_RESTORE'}).`,
            )
          : err,
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${tool} завершился с кодом ${code} / exited with code ${code}:\n${stderr.trim()}`)),
    );
  });
}

/** A PGlite folder opened on this thread; a folder held by a running app is a refusal, not a crash. */
export async function openPgliteFolder(folder: string, loadDataDir?: Blob): Promise<Database> {
  try {
    return await openPglite(folder, { loadDataDir, worker: false });
  } catch (err) {
    if (err instanceof DataFolderBusyError) throw new BackupError(err.message);
    throw err;
  }
}

/** Runs `work` on every item, at most `limit` at once. */
export async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(lanes);
}

export async function isEmptyDir(dir: string): Promise<boolean> {
  const names = await fsp.readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  return names.length === 0;
}

/** "840 КБ", "12,3 МБ". */
export function sizeText(bytes: number): string {
  const kb = bytes / 1024;
  if (kb < 1024) return `${Math.ceil(kb).toLocaleString('ru-RU')} КБ`;
  return `${(kb / 1024).toLocaleString('ru-RU', { maximumFractionDigits: 1 })} МБ`;
}

/** "63 таблицы, 1 076 строк, 14 файлов (52 КБ)": what a backup holds. */
export function contentsText(tables: Record<string, number>, files: { count: number; size: number }): string {
  const n = Object.keys(tables).length;
  const rowsTotal = Object.values(tables).reduce((sum, r) => sum + r, 0);
  return (
    `${n} ${plural(n, 'таблица', 'таблицы', 'таблиц')}, ${rowsTotal.toLocaleString('ru-RU')} ${plural(rowsTotal, 'строка', 'строки', 'строк')}, ` +
    `${files.count} ${plural(files.count, 'файл', 'файла', 'файлов')} (${sizeText(files.size)})`
  );
}
