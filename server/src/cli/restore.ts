// npm run restore -- DIR [--force]
// Brings a backup of `npm run backup` back into an empty install (the DATA_DIR / DATABASE_URL and file
// store of the current settings): checks the backup against its manifest first, refuses a target that
// already has accounts (unless --force), restores the database and the files, then checks the row
// counts and reads every file back to compare its sha256. See README, section "Backup and restore".
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { toolConfig } from './tool-config.ts';
import type { Db } from '../platform/db.ts';
import { EXT_BY_MIME, isStorageKey, storageFor } from '../platform/files.ts';
import { countRows, hasAccounts } from './backup-repository.ts';
import type { InstallSettings } from './backup.ts';
import {
  BackupError,
  contentsText,
  DATABASE_FILE,
  databaseKind,
  eachLimited,
  FILES_DIR,
  FORMAT,
  isEmptyDir,
  journal,
  libpqTarget,
  MANIFEST,
  openPgliteFolder,
  runPgTool,
  sha256,
  sha256File,
  type Manifest,
} from './snapshot.ts';

const MIME_BY_EXT = Object.fromEntries(Object.entries(EXT_BY_MIME).map(([mime, ext]) => [ext, mime]));

export interface RestoreReport {
  tables: Record<string, number>;
  files: number;
  /** PGlite: where the folder that was replaced was moved (with --force, or an install without accounts). */
  movedAside: string | null;
}

const NOT_EMPTY =
  'В базе данных уже есть учётные записи: восстановление заменит её целиком. Если это и нужно, повторите с --force.\n' +
  'The target database already has accounts: a restore replaces it whole. If that is what you want, run again with --force.';

export async function readManifest(dir: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await fsp.readFile(path.join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    throw new BackupError(`В ${dir} нет ${MANIFEST} или он повреждён: это не резервная копия npm run backup.\nNo readable ${MANIFEST} in ${dir}.`);
  }
  if (manifest.format !== FORMAT) throw new BackupError(`Неизвестный формат резервной копии: ${String(manifest.format)}.\nUnknown backup format.`);
  return manifest;
}

/** Every byte of the backup against its manifest, before anything of the target is touched. */
async function checkBackup(dir: string, m: Manifest): Promise<void> {
  const bad: string[] = [];
  const dbFile = path.join(dir, m.database.file);
  if (!fs.existsSync(dbFile) || (await sha256File(dbFile)) !== m.database.sha256) bad.push(m.database.file);
  await eachLimited(m.files.items, 8, async (item) => {
    if (!isStorageKey(item.key)) return void bad.push(item.key);
    const file = path.join(dir, FILES_DIR, item.key);
    if (!fs.existsSync(file) || (await sha256File(file)) !== item.sha256) bad.push(`${FILES_DIR}/${item.key}`);
  });
  if (bad.length)
    throw new BackupError(
      `Резервная копия повреждена: не совпадают с manifest.json (sha256) или отсутствуют ${bad.length}: ${bad.slice(0, 10).join(', ')}${bad.length > 10 ? '…' : ''}.\n` +
        `The backup is damaged: ${bad.length} files missing or not matching manifest.json.`,
    );
}

/** PGlite: the target folder made free (moved aside when it holds a database the restore may replace). */
async function clearPgliteTarget(folder: string, force: boolean): Promise<string | null> {
  if (await isEmptyDir(folder)) return null;
  if (fs.existsSync(path.join(folder, 'PG_VERSION'))) {
    const database = await openPgliteFolder(folder);
    try {
      if (!force && (await hasAccounts(database.db))) throw new BackupError(NOT_EMPTY);
    } finally {
      await database.close();
    }
  } else if (!force) {
    throw new BackupError(
      `Папка ${folder} не пуста и не похожа на базу PGlite. Если её можно заменить, повторите с --force.\nThe folder ${folder} is not empty.`,
    );
  }
  const aside = `${folder}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await fsp.rename(folder, aside);
  return aside;
}

async function restorePglite(dataDir: string, dbFile: string, force: boolean): Promise<{ tables: Record<string, number>; movedAside: string | null }> {
  const folder = path.join(dataDir, 'pglite');
  const movedAside = await clearPgliteTarget(folder, force);
  const database = await openPgliteFolder(folder, new Blob([await fsp.readFile(dbFile)]));
  try {
    return { tables: await countRows(database.db), movedAside };
  } finally {
    await database.close();
  }
}

async function withPostgres<T>(url: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(drizzlePg(client) as unknown as Db);
  } finally {
    await client.end();
  }
}

/** PostgreSQL: pg_restore in one transaction; the dump's objects replace those of the same name (--clean). */
async function restorePostgres(url: string, dbFile: string, force: boolean): Promise<Record<string, number>> {
  if (!force && (await withPostgres(url, hasAccounts))) throw new BackupError(NOT_EMPTY);
  const target = libpqTarget(url);
  await runPgTool(
    'pg_restore',
    ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${target.dbname}`, dbFile],
    target.env,
  );
  return withPostgres(url, countRows);
}

/** Restores the backup in `dir` into the install described by `config`. */
export async function restore(config: InstallSettings, dir: string, opts: { force?: boolean; log?: (line: string) => void } = {}): Promise<RestoreReport> {
  const log = opts.log ?? (() => undefined);
  const source = path.resolve(dir);
  const m = await readManifest(source);
  const kind = databaseKind(config);
  if (m.database.kind !== kind)
    throw new BackupError(
      `Копия сделана с базой ${m.database.kind}, а настройки указывают на ${kind} (${kind === 'postgres' ? 'задан DATABASE_URL' : 'DATABASE_URL не задан'}): восстановите в такую же.\n` +
        `The backup holds a ${m.database.kind} database and the settings name ${kind}.`,
    );
  if (m.database.file !== DATABASE_FILE[m.database.kind])
    throw new BackupError(`manifest.json: неизвестный файл базы ${m.database.file}.\nUnknown database file.`);
  const known = journal();
  if (m.app.migration_when !== null && m.app.migration_when > known[known.length - 1].when)
    throw new BackupError(
      `Копия сделана более новой версией приложения (миграция ${m.app.migration ?? m.app.migration_when}): обновите код и повторите.\n` +
        'The backup was made by a newer release: upgrade the code first.',
    );

  log('Проверка резервной копии…');
  await checkBackup(source, m);

  log(`База данных (${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'})…`);
  const dbFile = path.join(source, m.database.file);
  const { tables, movedAside } =
    kind === 'pglite'
      ? await restorePglite(config.dataDir, dbFile, opts.force ?? false)
      : { tables: await restorePostgres(config.databaseUrl!, dbFile, opts.force ?? false), movedAside: null };
  const differ = Object.keys({ ...m.database.tables, ...tables }).filter((t) => m.database.tables[t] !== tables[t]);
  if (differ.length)
    throw new BackupError(
      `После восстановления число строк не совпадает с manifest.json: ${differ.map((t) => `${t} ${tables[t] ?? '—'} вместо ${m.database.tables[t] ?? '—'}`).join(', ')}.\n` +
        'Row counts after the restore differ from manifest.json.',
    );

  const storage = storageFor(config);
  log(`Файлы (${storage.describe()})…`);
  await eachLimited(m.files.items, 8, async (item) => {
    const data = await fsp.readFile(path.join(source, FILES_DIR, item.key));
    await storage.put(item.key, data, MIME_BY_EXT[path.extname(item.key).slice(1)] ?? 'application/octet-stream');
  });
  const wrong: string[] = [];
  await eachLimited(m.files.items, 8, async (item) => {
    const back = await storage.get(item.key);
    if (!back || sha256(back) !== item.sha256) wrong.push(item.key);
  });
  if (wrong.length)
    throw new BackupError(
      `Файлы, прочитанные из хранилища после восстановления, не совпадают с manifest.json: ${wrong.slice(0, 10).join(', ')}${wrong.length > 10 ? '…' : ''}.\n` +
        'Files read back from the store do not match manifest.json.',
    );
  return { tables, files: m.files.items.length, movedAside };
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
  if (positionals.length !== 1) {
    console.error('usage: npm run restore -- DIR [--force]');
    process.exit(2);
  }
  const config = toolConfig();
  try {
    const m = await readManifest(path.resolve(positionals[0]));
    const r = await restore(config, positionals[0], { force: values.force, log: (line) => console.log(line) });
    console.log(`Восстановлено из копии от ${m.created_at}: ${contentsText(r.tables, m.files)}; ` + 'число строк и sha256 файлов совпадают с manifest.json.');
    if (r.movedAside) console.log(`Прежняя папка базы сохранена в ${r.movedAside}: удалите её, когда убедитесь, что всё на месте.`);
    console.log('Запустите приложение: при старте оно применит миграции, если копия сделана более старой версией.');
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    console.error(err.message);
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) await main();
