// npm run import -- users FILE [--dry-run]
// Brings the old cabinet's people in from a CSV (UTF-8 or Windows-1251, «;» or «,») or .xlsx file
// with a header row. Prints each row's outcome (new, merged, already there, refused with the reason)
// and a summary. A dry run changes nothing; a real run is safe to repeat and goes on after a crash.
// With the embedded database (no DATABASE_URL) stop the app first: one process owns its folder.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { importCountLabels, importOutcomeLabels, IMPORT_OUTCOMES, type ImportCounts } from '@edu/domain/users/user-import';
import { toolConfig } from './tool-config.ts';
import { openDatabase } from '../platform/db.ts';
import { AppError } from '../platform/errors.ts';
import { prepareDatabase } from '../platform/startup.ts';
import { importUsers } from '../features/user-import/import-users.ts';
import { readTable } from '../features/user-import/read-table.ts';

const USAGE = 'Использование: npm run import -- users ФАЙЛ [--dry-run]';

export const summaryLine = (counts: ImportCounts, dryRun: boolean) =>
  `${dryRun ? 'Пробный прогон (ничего не изменено)' : 'Импорт завершён'}: ${IMPORT_OUTCOMES.map((o) => `${importCountLabels[o]} ${counts[o]}`).join(', ')}`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'dry-run': { type: 'boolean', default: false } } });
  const [kind, file] = positionals;
  if (kind !== 'users' || !file) {
    console.error(USAGE);
    return 2;
  }
  const dryRun = values['dry-run'] ?? false;
  const config = toolConfig();
  // npm runs scripts from the project's folder: the file is where the command was typed.
  const table = await readTable(fs.readFileSync(path.resolve(process.env.INIT_CWD ?? process.cwd(), file)));
  const database = await openDatabase(config);
  try {
    await prepareDatabase(database, config);
    const started = performance.now();
    const result = await importUsers(database.db, table, {
      fileName: path.basename(file),
      dryRun,
      actorId: null,
      onProgress: process.stderr.isTTY ? (done) => process.stderr.write(`\r${done} / ${table.rows.length}`) : undefined,
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    if (result.unknownColumns.length > 0) console.log(`Столбцы не из списка (пропущены): ${result.unknownColumns.join(', ')}`);
    const out: string[] = [];
    for (const row of result.report) {
      const who = [row.fio, row.email && `<${row.email}>`].filter(Boolean).join(' ');
      const account = row.account_id ? ` (аккаунт № ${row.account_id})` : '';
      out.push(`строка ${row.line}: ${importOutcomeLabels[row.outcome]}${account} — ${who}${row.message ? `. ${row.message}` : ''}`);
    }
    out.push(`${summaryLine(result.counts, dryRun)}. Строк: ${result.total}, ${((performance.now() - started) / 1000).toFixed(1)} с`);
    // Written whole before the process exits (a pipe takes it in parts).
    await new Promise<void>((resolve) => (process.stdout.write(out.join('\n') + '\n') ? resolve() : process.stdout.once('drain', () => resolve())));
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof AppError) {
      console.error(err.message);
      process.exit(1);
    }
    console.error(err);
    process.exit(1);
  },
);
