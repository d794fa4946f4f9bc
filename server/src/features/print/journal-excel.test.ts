import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUEST_EMAIL_DOMAIN } from '@edu/domain/users/manager-user';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { entries } from '../../db/schema/index.ts';
import { journalExport } from './journal-excel.ts';

let t: TestApp;
let operator: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ officeConverters: 0 });
  operator = await t.loginAs(await t.createUser({ role: 1, last_name: 'Операторова' }));
});
afterAll(() => t.close());

async function readXlsx(payload: Buffer): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  const input = new PassThrough();
  input.end(payload);
  await wb.xlsx.read(input);
  return wb.worksheets[0];
}

/** Row values as a plain array, 1-based cells made 0-based. */
const cells = (sheet: ExcelJS.Worksheet, n: number) => (sheet.getRow(n).values as unknown[]).slice(1);

describe('journal of a service as Excel', () => {
  it('gives operators the live entries of the service with their clients, and nobody else', async () => {
    const service = await makeService(t.database.db, { dict_type_id: 2, title: 'Семинар «Журнал»', sections: ['Секция А', 'Секция Б'] });
    const other = await makeService(t.database.db, { dict_type_id: 2, title: 'Другой семинар' });
    const anna = await t.createUser({
      last_name: 'Журналова',
      first_name: 'Анна',
      middle_name: 'Игоревна',
      organization: 'Гимназия № 5',
      job_title: 'Методист',
      region: 'Санкт-Петербург',
      email: 'anna@example.com',
      phone: '+7 (911) 123-45-67',
    });
    const guest = await t.createUser({
      role: 3,
      last_name: 'Гостев',
      first_name: 'Олег',
      middle_name: null,
      email: `g-1@${GUEST_EMAIL_DOMAIN}`,
      organization: null,
      job_title: null,
    });
    const deletedClient = await t.createUser({ last_name: 'Удалённая' });
    const stranger = await t.createUser({ last_name: 'Чужая' });
    const created = new Date('2026-03-05T10:00:00Z');
    await t.database.db.insert(entries).values([
      {
        number: 'J-0001',
        created_by: anna.id,
        service_id: service.id,
        section_id: service.sectionIds[1],
        price: 1500.5,
        status: 3,
        pay_type: 1,
        is_extramural: 1,
        certificate_number: '123456789012',
        registration_number: '2026-7',
        created_at: created,
      },
      {
        number: 'J-0002',
        created_by: guest.id,
        service_id: service.id,
        section_id: service.sectionIds[0],
        price: 0,
        status: 1,
        pay_type: 3,
        created_at: created,
      },
      { number: 'J-0003', created_by: deletedClient.id, service_id: service.id, price: 900, status: 2, deleted_at: new Date() },
      { number: 'J-0004', created_by: stranger.id, service_id: other.id, price: 700, status: 2 },
    ]);

    const link = await t.inject({ method: 'GET', url: `/api/service/${service.id}/journal/print-excel`, headers: operator });
    expect(link.statusCode).toBe(200);
    expect(link.json()).toEqual({ url: `/api/service/${service.id}/journal/excel` });
    const file = await t.inject({ method: 'GET', url: link.json().url, headers: operator });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(file.headers['content-disposition']).toContain(`journal-${service.id}-`);
    expect(file.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('Журнал Семинар')}`);

    const sheet = await readXlsx(file.rawPayload);
    // Dates are typed cells (shown dd.mm.yyyy): exceljs reads the Moscow day back as a Date at UTC midnight.
    const day = new Date('2026-03-05T00:00:00Z');
    expect(sheet.name).toBe('Журнал');
    expect(cells(sheet, 1)).toEqual(Object.values(journalExport(t.database.db, service.id).columns).map((c) => c.header));
    expect(cells(sheet, 1)).toEqual(
      expect.arrayContaining([
        'ФИО',
        'Организация',
        'Должность',
        'Регион',
        'E-mail',
        'Телефон',
        'Секция',
        'Участие',
        'Статус',
        'Цена, ₽',
        'Способ оплаты',
        '№ сертификата',
        'Дата заявки',
      ]),
    );
    // The header and the two live entries of this service: not the deleted one, not another service's.
    expect(sheet.rowCount).toBe(3);
    expect(cells(sheet, 2)).toEqual([
      1,
      'J-0001',
      'Журналова Анна Игоревна',
      'Гимназия № 5',
      'Методист',
      'Санкт-Петербург',
      'anna@example.com',
      '+7 (911) 123-45-67',
      'Секция Б',
      'Дистанционно',
      'Завершена',
      1500.5,
      'Банк',
      '123456789012',
      '2026-7',
      day,
    ]);
    // A guest: no e-mail shown (reserved address), blank cells for what is not filled.
    expect(cells(sheet, 3)).toEqual([
      2,
      'J-0002',
      'Гостев Олег',
      undefined,
      undefined,
      undefined,
      undefined,
      guest.phone,
      'Секция А',
      'Очно',
      'Не оплачена',
      0,
      'Онлайн',
      undefined,
      undefined,
      day,
    ]);
    expect(sheet.getRow(2).getCell(12).numFmt).toBe('#,##0.00');
    expect(sheet.getRow(2).getCell(16).numFmt).toBe('dd.mm.yyyy');
    const text = JSON.stringify([cells(sheet, 2), cells(sheet, 3)]);
    expect(text).not.toContain('Удалённая');
    expect(text).not.toContain('Чужая');
  });

  it('is empty but valid for a service without entries, and 404 for a missing or deleted service', async () => {
    const empty = await makeService(t.database.db, { dict_type_id: 2, title: 'Пустой семинар' });
    const file = await t.inject({ method: 'GET', url: `/api/service/${empty.id}/journal/excel`, headers: operator });
    expect(file.statusCode).toBe(200);
    const sheet = await readXlsx(file.rawPayload);
    expect(sheet.rowCount).toBe(1);
    expect((await t.inject({ method: 'GET', url: '/api/service/999999/journal/print-excel', headers: operator })).statusCode).toBe(404);
    const gone = await makeService(t.database.db, { dict_type_id: 2, deleted_at: new Date() });
    expect((await t.inject({ method: 'GET', url: `/api/service/${gone.id}/journal/excel`, headers: operator })).statusCode).toBe(404);
  });

  it('answers 401 without a session and 403 to users and guests', async () => {
    const service = await makeService(t.database.db, { dict_type_id: 2 });
    const user = await t.loginAs(await t.createUser());
    const guest = await t.loginAs(await t.createUser({ role: 3 }));
    for (const url of [`/api/service/${service.id}/journal/print-excel`, `/api/service/${service.id}/journal/excel`]) {
      expect((await t.inject({ method: 'GET', url })).statusCode).toBe(401);
      expect((await t.inject({ method: 'GET', url, headers: user })).statusCode).toBe(403);
      expect((await t.inject({ method: 'GET', url, headers: guest })).statusCode).toBe(403);
    }
  });
});
