import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { TemplateMessages } from '@edu/domain/templates/template';
import { FileMessages } from '@edu/domain/documents/files';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { multipartForm } from '../../../test/multipart.ts';
import { makeDocx } from '../../platform/converters/minimal-docx.ts';
import { rows } from '../../platform/db.ts';

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

function upload(fields: Record<string, string | number>, file?: { content: Buffer; filename?: string }, url = '/api/template', headers = op) {
  const form = multipartForm(fields, file ? [{ field: 'file', filename: file.filename ?? 'Сертификат.docx', content: file.content }] : []);
  return t.inject({ method: 'POST', url, headers: { ...headers, ...form.headers }, payload: form.payload });
}

describe('templates', () => {
  it('only operators reach templates', async () => {
    expect((await t.inject({ method: 'GET', url: '/api/template?dict_type_id=1', headers: user })).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: '/api/template?dict_type_id=1' })).statusCode).toBe(401);
  });

  it('stores a .docx certificate template, lists it by type and reports its macros (also split across runs)', async () => {
    const docx = makeDocx(['Сертификат', ['Выдан ${user.', 'fio_dative}'], '№ ${entry.certificate_number}']);
    const res = await upload({ title: 'Сертификат участника', dict_type_id: 1 }, { content: docx });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('Успешно сохранено!');
    const id = res.json().data.id as number;
    const one = await t.inject({ method: 'GET', url: `/api/template/${id}`, headers: op });
    expect(one.json().data.macros).toEqual(['user.fio_dative', 'entry.certificate_number']);
    expect(one.json().data.file.name).toBe('Сертификат.docx');
    const list = await t.inject({ method: 'GET', url: '/api/template?dict_type_id=1', headers: op });
    expect(list.json().data.map((x: { id: number }) => x.id)).toContain(id);
    expect(list.json().meta.total).toBeGreaterThanOrEqual(1);
    const other = await t.inject({ method: 'GET', url: '/api/template?dict_type_id=1&exceptType=1', headers: op });
    expect(other.json().data).toEqual([]);
    const file = await t.inject({ method: 'GET', url: `/api/template/${id}/file`, headers: op });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(Buffer.compare(file.rawPayload, docx)).toBe(0);
  });

  it('refuses a .docx with an unknown or unclosed macro, saying which', async () => {
    const unknown = await upload({ title: 'Плохой', dict_type_id: 1 }, { content: makeDocx(['${user.fio} ${user.shoe_size}']) });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.file).toEqual(['Неизвестные макросы: ${user.shoe_size}']);
    const unclosed = await upload({ title: 'Плохой', dict_type_id: 1 }, { content: makeDocx(['Выдан ${user.fio']) });
    expect(unclosed.statusCode).toBe(422);
    expect(unclosed.json().errors.file[0]).toMatch(/^Макрос не закрыт/);
  });

  it('checks uploads by content and size, never trusting the name', async () => {
    const pdfAsDocx = await upload({ title: 'PDF', dict_type_id: 1 }, { content: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF') });
    expect(pdfAsDocx.statusCode).toBe(422);
    expect(pdfAsDocx.json().errors.file).toEqual([FileMessages.docxType]);
    const text = await upload({ title: 'Текст', dict_type_id: 1 }, { content: Buffer.from('just text') });
    expect(text.json().errors.file).toEqual([FileMessages.docxType]);
    const zipNotDocx = await upload({ title: 'Zip', dict_type_id: 1 }, { content: Buffer.from('504b0506000000000000000000000000000000000000', 'hex') });
    expect(zipNotDocx.statusCode).toBe(422);
    const big = Buffer.concat([makeDocx(['x']), Buffer.alloc(10 * 1024 * 1024)]);
    const tooBig = await upload({ title: 'Большой', dict_type_id: 1 }, { content: big });
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().errors.file).toEqual([FileMessages.tooLarge]);
  });

  it('keeps path tricks in a file name out of the storage', async () => {
    const res = await upload({ title: 'Путь', dict_type_id: 7 }, { content: makeDocx(['Договор ${user.fio}']), filename: '../../../etc/passwd.docx' });
    expect(res.statusCode).toBe(201);
    const [file] = await rows<{ name: string; storage_key: string }>(
      t.database.db,
      sql`select f.name, f.storage_key from files f join templates tp on tp.file_id = f.id where tp.id = ${res.json().data.id}`,
    );
    expect(file.name).toBe('passwd.docx');
    expect(file.storage_key).toMatch(/^[a-f0-9]{2}\/[a-f0-9]{32}\.docx$/);
  });

  it('requires the fields of the form and a file for file types', async () => {
    const res = await upload({ title: '', dict_type_id: 1 });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('Заполните все обязательные поля!');
    expect(Object.keys(res.json().errors)).toContain('title');
    const noFile = await upload({ title: 'Без файла', dict_type_id: 6 });
    expect(noFile.json().errors.file).toEqual([TemplateMessages.fileRequired]);
  });

  it('saves HTML and rich-text templates, refusing unknown macros', async () => {
    const ok = await upload({ title: 'Программа', dict_type_id: 2, content: '<h1>${service.title}</h1><p>{user.fio}</p><style>p{color:red}</style>' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.macros).toEqual(['service.title']);
    const bad = await upload({ title: 'Уведомление', dict_type_id: 5, content: '<p>${user.nickname}</p>' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.content).toEqual(['Неизвестные макросы: ${user.nickname}']);
    const empty = await upload({ title: 'Пустая', dict_type_id: 4, content: '<p></p>' });
    expect(empty.json().errors.content).toBeDefined();
    // Update with _method=PUT keeps the id.
    const upd = await upload(
      { _method: 'PUT', title: 'Программа курса', dict_type_id: 2, content: '<p>${service.hours} ч.</p>' },
      undefined,
      `/api/template/${ok.json().data.id}`,
    );
    expect(upd.statusCode).toBe(200);
    expect(upd.json().data).toMatchObject({ id: ok.json().data.id, title: 'Программа курса', content: '<p>${service.hours} ч.</p>' });
  });

  it('sets a certificate template as the default of a service type and deletes it', async () => {
    const created = await upload({ title: 'По умолчанию', dict_type_id: 1 }, { content: makeDocx(['${user.fio}']) });
    const id = created.json().data.id as number;
    const res = await t.inject({ method: 'POST', url: `/api/template/${id}/set-as-default/3`, headers: op });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Шаблон успешно установлен по умолчанию!');
    expect(res.json().data.serviceTypeCertificateFor.map((x: { id: number }) => x.id)).toEqual([3]);
    expect((await t.inject({ method: 'POST', url: `/api/template/${id}/set-as-default/999`, headers: op })).statusCode).toBe(404);
    const program = await upload({ title: 'П', dict_type_id: 2, content: '<p>x</p>' });
    const notDefaultable = await t.inject({ method: 'POST', url: `/api/template/${program.json().data.id}/set-as-default/3`, headers: op });
    expect(notDefaultable.statusCode).toBe(422);
    expect((await t.inject({ method: 'POST', url: `/api/template/${id}/set-as-default/3`, headers: user })).statusCode).toBe(403);

    // In use as the type's default: refused, naming the type; nothing changes (issue 19: deleting it cleared every default).
    const refused = await t.inject({ method: 'DELETE', url: `/api/template/${id}`, headers: op });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(TemplateMessages.inUse([TemplateMessages.usedByTypes(['Курсы повышения квалификации'])]));
    expect(refused.json().errors).toEqual({ id: [TemplateMessages.usedByTypes(['Курсы повышения квалификации'])] });
    const [type] = await rows<{ template_certificate_id: number | null }>(
      t.database.db,
      sql`select template_certificate_id from dict_service_types where id = 3`,
    );
    expect(type.template_certificate_id).toBe(id);
    expect((await t.inject({ method: 'GET', url: `/api/template/${id}`, headers: op })).statusCode).toBe(200);
    // Another default for the type: then it can go.
    const other = (await upload({ title: 'Другой', dict_type_id: 1 }, { content: makeDocx(['${user.fio}']) })).json().data.id as number;
    expect((await t.inject({ method: 'POST', url: `/api/template/${other}/set-as-default/3`, headers: op })).statusCode).toBe(200);
    const del = await t.inject({ method: 'DELETE', url: `/api/template/${id}`, headers: op });
    expect(del.json().message).toBe('Успешно удалено');
    expect((await t.inject({ method: 'GET', url: `/api/template/${id}`, headers: op })).statusCode).toBe(404);
  });

  it('refuses to delete a template a service names, an event notifies with, or the only consent or contract', async () => {
    const db = t.database.db;
    const program = (await upload({ title: 'Программа семинара', dict_type_id: 2, content: '<p>${service.title}</p>' })).json().data.id as number;
    const titles = Array.from({ length: 12 }, (_, i) => `Семинар ${i + 1}`);
    for (const title of titles) await db.execute(sql`insert into services (title, dict_type_id, template_program_id) values (${title}, 6, ${program})`);
    const byServices = await t.inject({ method: 'DELETE', url: `/api/template/${program}`, headers: op });
    expect(byServices.statusCode).toBe(422);
    expect(byServices.json().errors.id).toEqual([TemplateMessages.usedByServices(titles.slice(0, 10), 12)]);
    expect(byServices.json().message).toContain('«Семинар 1»');
    expect(byServices.json().message).toContain('и ещё 2');
    // Deleted services do not hold it.
    await db.execute(sql`update services set deleted_at = now() where template_program_id = ${program}`);
    expect((await t.inject({ method: 'DELETE', url: `/api/template/${program}`, headers: op })).statusCode).toBe(200);

    const notice = (await upload({ title: 'Уведомление', dict_type_id: 5, content: '<p>${user.fio}</p>' })).json().data.id as number;
    await db.execute(sql`update dict_events set template_id = ${notice} where id = 2`);
    const byEvent = await t.inject({ method: 'DELETE', url: `/api/template/${notice}`, headers: op });
    expect(byEvent.statusCode).toBe(422);
    expect(byEvent.json().errors.id[0]).toMatch(/^В событиях: «.+»$/);

    const consent = (await upload({ title: 'Согласие', dict_type_id: 6 }, { content: makeDocx(['${user.fio}']) })).json().data.id as number;
    await db.execute(sql`update templates set deleted_at = now() where dict_type_id = 6 and id <> ${consent}`);
    const only = await t.inject({ method: 'DELETE', url: `/api/template/${consent}`, headers: op });
    expect(only.statusCode).toBe(422);
    expect(only.json().errors.id).toEqual([TemplateMessages.onlyConsent]);
    const newer = (await upload({ title: 'Согласие (новое)', dict_type_id: 6 }, { content: makeDocx(['${user.fio}']) })).json().data.id as number;
    expect((await t.inject({ method: 'DELETE', url: `/api/template/${consent}`, headers: op })).statusCode).toBe(200);
    expect((await t.inject({ method: 'DELETE', url: `/api/template/${newer}`, headers: op })).json().errors.id).toEqual([TemplateMessages.onlyConsent]);

    const contract = (await upload({ title: 'Договор', dict_type_id: 7 }, { content: makeDocx(['${user.fio}']) })).json().data.id as number;
    await db.execute(sql`update templates set deleted_at = now() where dict_type_id = 7 and id <> ${contract}`);
    expect((await t.inject({ method: 'DELETE', url: `/api/template/${contract}`, headers: op })).json().errors.id).toEqual([TemplateMessages.onlyContract]);
  });

  it('shows the operator which services lack which template (GET /api/template/missing)', async () => {
    const db = t.database.db;
    expect((await t.inject({ method: 'GET', url: '/api/template/missing', headers: user })).statusCode).toBe(403);
    await db.execute(sql`update templates set deleted_at = now() where dict_type_id in (6, 7, 3)`);
    await db.execute(sql`update dict_service_types set template_certificate_id = null`);
    const [course] = await rows<{ id: number }>(
      db,
      sql`insert into services (title, dict_type_id, dict_subtype_id) values ('Курс без шаблонов', 3, 9) returning id`,
    );
    const cert = (await upload({ title: 'Сертификат вебинара', dict_type_id: 1 }, { content: makeDocx(['${user.fio}']) })).json().data.id as number;
    const [webinar] = await rows<{ id: number }>(
      db,
      sql`insert into services (title, dict_type_id, template_certificate_id) values ('Вебинар с сертификатом', 2, ${cert}) returning id`,
    );
    const before = (await t.inject({ method: 'GET', url: '/api/template/missing', headers: op })).json().data;
    expect(before.general.map((g: { dict_type_id: number }) => g.dict_type_id)).toEqual([6, 7, 3]);
    expect(before.services.find((s: { id: number }) => s.id === course.id)).toEqual({
      id: course.id,
      title: 'Курс без шаблонов',
      type: 'Курсы повышения квалификации',
      missing: [1, 7],
    });
    expect(before.services.find((s: { id: number }) => s.id === webinar.id)).toBeUndefined();
    expect(before.requisites).toContain('ИНН');
    // The type's default covers the course; a contract template covers the contract.
    const courseCert = (await upload({ title: 'Удостоверение', dict_type_id: 1 }, { content: makeDocx(['${user.fio}']) })).json().data.id as number;
    await t.inject({ method: 'POST', url: `/api/template/${courseCert}/set-as-default/3`, headers: op });
    await upload({ title: 'Договор курса', dict_type_id: 7 }, { content: makeDocx(['${user.fio}']) });
    const after = (await t.inject({ method: 'GET', url: '/api/template/missing', headers: op })).json().data;
    expect(after.services.find((s: { id: number }) => s.id === course.id)).toBeUndefined();
    expect(after.general.map((g: { dict_type_id: number }) => g.dict_type_id)).toEqual([6, 3]);
  });
});
