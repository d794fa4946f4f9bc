// npm run backup -- DIR
// One consistent snapshot of the install into DIR (a new or empty folder): the database (PGlite's data
// folder, which needs the app stopped, or pg_dump of PostgreSQL, taken live in one snapshot), then every
// object of the file store (disk or S3), and manifest.json with row counts and the files' sha256. The
// snapshot is written beside DIR and renamed to DIR at the end, so DIR never holds half a backup.
// See README, section "Backup and restore".
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { Config } from '../platform/config.ts';
import { toolConfig } from './tool-config.ts';
import type { Db } from '../platform/db.ts';
import { storageFor } from '../platform/files.ts';
import { countRows, latestMigrationWhen, storedFileKeys } from './backup-repository.ts';
import {
  BackupError,
  contentsText,
  DATABASE_FILE,
  databaseKind,
  eachLimited,
  FILES_DIR,
  FORMAT,
  gitCommit,
  isEmptyDir,
  libpqTarget,
  MANIFEST,
  migrationTag,
  openPgliteFolder,
  runPgTool,
  sha256,
  sha256File,
  sizeText,
  type FileItem,
  type Manifest,
} from './snapshot.ts';

export type InstallSettings = Pick<Config, 'databaseUrl' | 'dataDir' | 's3'>;

interface DatabaseSnapshot {
  tables: Record<string, number>;
  migrationWhen: number | null;
  fileKeys: string[];
}

/** PGlite: the data folder as PGlite itself dumps it, opened by this process alone (the app stopped). */
async function snapshotPglite(dataDir: string, file: string): Promise<DatabaseSnapshot> {
  const folder = path.join(dataDir, 'pglite');
  if (!fs.existsSync(path.join(folder, 'PG_VERSION')))
    throw new BackupError(`В ${folder} нет базы данных PGlite (DATA_DIR или DATABASE_URL указаны верно?).\nNo PGlite database in ${folder}.`);
  const database = await openPgliteFolder(folder);
  try {
    const snapshot = {
      tables: await countRows(database.db),
      migrationWhen: await latestMigrationWhen(database.db),
      fileKeys: await storedFileKeys(database.db),
    };
    const dump = await database.dump!();
    await fsp.writeFile(file, Buffer.from(await dump.arrayBuffer()));
    return snapshot;
  } finally {
    await database.close();
  }
}

/**
 * PostgreSQL, live: one repeatable-read transaction exports its snapshot; the row counts are read in
 * it and pg_dump dumps exactly it (--snapshot), so the counts describe the dump whatever the app
 * writes meanwhile.
 */
async function snapshotPostgres(url: string, file: string): Promise<DatabaseSnapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const db = drizzlePg(client) as unknown as Db;
    const snapshot = { tables: await countRows(db), migrationWhen: await latestMigrationWhen(db), fileKeys: await storedFileKeys(db) };
    const target = libpqTarget(url);
    await runPgTool('pg_dump', ['--format=custom', `--snapshot=${rows[0].id}`, `--file=${file}`, `--dbname=${target.dbname}`], target.env);
    await client.query('commit');
    return snapshot;
  } finally {
    await client.end();
  }
}

/**
 * Writes the backup of the install described by `config` into `dir` and answers its manifest. The
 * database first, the files after: a file's bytes are stored before its row is written, so every file
 * the dumped database names is already in the store when the store is copied.
 */
export async function backup(config: InstallSettings, dir: string, opts: { log?: (line: string) => void } = {}): Promise<Manifest> {
  const log = opts.log ?? (() => undefined);
  const target = path.resolve(dir);
  if (!(await isEmptyDir(target)))
    throw new BackupError(
      `Папка ${target} не пуста: укажите новую папку для резервной копии.\nThe folder ${target} is not empty: name a new folder for the backup.`,
    );
  const work = path.join(path.dirname(target), `.${path.basename(target)}.partial-${process.pid}`);
  await fsp.rm(work, { recursive: true, force: true });
  await fsp.mkdir(path.join(work, FILES_DIR), { recursive: true });
  try {
    const kind = databaseKind(config);
    const dbFile = path.join(work, DATABASE_FILE[kind]);
    log(`База данных (${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'})…`);
    const snap = kind === 'pglite' ? await snapshotPglite(config.dataDir, dbFile) : await snapshotPostgres(config.databaseUrl!, dbFile);

    const storage = storageFor(config);
    log(`Файлы (${storage.describe()})…`);
    const listed: Array<{ key: string; size: number }> = [];
    for await (const o of storage.list()) listed.push(o);
    const items: FileItem[] = [];
    await eachLimited(listed, 8, async ({ key }) => {
      const data = await storage.get(key);
      if (!data) return; // removed since the listing (the retention job): not part of the snapshot
      const file = path.join(work, FILES_DIR, key);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      await fsp.writeFile(file, data);
      items.push({ key, size: data.length, sha256: sha256(data) });
    });
    items.sort((a, b) => a.key.localeCompare(b.key));
    const present = new Set(items.map((i) => i.key));
    const missing = snap.fileKeys.filter((k) => !present.has(k));

    const manifest: Manifest = {
      format: FORMAT,
      created_at: new Date().toISOString(),
      app: { commit: gitCommit(), migration: migrationTag(snap.migrationWhen), migration_when: snap.migrationWhen, node: process.version },
      database: { kind, file: DATABASE_FILE[kind], size: (await fsp.stat(dbFile)).size, sha256: await sha256File(dbFile), tables: snap.tables },
      files: { storage: config.s3 ? 's3' : 'disk', count: items.length, size: items.reduce((s, i) => s + i.size, 0), items, missing },
    };
    await fsp.writeFile(path.join(work, MANIFEST), JSON.stringify(manifest, null, 1));
    await fsp.rm(target, { recursive: true, force: true }); // empty, checked above
    await fsp.rename(work, target);
    return manifest;
  } catch (err) {
    await fsp.rm(work, { recursive: true, force: true });
    throw err;
  }
}

async function main(): Promise<void> {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  if (positionals.length !== 1) {
    console.error('usage: npm run backup -- DIR');
    process.exit(2);
  }
  const config = toolConfig();
  const started = performance.now();
  try {
    const m = await backup(config, positionals[0], { log: (line) => console.log(line) });
    console.log(
      `Резервная копия готова: ${path.resolve(positionals[0])} — ${contentsText(m.database.tables, m.files)}, ` +
        `файл базы ${sizeText(m.database.size)}, ${Math.round((performance.now() - started) / 1000)} с.`,
    );
    if (m.files.missing.length)
      console.warn(`Внимание: файлов, названных в базе, но не найденных в хранилище: ${m.files.missing.length} (список в manifest.json, files.missing).`);
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    console.error(err.message);
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) await main();
