import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PERSONAL_DATA_FIELD } from '@edu/domain/documents/print';
import { createTestApp, type TestApp } from '../../../../test/helper.ts';
import { makeService } from '../../../../test/fixtures.ts';
import { entries, identityDocuments, packageEnrollments, publicationEntries, publications, servicePackages, users } from '../../schema/index.ts';
import { rows } from '../../../platform/db.ts';
import { saveRequisites } from '../../../features/macros/requisites.ts';
import { documentDeps } from '../../../features/print/certificate-batch.ts';
import { renderDocument } from '../../../features/print/render-document.ts';
import { seedShippedTemplates } from './shipped-templates.ts';
import { pdfText } from '../../../../test/documents-fixtures.ts';

// Issue 28: every shipped template, printed for services of every type and kind (dated, open dates,
// permanent, free, bought in a package, a publication), reads as a centre would sign it: no macro
// names or «[нет данных…]», no doubled quotes, no «в период открытые даты», a package's share of
// price explained. And a document that needs a client's personal data is refused (422) until they are filled.

let t: TestApp;
let seq = 0;
let client: { id: number };

/** What would make a signed document wrong, found in its text. */
function wordingProblems(text: string): string[] {
  const problems: string[] = [];
  if (text.includes('[нет данных')) problems.push('«[нет данных»');
  if (/\$\{|\b(user|org|entry|service|publication|contract|app|package)\.[a-z_]+\b/.test(text)) problems.push('a macro name');
  if (/»\s*»/.test(text)) problems.push('«»»»');
  if (/«\s*«/.test(text)) problems.push('««««');
  if (/в период\s+(открытые даты|постоянно|по индивидуальному)/.test(text)) problems.push('«в период» without dates');
  if (text.includes('открытые даты')) problems.push('«открытые даты»');
  return problems;
}

const templateId = async (where: ReturnType<typeof sql>) =>
  (await rows<{ id: number }>(t.database.db, sql`select id from templates where deleted_at is null and ${where} order by id limit 1`))[0].id;

async function render(templateId: number, entryId: number, name: string): Promise<string> {
  const doc = await renderDocument(documentDeps(t.app), { templateId, subject: { entryId }, output: 'pdf', name });
  const pdf = await t.app.files.getGenerated(doc.key);
  expect(pdf?.subarray(0, 5).toString(), name).toBe('%PDF-');
  if (process.env.PRINT_SAMPLES_DIR) {
    fs.mkdirSync(process.env.PRINT_SAMPLES_DIR, { recursive: true });
    fs.writeFileSync(path.join(process.env.PRINT_SAMPLES_DIR, `${name}.pdf`), pdf!);
  }
  return pdfText(pdf!);
}

const dayMs = 24 * 3600 * 1000;
const dated = () => ({ date_type: 1, begda: new Date(Date.now() - 10 * dayMs), endda: new Date(Date.now() - 8 * dayMs) });
const open = (days: number | null = 30) => ({ date_type: 3, begda: null, endda: null, days });
const permanent = () => ({ date_type: 2, begda: null, endda: null });

/** One service of each combination: type (dict_service_types id), title as operators write them, dates, price, package. */
const CASES = [
  { key: 'conference', type: 1, title: 'Всероссийская конференция «Современное образование: традиции и инновации»', ...dated(), price: 1500 },
  { key: 'webinar-open', type: 2, title: 'Вебинар "Формирующее оценивание"', ...open(null), price: 0 },
  { key: 'course-dated', type: 3, subtype: 10, title: 'Курсы повышения квалификации «ФГОС ООО: проектирование рабочей программы»', ...dated(), price: 12500 },
  { key: 'course-open', type: 3, subtype: 9, title: 'Курсы «Цифровые инструменты учителя»', ...open(30), price: 9900 },
  { key: 'course-package', type: 3, subtype: 9, title: 'Оказание первой помощи в образовательной организации', ...open(null), price: 4900, inPackage: true },
  { key: 'retraining-free', type: 4, subtype: 12, title: 'Переподготовка «Педагогика дополнительного образования «Новая школа»»', ...permanent(), price: 0 },
  { key: 'publication', type: 5, subtype: 5, title: 'Публикация в сетевом издании «Педагогический вестник»', ...permanent(), price: 300, publication: true },
  { key: 'seminar-open', type: 6, title: 'Семинар «Цифровая школа»', ...open(null), price: 800 },
  { key: 'master-class', type: 7, title: 'Мастер-класс «Нейропсихологические игры»', ...dated(), price: 0 },
  { key: 'round-table', type: 8, title: 'Круглый стол «Школа и семья»', ...open(null), price: 0 },
  { key: 'olympiad', type: 9, title: 'Олимпиада для педагогов', ...permanent(), price: 200 },
  { key: 'forum', type: 10, title: 'Педагогический форум «Учитель года»', ...dated(), price: 0 },
  { key: 'contest', type: 11, title: 'Конкурс «Мой лучший урок»', ...open(null), price: 500, inPackage: true },
  { key: 'internship', type: 12, title: 'Стажировка «Школа полного дня»', ...open(14), price: 7000 },
] as const;

beforeAll(async () => {
  t = await createTestApp({ officeConverters: 1 });
  const db = t.database.db;
  await seedShippedTemplates(db, t.app.files);
  await saveRequisites(db, {
    name: 'АНО ДПО «Учебный центр»',
    full_name: 'Автономная некоммерческая организация дополнительного профессионального образования «Учебный центр»',
    inn: '7800000000',
    address: '190000, г. Санкт-Петербург, ул. Примерная, д. 1',
    city: 'Санкт-Петербург',
    director: 'Смирнова Ольга Викторовна',
    director_position: 'Директор',
    // KPP, OGRN, bank, accounts, licence left empty: they print as lines to fill, never as names.
  });
  client = await t.createUser({
    last_name: 'Кузнецова',
    first_name: 'Мария',
    middle_name: 'Андреевна',
    birthday: '1986-05-14',
    address: '191000, г. Санкт-Петербург, Невский пр., д. 10, кв. 5',
    snils: '112-233-445 95',
  });
  await db.insert(identityDocuments).values({ user_id: client.id, number: '4010 123456', date: '2012-06-20', issued_by: 'ТП № 12 отдела УФМС' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('every shipped template, for services of every type and kind, reads as correct Russian (issue 28)', () => {
  it('certificates, contracts, programmes and registration lists', async () => {
    const db = t.database.db;
    const [pack] = await db.insert(servicePackages).values({ title: 'Пакет «Учитель начальных классов»', price: 14900 }).returning({ id: servicePackages.id });
    const [enrollment] = await db
      .insert(packageEnrollments)
      .values({ user_id: client.id, service_package_id: pack.id, title: 'Пакет «Учитель начальных классов»', price: 14900 })
      .returning({ id: packageEnrollments.id });
    const contractTpl = await templateId(sql`dict_type_id = 7`);
    const courseProgram = await templateId(sql`title = 'Учебно-тематический план курса'`);
    const eventProgram = await templateId(sql`title = 'Программа мероприятия'`);
    const regList = await templateId(sql`dict_type_id = 3`);
    const found: Record<string, string[]> = {};
    const texts: Record<string, string> = {};

    for (const c of CASES) {
      const { key, type, title, price, date_type, begda, endda } = c;
      const service = await makeService(db, {
        dict_type_id: type,
        dict_subtype_id: 'subtype' in c ? c.subtype : null,
        title,
        price,
        hours: type === 3 || type === 4 || type === 12 ? 72 : null,
        date_type,
        begda,
        endda,
        days: 'days' in c ? c.days : null,
      });
      const inPackage = 'inPackage' in c;
      const [entry] = await db
        .insert(entries)
        .values({
          number: `W-${key}`,
          created_by: client.id,
          service_id: service.id,
          // A package's price shared out over its services: what 4.1 printed before.
          price: inPackage ? 3585.36 : price,
          package_enrollment_id: inPackage ? enrollment.id : null,
          status: 3,
          created_at: new Date(Date.now() - 40 * dayMs),
          done_at: new Date(Date.now() - 2 * dayMs),
          certificate_number: `8000000000${String(seq++).padStart(2, '0')}`,
          registration_number: 'ПК-2026-017',
        })
        .returning({ id: entries.id });
      if ('publication' in c) {
        const [pub] = await db
          .insert(publications)
          .values({ title: 'Проект "Моя школа"', created_by: client.id, status: 2 })
          .returning({ id: publications.id });
        await db.insert(publicationEntries).values({ publication_id: pub.id, entry_id: entry.id });
      }
      const certificate = (await rows<{ id: number }>(db, sql`select template_certificate_id as id from dict_service_types where id = ${type}`))[0].id;
      const docs: Array<[string, number]> = [
        [`${key}-certificate`, certificate],
        [`${key}-program`, type === 3 || type === 4 ? courseProgram : eventProgram],
        [`${key}-registration-list`, regList],
      ];
      if (type === 3 || type === 4) docs.push([`${key}-contract`, contractTpl]);
      for (const [name, tpl] of docs) {
        const text = await render(tpl, entry.id, name);
        texts[name] = text;
        const problems = wordingProblems(text);
        if (problems.length) found[name] = problems;
      }
    }
    expect(found).toEqual({});

    // The sentences that read wrong before, as they read now.
    expect(texts['seminar-open-certificate']).toContain('за участие в семинаре «Цифровая школа»');
    expect(texts['conference-certificate']).toContain('за участие в конференции «Современное образование: традиции и инновации»');
    expect(texts['webinar-open-certificate']).toContain('за участие в вебинаре «Формирующее оценивание»');
    expect(texts['course-open-certificate']).toMatch(/в том, что в период с \d\d\.\d\d\.\d{4} по \d\d\.\d\d\.\d{4} пройдено обучение/);
    expect(texts['course-open-certificate']).toContain('программе повышения квалификации «Цифровые инструменты учителя»');
    expect(texts['course-dated-contract']).toContain('по дополнительной профессиональной программе «ФГОС ООО: проектирование рабочей программы»');
    expect(texts['course-open-contract']).toContain('Сроки обучения: в течение 30 дней по индивидуальному графику.');
    expect(texts['retraining-free-certificate']).toContain('«Педагогика дополнительного образования „Новая школа“»');
    expect(texts['retraining-free-contract']).toContain('4.1. Образовательная услуга по настоящему Договору оказывается бесплатно.');
    expect(texts['retraining-free-contract']).toContain('4.3. Плата за обучение с Заказчика не взимается.');
    expect(texts['retraining-free-contract']).toContain('а Заказчик обязуется пройти обучение по дополнительной профессиональной программе');
    expect(texts['course-dated-contract']).toContain('а Заказчик обязуется оплатить обучение по дополнительной профессиональной программе');
    expect(texts['publication-certificate']).toContain('«Проект „Моя школа“» в рамках услуги «Публикация в сетевом издании „Педагогический вестник“»');
    expect(texts['course-dated-contract']).toContain('составляет 12 500 руб. (Двенадцать тысяч пятьсот рублей 00 копеек)');
    // Clause 4.1 of a service bought in a package: the package and its price, not a share with kopecks.
    expect(texts['course-package-contract']).toContain(
      '4.1. Образовательная услуга по настоящему Договору оплачивается в составе пакета «Учитель начальных классов» стоимостью 14 900 руб. (Четырнадцать тысяч девятьсот рублей 00 копеек).',
    );
    expect(texts['course-package-contract']).not.toContain('3 585,36');
    // An empty requisite is a line to fill by hand.
    expect(texts['course-dated-contract']).toMatch(/ИНН 7800000000, КПП _{8,}/);
  }, 600_000);
});

describe('a document that needs personal data the client has not filled (issue 28)', () => {
  it('answers 422 naming them in Russian, to the client and the operator, and prints once they are filled', async () => {
    const db = t.database.db;
    const bare = await t.createUser({ last_name: 'Орлов', first_name: 'Пётр', middle_name: 'Ильич' });
    const bareH = await t.loginAs(bare);
    const op = await t.loginAs(await t.createUser({ role: 1 }));
    const course = await makeService(db, { dict_type_id: 3, dict_subtype_id: 10, title: 'Курсы «Цифровые инструменты учителя»', hours: 72, price: 12500 });
    const [entry] = await db
      .insert(entries)
      .values({ number: 'K-2026-0099', created_by: bare.id, service_id: course.id, price: 12500, status: 1 })
      .returning({ id: entries.id });
    const message = 'Для печати документа заполните: дата рождения, паспортные данные, адрес регистрации, СНИЛС';

    for (const headers of [bareH, op]) {
      const contract = await t.inject({ method: 'GET', url: `/api/entry/${entry.id}/print/contract`, headers });
      expect(contract.statusCode).toBe(422);
      expect(contract.json()).toEqual({ message, errors: { [PERSONAL_DATA_FIELD]: [message] } });
      // The consent asks for what it uses (no SNILS).
      const consent = await t.inject({ method: 'GET', url: `/api/user/${bare.id}/consent/print`, headers });
      expect(consent.statusCode).toBe(422);
      expect(consent.json().message).toBe('Для печати документа заполните: дата рождения, паспортные данные, адрес регистрации');
    }
    // A registration list needs none of them: it prints.
    expect((await t.inject({ method: 'GET', url: `/api/entry/${entry.id}/print/registration-list`, headers: bareH })).statusCode).toBe(200);

    await db
      .update(users)
      .set({ birthday: '1979-03-02', snils: '112-233-445 95' })
      .where(sql`id = ${bare.id}`);
    const still = await t.inject({ method: 'GET', url: `/api/entry/${entry.id}/print/contract`, headers: bareH });
    expect(still.json().message).toBe('Для печати документа заполните: паспортные данные, адрес регистрации');

    await db
      .update(users)
      .set({ address: '190000, г. Санкт-Петербург, ул. Садовая, д. 2' })
      .where(sql`id = ${bare.id}`);
    await db.insert(identityDocuments).values({ user_id: bare.id, number: '4011 654321', date: '2015-01-10', issued_by: 'ГУ МВД' });
    const printed = await t.inject({ method: 'GET', url: `/api/entry/${entry.id}/print/contract`, headers: bareH });
    expect(printed.statusCode).toBe(200);
  }, 120_000);
});
