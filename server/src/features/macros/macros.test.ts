import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { entries, identityDocuments } from '../../db/schema/index.ts';
import { rows } from '../../platform/db.ts';
import { macrosesData } from '../../db/seed/dictionaries-data.ts';
import { MACRO_NAMES, malformedMacros, unknownMacros } from './macro-catalogue.ts';
import { commonMacroValues, macroValues, userMacroValuesMany } from './macro-values.ts';
import { BLANK_LINE, renderMacros } from './render-macros.ts';
import { saveRequisites } from './requisites.ts';
import { quoted, quotedName } from './russian-words.ts';
import { missingPersonalData } from './personal-data.ts';

describe('titles in quotes (issue 28)', () => {
  it('never doubles quotes: a quoted title keeps its own, inner quotes become „…“', () => {
    expect(quoted('Цифровая школа')).toBe('«Цифровая школа»');
    expect(quoted('«Цифровая школа»')).toBe('«Цифровая школа»');
    expect(quoted('Семинар «Цифровая школа»')).toBe('«Семинар „Цифровая школа“»');
    expect(quoted('Семинар "Цифровая школа"')).toBe('«Семинар „Цифровая школа“»');
    expect(quoted('«Школа» и «Семья»')).toBe('«„Школа“ и „Семья“»');
  });
  it('drops the kind words in front of a quoted name, for sentences that name the kind', () => {
    expect(quotedName('Семинар «Цифровая школа»')).toBe('«Цифровая школа»');
    expect(quotedName('Курсы повышения квалификации «ФГОС ООО: проектирование рабочей программы»')).toBe('«ФГОС ООО: проектирование рабочей программы»');
    expect(quotedName('Всероссийская конференция «Современное образование: традиции и инновации»')).toBe('«Современное образование: традиции и инновации»');
    expect(quotedName('Курсы «Школа «Лидер»»')).toBe('«Школа „Лидер“»');
    // Not a kind word in front, or the quotes are not the whole rest: the title whole.
    expect(quotedName('Пакет «Учитель»')).toBe('«Учитель»');
    expect(quotedName('Школа «Учитель»')).toBe('«Школа „Учитель“»');
    expect(quotedName('Семинар «Школа» для родителей')).toBe('«Семинар „Школа“ для родителей»');
    expect(quotedName('Цифровые инструменты учителя')).toBe('«Цифровые инструменты учителя»');
  });
  it('names missing personal data once each, in Russian', () => {
    const used = ['user.fio', 'user.passport', 'user.passport_date', 'user.birthday'];
    expect(missingPersonalData(used, { 'user.fio': 'И' })).toEqual(['дата рождения', 'паспортные данные']);
    expect(missingPersonalData(used, { 'user.passport': '1', 'user.passport_date': '2', 'user.birthday': '3' })).toEqual([]);
  });
});

describe('renderMacros', () => {
  it('fills ${name} and the older {name}, escaping HTML', () => {
    const out = renderMacros('<p>${user.fio}, {entry.number}</p>', { 'user.fio': 'Иванов <b>', 'entry.number': '2611-0001' }, { escape: 'html' });
    expect(out).toBe('<p>Иванов &lt;b&gt;, 2611-0001</p>');
  });
  it('keeps plain text unescaped with escape none', () => {
    expect(renderMacros('${user.fio} & Co', { 'user.fio': 'A&B' }, { escape: 'none' })).toBe('A&B & Co');
  });
  it('prints a blank line to fill by hand for a missing value (never the macro name), or keeps the macro', () => {
    expect(renderMacros('ИНН: ${org.inn}', {}, { escape: 'html', missing: 'blank' })).toBe(`ИНН: ${BLANK_LINE}`);
    expect(renderMacros('СНИЛС: ${user.snils}', {}, { escape: 'none' })).toBe('СНИЛС: ${user.snils}');
  });
  it('leaves braces that are not macros alone', () => {
    const css = '<style>p{color:red} .a{margin}</style>';
    expect(renderMacros(css, {}, { escape: 'html', missing: 'blank' })).toBe(css);
  });
});

describe('catalogue', () => {
  it('finds unknown and malformed macros', () => {
    expect(unknownMacros('${user.fio} ${user.nope} ${user.nope} {other.thing}')).toEqual(['user.nope']);
    expect(malformedMacros('${user fio} ${user.fio} ${user.')).toEqual(['${user fio}', '${user.']);
  });
  it('every catalogue entry is written as ${name}', () => {
    for (const m of macrosesData) expect(m.fdv).toMatch(/^\$\{[a-z_]+(\.[a-z_]+)?\}$/);
    expect(MACRO_NAMES.size).toBe(macrosesData.length);
  });
});

describe('macroValues', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('fills every macro of the catalogue for an entry with a complete client, except the password', async () => {
    const db = t.database.db;
    const user = await t.createUser({
      last_name: 'Смирнова',
      first_name: 'Анна',
      middle_name: 'Сергеевна',
      address: 'г. Санкт-Петербург, ул. Садовая, д. 1',
      birthday: '1985-04-12',
      snils: '112-233-445 95',
      region: 'Санкт-Петербург',
    });
    await db.insert(identityDocuments).values({ user_id: user.id, number: '4010 123456', date: '2015-06-20', issued_by: 'ТП УФМС России' });
    const service = await makeService(db, {
      title: 'Курс «Цифровая школа»',
      dict_type_id: 3,
      dict_subtype_id: 10,
      hours: 72,
      days: 12,
      price: 12500,
      sections: ['Поток 1'],
    });
    await db.execute(sql`insert into leadings (fio) values ('Ведущий Тестовый') on conflict do nothing`);
    const [leading] = await rows<{ id: number }>(db, sql`select id from leadings where fio = 'Ведущий Тестовый' limit 1`);
    await db.execute(sql`insert into service_leadings (service_id, leading_id) values (${service.id}, ${leading.id})`);
    const [entry] = await db
      .insert(entries)
      .values({
        number: 'T-0001',
        created_by: user.id,
        service_id: service.id,
        section_id: service.sectionIds[0],
        price: 12500,
        status: 3,
        certificate_number: '123456789012',
        registration_number: '2026-0001',
        done_at: new Date(),
      })
      .returning();
    const [pub] = await rows<{ id: number }>(
      db,
      sql`insert into publications (title, url, manager_comment, created_by, status) values ('Статья', 'https://example.ru/a', 'Хорошо', ${user.id}, 2) returning id`,
    );
    await db.execute(sql`insert into publication_entries (publication_id, entry_id) values (${pub.id}, ${entry.id})`);
    await db.execute(
      sql`insert into contracts (entry_id, user_id, service_id, status, comment) values (${entry.id}, ${user.id}, ${service.id}, 3, 'Нет подписи')`,
    );
    await saveRequisites(db, {
      name: 'АНО «Центр»',
      full_name: 'Автономная некоммерческая организация «Центр»',
      inn: '7801234567',
      kpp: '780101001',
      ogrn: '1127800000000',
      address: 'Санкт-Петербург, Невский пр., 1',
      city: 'Санкт-Петербург',
      phone: '+7 (812) 000-00-00',
      email: 'info@example.ru',
      bank: 'ПАО Банк',
      bik: '044030000',
      account: '40703810000000000000',
      corr_account: '30101810000000000000',
      director: 'Петров П. П.',
      director_position: 'Директор',
      license: '№ 1234 от 01.01.2020',
    });

    const values = await macroValues(db, { entryId: entry.id });
    const unfilled = [...MACRO_NAMES].filter((n) => !(n in values));
    // The password and the summaries of the event letters (issue 13) are given by the one who sends.
    expect(unfilled).toEqual([
      // A certificate's verification code, address and QR code are given by its print (decision 039).
      'cert.qr',
      'cert.code',
      'cert.url',
      'password',
      'package.title',
      'package.entries',
      'entry.summary',
      'payment.summary',
      'refund.sum',
      'refund.summary',
      'refund.reason',
      'payment.canceled_summary',
      // Only for an entry bought in a package.
      'entry.package_title',
      'entry.package_price',
      'package.name_quoted',
    ]);
    expect(values['user.fio']).toBe('Смирнова Анна Сергеевна');
    expect(values['user.fio_dative']).toBe('Смирновой Анне Сергеевне');
    expect(values['user.fio_short']).toBe('Смирнова А. С.');
    expect(values['user.gender']).toBe('женский');
    expect(values['user.birthday']).toBe('12.04.1985');
    expect(values['user.passport']).toBe('4010 123456');
    expect(values['user.passport_date']).toBe('20.06.2015');
    expect(values['entry.price']).toBe('12 500');
    expect(values['entry.price_words']).toBe('Двенадцать тысяч пятьсот рублей 00 копеек');
    expect(values['service.hours']).toBe('72');
    expect(values['service.leadings']).toBe('Ведущий Тестовый');
    expect(values['contract.status']).toBe('Отклонён');
    expect(values['org.inn']).toBe('7801234567');

    expect((await macroValues(db, { userId: user.id }, { password: 'x1' })).password).toBe('x1');

    // Mass letters read many users at once (issue 28): the same user.* and org.*/app.* values, in two reads.
    const one = await macroValues(db, { userId: user.id });
    const other = await t.createUser({ last_name: 'Ким', first_name: 'Лев', middle_name: '' });
    const many = await userMacroValuesMany(db, [user.id, other.id, 2_000_000_000]);
    const common = await commonMacroValues(db);
    expect({ ...many.get(user.id), ...common }).toEqual(one);
    expect(many.get(other.id)).toMatchObject({ 'user.fio': 'Ким Лев', 'user.first_name': 'Лев' });
    expect(many.has(2_000_000_000)).toBe(false);
  });

  it('uses the stored dative form an operator corrected', async () => {
    const user = await t.createUser({ last_name: 'Гёте', first_name: 'Иоганн', middle_name: 'Вольфгангович', fio_dative: 'Гёте Иоганну Вольфганговичу' });
    const values = await macroValues(t.database.db, { userId: user.id });
    expect(values['user.fio_dative']).toBe('Гёте Иоганну Вольфганговичу');
    expect(values['user.last_name_dative']).toBe('Гёте');
    expect(values['user.gender']).toBe('мужской');
  });
});

describe('macro routes', () => {
  let t: TestApp;
  let op: Record<string, string>;
  let user: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp({ officeConverters: 0 });
    op = await t.loginAs(await t.createUser({ role: 1 }));
    user = await t.loginAs(await t.createUser());
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the catalogue by category to operators only', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/macros', headers: op });
    expect(res.statusCode).toBe(200);
    const categories = res.json().data as { id: number; fdv: string; macros: { fdv: string }[] }[];
    expect(categories.map((c) => c.fdv)).toEqual(['Пользователь', 'Заявка', 'Услуга', 'Публикация', 'Договор', 'Система']);
    expect(categories[0].macros.map((m) => m.fdv)).toContain('${user.fio_dative}');
    expect((await t.inject({ method: 'GET', url: '/api/macros', headers: user })).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: '/api/macros' })).statusCode).toBe(401);
  });

  it('keeps the requisites', async () => {
    const put = await t.inject({ method: 'PUT', url: '/api/settings/requisites', headers: op, payload: { inn: ' 7801234567 ', name: 'АНО «Центр»', bik: '' } });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toEqual({ inn: '7801234567', name: 'АНО «Центр»' });
    expect((await t.inject({ method: 'GET', url: '/api/settings/requisites', headers: op })).json().data.inn).toBe('7801234567');
    expect((await t.inject({ method: 'PUT', url: '/api/settings/requisites', headers: user, payload: { inn: '1' } })).statusCode).toBe(403);
    const tooLong = await t.inject({ method: 'PUT', url: '/api/settings/requisites', headers: op, payload: { name: 'x'.repeat(1001) } });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().errors.name).toBeDefined();
  });

  it('finds clients with their dative form and lets an operator correct it', async () => {
    const u = await t.createUser({ last_name: 'Шевчук', first_name: 'Любовь', middle_name: 'Андреевна' });
    const found = await t.inject({ method: 'GET', url: '/api/macros/name-forms?fio=Шевчук Люб', headers: op });
    // The library leaves 'Любовь' undeclined: the case the stored correction is for.
    expect(found.json().data).toEqual([
      expect.objectContaining({ id: u.id, fio: 'Шевчук Любовь Андреевна', computed: 'Шевчук Любовь Андреевне', fio_dative: null }),
    ]);
    const fix = await t.inject({ method: 'PUT', url: `/api/user/${u.id}/name-forms`, headers: op, payload: { fio_dative: 'Шевчук Любови Андреевне' } });
    expect(fix.json().message).toBe('Успешно сохранено!');
    expect((await t.inject({ method: 'GET', url: `/api/user/${u.id}/name-forms`, headers: op })).json().data.effective).toBe('Шевчук Любови Андреевне');
    expect((await t.inject({ method: 'PUT', url: `/api/user/${u.id}/name-forms`, headers: user, payload: { fio_dative: 'x' } })).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: '/api/macros/name-forms?fio=Ш', headers: op })).statusCode).toBe(422);
  });
});
