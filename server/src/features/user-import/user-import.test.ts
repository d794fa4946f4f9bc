import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@edu/domain/common/codes';
import { LogReasons } from '@edu/domain/logs/log';
import { ImportMessages, UserImportMessages, type UserImportState } from '@edu/domain/users/user-import';
import { users } from '../../db/schema/index.ts';
import { rows } from '../../platform/db.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { multipartForm } from '../../../test/multipart.ts';
import { importUsers } from './import-users.ts';
import { readTable } from './read-table.ts';

// PHP's own password_verify example: the old cabinet's hashes look like this.
const PHP_HASH = '$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a';
const PHP_PASSWORD = 'rasmuslerdorf';

let t: TestApp;
let op: Record<string, string>;
let existing: { id: number; email: string; phone: string };
let other: { id: number; email: string; phone: string };

beforeAll(async () => {
  t = await createTestApp();
  const operator = await t.createUser({ role: Role.operator });
  op = await t.loginAs(operator);
  existing = await t.createUser({ email: 'old.teacher@example.com', phone: '+7 (911) 000-00-01', organization: null, job_title: 'Учитель' });
  other = await t.createUser({ email: 'someone.else@example.com', phone: '+7 (911) 000-00-02' });
});
afterAll(() => t.close());

/** The old cabinet's export as Excel saves «CSV (разделители — точки с запятой)» in Russian Windows. */
function oldCabinetCsv(): Buffer {
  const lines = [
    'Фамилия;Имя;Отчество;E-mail;Телефон;Организация;Должность;Регион;Профили;Дата регистрации;Хеш пароля;Кличка кота',
    `Ёлкина;Анна;Сергеевна;Anna.Yolkina@Example.com;8 (912) 345-67-89;"Школа № 5; корпус 2";Учитель;Санкт-Петербург;Математика, Плавание;15.03.2019 10:30;${PHP_HASH};Барсик`,
    `Старый;Учитель;;old.teacher@example.com;;Гимназия № 1;Завуч;Москва;;01.02.2018;;`,
    'Без;Телефона;;no.phone@example.com;12345;;;;;;;',
    'Дважды;Человек;;twice@example.com;+7 912 000 11 22;;;;;;;',
    'Дважды;Человек;Иванович;TWICE@example.com;;Лицей;;;;;;',
    `Чужой;Телефон;;old.teacher@example.com;+7 (911) 000-00-02;;;;;;;`,
    ';Безфамильный;;x@example.com;;;;;;;;',
    'Плохая;Дата;;bad.date@example.com;;;;;;31.02.2020;;',
  ];
  return iconv.encode(lines.join('\r\n') + '\r\n', 'win1251');
}

const userByEmail = async (email: string) =>
  (
    await t.database.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
  )[0];
const logCount = async () => (await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from change_logs where type = 'user'`))[0].n;

describe('bringing the old cabinet’s people in', () => {
  it('reads a Windows-1251 CSV with «;» and quoted cells, and an .xlsx with dates and links', async () => {
    const csv = await readTable(oldCabinetCsv());
    expect(csv.headers[0]).toBe('Фамилия');
    expect(csv.rows[0][0]).toBe('Ёлкина');
    expect(csv.rows[0][5]).toBe('Школа № 5; корпус 2');

    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Люди');
    sheet.addRow(['Фамилия', 'Имя', 'Email', 'Дата регистрации']);
    sheet.addRow(['Петров', 'Пётр', { text: 'petrov@example.com', hyperlink: 'mailto:petrov@example.com' }, new Date(Date.UTC(2020, 0, 31, 9, 0))]);
    sheet.addRow([]);
    const xlsx = await readTable(Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(xlsx.rows).toEqual([['Петров', 'Пётр', 'petrov@example.com', '2020-01-31 09:00:00']]);

    await expect(readTable(Buffer.from('Фамилия;Имя\r\n'))).rejects.toMatchObject({ statusCode: 422, message: ImportMessages.emptyFile });
  });

  it('a dry run says row by row what would happen and changes nothing', async () => {
    const before = { users: (await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from users`))[0].n, logs: await logCount() };
    const result = await importUsers(t.database.db, await readTable(oldCabinetCsv()), { fileName: 'old.csv', dryRun: true, actorId: null });
    expect(result.unknownColumns).toEqual(['Кличка кота']);
    expect(result.report.map((r) => [r.line, r.outcome])).toEqual([
      [2, 'new'],
      [3, 'merged'],
      [4, 'refused'],
      [5, 'new'],
      [6, 'merged'],
      [7, 'refused'],
      [8, 'refused'],
      [9, 'refused'],
    ]);
    expect(result.report[0].message).toBe(ImportMessages.unknownProfile('Плавание'));
    expect(result.report[1].account_id).toBe(existing.id);
    expect(result.report[2].message).toBe(ImportMessages.badPhone('12345'));
    expect(result.report[5].message).toBe(ImportMessages.twoAccounts(existing.id, other.id));
    expect(result.report[6].message).toBe(ImportMessages.lastNameRequired);
    expect(result.report[7].message).toBe(ImportMessages.badDate('31.02.2020'));
    expect(result.counts).toEqual({ new: 2, merged: 2, unchanged: 0, refused: 4 });
    expect((await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from users`))[0].n).toBe(before.users);
    expect(await logCount()).toBe(before.logs);
  });

  it('imports new people normalised as sign-up does, fills only the empty fields of existing ones, logs each change, and a second run changes nothing', async () => {
    const logsBefore = await logCount();
    const first = await importUsers(t.database.db, await readTable(oldCabinetCsv()), { fileName: 'old.csv', dryRun: false, actorId: null });
    expect(first.counts).toEqual({ new: 2, merged: 2, unchanged: 0, refused: 4 });

    const anna = await userByEmail('anna.yolkina@example.com');
    expect(anna).toMatchObject({
      email: 'anna.yolkina@example.com',
      phone: '+7 (912) 345-67-89',
      last_name: 'Ёлкина',
      middle_name: 'Сергеевна',
      role: Role.user,
    });
    expect(anna.organization).toBe('Школа № 5; корпус 2');
    expect(anna.password).toBe(PHP_HASH);
    expect(anna.dict_region_id).toBe(78);
    // 15.03.2019 10:30 in Moscow.
    expect(anna.created_at.toISOString()).toBe('2019-03-15T07:30:00.000Z');
    const annaProfiles = await rows<{ fdv: string }>(
      t.database.db,
      sql`select p.fdv from user_profiles up join dict_profiles p on p.id = up.dict_profile_id where up.user_id = ${anna.id}`,
    );
    expect(annaProfiles.map((p) => p.fdv)).toEqual(['Математика']);

    // The existing account: its empty organisation filled, its job title kept.
    const old = await userByEmail('old.teacher@example.com');
    expect(old).toMatchObject({ id: existing.id, organization: 'Гимназия № 1', job_title: 'Учитель', phone: '+7 (911) 000-00-01' });

    // The same person twice in the file is one account, the second row filling what the first left empty.
    const twice = await rows<{ id: number; middle_name: string; organization: string; phone: string }>(
      t.database.db,
      sql`select id, middle_name, organization, phone from users where lower(email) = 'twice@example.com'`,
    );
    expect(twice).toEqual([{ id: expect.any(Number), middle_name: 'Иванович', organization: 'Лицей', phone: '+7 (912) 000-11-22' }]);

    // Each new account and each merge is in the change log, by the system, with the file named.
    expect(await logCount()).toBe(logsBefore + 4);
    const [log] = await rows<{ user_id: number | null; diff: Record<string, { old: unknown; new: unknown }> }>(
      t.database.db,
      sql`select user_id, diff from change_logs where type = 'user' and entity_id = ${existing.id} order by id desc limit 1`,
    );
    expect(log.user_id).toBeNull();
    expect(log.diff.organization).toEqual({ old: null, new: 'Гимназия № 1' });
    expect(log.diff.reason).toEqual({ old: null, new: LogReasons.imported('old.csv') });

    // The trigram indexes are back without a pending list (migration 0014), for fast searches.
    const options = await rows<{ reloptions: string[] }>(t.database.db, sql`select reloptions from pg_class where relname like 'users_%_trgm_idx'`);
    expect(options.length).toBe(6);
    for (const o of options) expect(o.reloptions).toContain('fastupdate=off');

    const again = await importUsers(t.database.db, await readTable(oldCabinetCsv()), { fileName: 'old.csv', dryRun: false, actorId: null });
    expect(again.counts).toEqual({ new: 0, merged: 0, unchanged: 4, refused: 4 });
    expect(await logCount()).toBe(logsBefore + 4);
  });

  it('an imported account signs in with its old password, which is then re-hashed with ours', async () => {
    const login = (password: string) =>
      t.inject({ method: 'POST', url: '/login', payload: { email: 'anna.yolkina@example.com', password }, remoteAddress: '10.9.0.1' });
    expect((await login('wrong-one')).statusCode).toBe(401);
    expect((await userByEmail('anna.yolkina@example.com')).password).toBe(PHP_HASH);
    const ok = await login(PHP_PASSWORD);
    expect(ok.statusCode, ok.body).toBe(200);
    const after = await userByEmail('anna.yolkina@example.com');
    expect(after.password).toMatch(/^\$argon2id\$/);
    expect((await login(PHP_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a file without the required columns, naming them', async () => {
    const table = await readTable(Buffer.from('Имя;Телефон\nАнна;89123456789\n'));
    await expect(importUsers(t.database.db, table, { fileName: 'x.csv', dryRun: true, actorId: null })).rejects.toMatchObject({
      statusCode: 422,
      message: ImportMessages.missingColumns(['Фамилия', 'E-mail']),
    });
  });
});

describe('the import on the operators’ panel', () => {
  const upload = (content: Buffer, query = '', headers = op) => {
    const form = multipartForm({}, [{ field: 'file', filename: 'люди.csv', content, type: 'text/csv' }]);
    return t.inject({ method: 'POST', url: `/api/manager/user-imports${query}`, payload: form.payload, headers: { ...headers, ...form.headers } });
  };
  const until = async (id: string): Promise<UserImportState> => {
    for (;;) {
      const res = await t.inject({ method: 'GET', url: `/api/manager/user-imports/${id}`, headers: op });
      expect(res.statusCode, res.body).toBe(200);
      const state = (res.json() as { data: UserImportState }).data;
      if (state.status !== 'running') return state;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const csv = (lines: string[]) => Buffer.from(['Фамилия;Имя;E-mail;Телефон', ...lines].join('\n'));

  it('is for operators only', async () => {
    const client = await t.createUser();
    expect((await upload(csv(['А;Б;a@example.com;']), '?dry_run=1', await t.loginAs(client))).statusCode).toBe(403);
    expect((await upload(csv(['А;Б;a@example.com;']), '?dry_run=1', {})).statusCode).toBe(401);
  });

  it('previews a dry run, then imports with progress and an .xlsx report', async () => {
    const file = csv(['Панельная;Ольга;panel.olga@example.com;89110001122', 'Панельный;Олег;panel-bad;']);
    const dry = await upload(file, '?dry_run=1');
    expect(dry.statusCode, dry.body).toBe(202);
    const preview = await until(dry.json().data.id);
    expect(preview).toMatchObject({ dry_run: true, status: 'done', total: 2, processed: 2, counts: { new: 1, merged: 0, unchanged: 0, refused: 1 } });
    expect(preview.rows[1]).toMatchObject({ line: 3, outcome: 'refused', message: ImportMessages.badEmail('panel-bad') });
    expect(await userByEmail('panel.olga@example.com')).toBeUndefined();

    const real = await upload(file);
    expect(real.statusCode, real.body).toBe(202);
    const done = await until(real.json().data.id);
    expect(done.counts).toEqual({ new: 1, merged: 0, unchanged: 0, refused: 1 });
    const olga = await userByEmail('panel.olga@example.com');
    expect(olga.phone).toBe('+7 (911) 000-11-22');
    // The operator who imported is the author of the change.
    const [log] = await rows<{ user_id: number }>(t.database.db, sql`select user_id from change_logs where type = 'user' and entity_id = ${olga.id}`);
    expect(log.user_id).not.toBeNull();

    const report = await t.inject({ method: 'GET', url: `/api/manager/user-imports/${done.id}/report`, headers: op });
    expect(report.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(report.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).getCell(4).value).toBe('Итог');
    expect(sheet.getRow(2).getCell(4).value).toBe('Новый');
    expect(sheet.getRow(2).getCell(5).value).toBe(olga.id);
    expect(sheet.getRow(3).getCell(6).value).toBe(ImportMessages.badEmail('panel-bad'));
  });

  it('reads the file in a worker: an empty one is refused in Russian', async () => {
    const empty = await upload(Buffer.from('Фамилия;Имя;E-mail\n;;\n'));
    expect(empty.statusCode, empty.body).toBe(422);
    expect(empty.json().errors.file).toEqual([ImportMessages.emptyFile]);
  });

  it('lets an operator run one import or dry run at a time (429 in Russian for a second at once)', async () => {
    const file = csv(['Однаждова;Ольга;once.olga@example.com;']);
    const answers = await Promise.all([upload(file, '?dry_run=1'), upload(file, '?dry_run=1')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 429]);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json().message).toBe(UserImportMessages.ownRunning);
    const started = answers.find((a) => a.statusCode === 202)!;
    await until(started.json().data.id);
    // Once it is done, the next one is taken.
    const next = await upload(file, '?dry_run=1');
    expect(next.statusCode, next.body).toBe(202);
    await until(next.json().data.id);
  });

  it('answers in Russian for a missing file, missing columns and an unknown import', async () => {
    const none = await t.inject({ method: 'POST', url: '/api/manager/user-imports', payload: {}, headers: op });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.file).toEqual([UserImportMessages.fileRequired]);
    const columns = await upload(Buffer.from('Имя;Город\nА;Б\n'));
    expect(columns.statusCode).toBe(422);
    expect(columns.json().message).toBe(ImportMessages.missingColumns(['Фамилия', 'E-mail']));
    const unknown = await t.inject({ method: 'GET', url: `/api/manager/user-imports/${crypto.randomUUID()}`, headers: op });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(UserImportMessages.notFound);
  });
});
