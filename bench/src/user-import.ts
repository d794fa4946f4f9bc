// The import of the old cabinet's people at its size (issue 32: 100 000 rows in under a minute).
// Usage: npx tsx bench/src/user-import.ts [--rows 100000] [--postgres postgres://…/db]
// Writes a Windows-1251 CSV of `rows` people (every tenth row a bcrypt hash, every fiftieth a row the
// import refuses, every hundredth the same person again), then times `npm run import -- users FILE`
// on a fresh embedded database (or an emptied PostgreSQL database): the dry run, the import, and the
// same file again (nothing to change). Each is a separate process, as an administrator runs it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { parseArgs } from './lib/args.ts';
import { printTable, writeResult } from './lib/results.ts';

const args = parseArgs();
const total = args.number('rows', 100_000);
const postgres = args.string('postgres', '');
const root = path.resolve(import.meta.dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'user-import-bench-'));
const HASH = '$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a';
const last = ['Иванова', 'Смирнова', 'Кузнецова', 'Попова', 'Васильева', 'Петрова', 'Соколова', 'Михайлова'];
const first = ['Анна', 'Мария', 'Елена', 'Ольга', 'Наталья', 'Ирина', 'Светлана', 'Татьяна'];
const regions = ['Санкт-Петербург', 'Москва', 'Ленинградская область', 'Новгородская область'];
const profiles = ['Математика', 'Начальное общее образование', 'Русский язык и литература'];

const lines = ['Фамилия;Имя;Отчество;E-mail;Телефон;Организация;Должность;Регион;Профили;Дата регистрации;Хеш пароля'];
for (let i = 0; i < total; i++) {
  const n = i % 100 === 98 ? i - 1 : i;
  const phone = `8 9${String(n).padStart(9, '0')}`;
  const email = i % 50 === 49 ? 'не-почта' : `teacher${n}@old-cabinet.example`;
  const day = `${String((n % 28) + 1).padStart(2, '0')}.${String((n % 12) + 1).padStart(2, '0')}.${2012 + (n % 12)}`;
  lines.push(
    [
      last[n % 8],
      first[(n >> 3) % 8],
      'Сергеевна',
      email,
      phone,
      `Школа № ${n % 700}`,
      'Учитель',
      regions[n % 4],
      profiles[n % 3],
      day,
      n % 10 === 0 ? HASH : '',
    ].join(';'),
  );
}
const file = path.join(dir, 'old-cabinet.csv');
fs.writeFileSync(file, iconv.encode(lines.join('\r\n'), 'win1251'));

const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: path.join(dir, 'data'), SKIP_SYSTEM_PACKAGES: '1' };
if (postgres) {
  env.DATABASE_URL = postgres;
  execFileSync('psql', [postgres, '-qc', 'drop schema public cascade; create schema public; drop schema if exists drizzle cascade;']);
}

const runs: Array<[string, number, string]> = [];
for (const [name, extra] of [
  ['dry run', ['--dry-run']],
  ['import', []],
  ['the same file again', []],
] as const) {
  const started = performance.now();
  const out = execFileSync('npx', ['tsx', 'server/src/cli/import.ts', 'users', file, ...extra], {
    cwd: root,
    env,
    maxBuffer: 1 << 30,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const seconds = (performance.now() - started) / 1000;
  runs.push([name, Number(seconds.toFixed(1)), out.trim().split('\n').at(-1) ?? '']);
}
printTable(['run', 'seconds', 'summary'], runs);
writeResult('user-import', { rows: total, database: postgres ? 'postgres' : 'pglite', cpus: os.cpus().length, runs });
fs.rmSync(dir, { recursive: true, force: true });
