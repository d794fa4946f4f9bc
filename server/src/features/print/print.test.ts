import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import PizZip from 'pizzip';
import { PrintMessages } from '@edu/domain/documents/print';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { multipartForm } from '../../../test/multipart.ts';
import { entries } from '../../db/schema/index.ts';
import { makeDocx } from '../../platform/converters/minimal-docx.ts';
import { OFFICE_MISSING } from '../../platform/converters/office-converter.ts';
import { rows } from '../../platform/db.ts';
import { signedFileUrl } from '../../platform/signed-links.ts';
import { docxText } from '../templates/docx.ts';
import { pdfText } from '../../../test/documents-fixtures.ts';

let t: TestApp;
let op: Record<string, string>;
let owner: { id: number };
let ownerH: Record<string, string>;
let otherH: Record<string, string>;
let certificateTemplate: number;
let seq = 0;

async function uploadTemplate(fields: Record<string, string | number>, content?: Buffer): Promise<number> {
  const form = multipartForm(fields, content ? [{ field: 'file', filename: 'tpl.docx', content }] : []);
  const res = await t.inject({ method: 'POST', url: '/api/template', headers: { ...op, ...form.headers }, payload: form.payload });
  expect(res.statusCode).toBe(201);
  return res.json().data.id;
}

async function makeEntry(serviceId: number, attrs: Partial<typeof entries.$inferInsert> = {}, userId = owner.id): Promise<number> {
  const [row] = await t.database.db
    .insert(entries)
    .values({ number: `P-${Date.now()}-${seq++}`, created_by: userId, service_id: serviceId, price: 1500, status: 3, ...attrs })
    .returning({ id: entries.id });
  return row.id;
}

/** Follows a print answer {url} like the print page does (no session needed for the signed link). */
async function fetchDocument(res: { json: () => { url: string } }) {
  const doc = await t.inject({ method: 'GET', url: res.json().url });
  expect(doc.statusCode).toBe(200);
  return doc;
}

beforeAll(async () => {
  t = await createTestApp({ officeConverters: 1 });
  op = await t.loginAs(await t.createUser({ role: 1 }));
  owner = await t.createUser({ last_name: 'Смирнова', first_name: 'Анна', middle_name: 'Сергеевна' });
  ownerH = await t.loginAs(owner);
  otherH = await t.loginAs(await t.createUser());
  certificateTemplate = await uploadTemplate(
    { title: 'Сертификат', dict_type_id: 1 },
    makeDocx([
      'СЕРТИФИКАТ',
      ['Настоящий сертификат выдан ${user.', 'fio_dative}'],
      'ФИО: ${user.fio}',
      '№ ${entry.certificate_number}',
      'за участие: ${service.title}',
      'Рег. номер: ${entry.registration_number}',
    ]),
  );
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe('print rules matrix: status x contract x registration number x template x role', () => {
  it('allows a certificate exactly when the spec does, for owner, operator, other users', async () => {
    const db = t.database.db;
    // Type 2 (webinar) needs no contract, type 3 (qualification) does; neither has a default template here.
    const services = {
      'no-contract+template': await makeService(db, { dict_type_id: 2, template_certificate_id: certificateTemplate, title: 'Вебинар с сертификатом' }),
      'contract+template': await makeService(db, {
        dict_type_id: 3,
        dict_subtype_id: 9,
        template_certificate_id: certificateTemplate,
        title: 'Курс с сертификатом',
      }),
      'no-contract': await makeService(db, { dict_type_id: 2, title: 'Вебинар без шаблона' }),
      contract: await makeService(db, { dict_type_id: 3, dict_subtype_id: 9, title: 'Курс без шаблона' }),
    };
    const results: string[] = [];
    for (const [label, service] of Object.entries(services)) {
      for (const status of [1, 2, 3]) {
        for (const reg of [null, '2026-0001']) {
          const id = await makeEntry(service.id, { status, registration_number: reg });
          const contract = label.startsWith('contract');
          const template = label.endsWith('template');
          const allowed = status === 3 && (!contract || reg !== null) && template;
          const asOwner = await t.inject({ method: 'GET', url: `/api/entry/${id}/print/certificate`, headers: ownerH });
          const ownerDocx = await t.inject({ method: 'GET', url: `/api/entry/${id}/print/certificate-docx`, headers: ownerH });
          const asOperator = await t.inject({ method: 'GET', url: `/api/entry/${id}/print/certificate-docx`, headers: op });
          const asOther = await t.inject({ method: 'GET', url: `/api/entry/${id}/print/certificate`, headers: otherH });
          results.push(
            `${label} s${status} ${reg ? 'reg' : '-'}: ${asOwner.statusCode} ${ownerDocx.statusCode} ${asOperator.statusCode} ${asOther.statusCode}`,
          );
          expect(asOwner.statusCode, `${label} s${status} ${reg}`).toBe(allowed ? 200 : 422);
          expect(asOperator.statusCode).toBe(allowed ? 200 : 422);
          expect(ownerDocx.statusCode).toBe(403);
          expect(ownerDocx.json().message).toBe(PrintMessages.operatorsOnly);
          expect(asOther.statusCode).toBe(404);
          // The entry itself offers exactly the prints the print page allows (the menu of My entries).
          const listedToOwner = (await t.inject({ method: 'GET', url: `/api/entry/${id}`, headers: ownerH })).json().data;
          const listedToOperator = (await t.inject({ method: 'GET', url: `/api/entry/${id}`, headers: op })).json().data;
          expect(listedToOwner.printable.includes('certificate')).toBe(allowed);
          expect(listedToOwner.can_print_certificate).toBe(allowed);
          expect(listedToOwner.printable).not.toContain('certificate-docx');
          expect(listedToOperator.printable.includes('certificate-docx')).toBe(allowed);
          expect(listedToOwner.printable.includes('contract')).toBe(false);
          if (!allowed) {
            const expected =
              status !== 3 ? PrintMessages.notDone : contract && !reg ? PrintMessages.needsRegistrationNumber : PrintMessages.noCertificateTemplate;
            // A client reads that the certificate comes later; the operator which template is missing (issue 19).
            expect(asOwner.json().message).toBe(expected === PrintMessages.noCertificateTemplate ? PrintMessages.certificateLater : expected);
            expect(asOperator.json().message).toBe(expected);
          } else {
            expect(asOwner.json().url).toMatch(/^\/api\/file\/signed\?t=[\w-]+\.[\w-]+$/);
          }
        }
      }
    }
    expect(results.filter((r) => r.includes(': 200 ')).length).toBe(3);
    expect((await t.inject({ method: 'GET', url: `/api/entry/999999/print/certificate`, headers: ownerH })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: `/api/entry/1/print/diploma`, headers: ownerH })).statusCode).toBe(422);
    expect((await t.inject({ method: 'GET', url: `/api/entry/1/print/certificate` })).statusCode).toBe(401);
  }, 120_000);

  it('prints publication certificates when paid and the publication approved or published', async () => {
    const service = await makeService(t.database.db, {
      dict_type_id: 5,
      dict_subtype_id: 5,
      is_publication: true,
      template_certificate_id: certificateTemplate,
      title: 'Интернет-публикация',
    });
    const check = async (entryStatus: number, publicationStatus: number) => {
      const id = await makeEntry(service.id, { status: entryStatus });
      const [p] = await rows<{ id: number }>(
        t.database.db,
        sql`insert into publications (title, created_by, status) values ('Статья', ${owner.id}, ${publicationStatus}) returning id`,
      );
      await t.database.db.execute(sql`insert into publication_entries (publication_id, entry_id) values (${p.id}, ${id})`);
      const status = (await t.inject({ method: 'GET', url: `/api/entry/${id}/print/certificate-docx`, headers: op })).statusCode;
      const listed = (await t.inject({ method: 'GET', url: `/api/entry/${id}`, headers: ownerH })).json().data;
      expect(listed.printable.includes('certificate')).toBe(status === 200);
      return status;
    };
    expect(await check(2, 2)).toBe(200);
    expect(await check(3, 4)).toBe(200);
    expect(await check(1, 2)).toBe(422);
    expect(await check(2, 1)).toBe(422);
    expect(await check(2, 0)).toBe(422);
  }, 60_000);
});

describe('certificate documents', () => {
  it('fills the .docx with the client data, no macro left, and gives the number once', async () => {
    const service = await makeService(t.database.db, { dict_type_id: 2, template_certificate_id: certificateTemplate, title: 'Вебинар «Цифровая школа»' });
    const id = await makeEntry(service.id);
    const first = await t.inject({ method: 'GET', url: `/api/entry/${id}/print/certificate-docx`, headers: op });
    const doc = await fetchDocument(first);
    expect(doc.headers['content-type']).toContain('officedocument.wordprocessingml');
    const text = docxText(doc.rawPayload);
    const [{ certificate_number }] = await rows<{ certificate_number: string }>(t.database.db, sql`select certificate_number from entries where id = ${id}`);
    expect(certificate_number).toMatch(/^[1-9]\d{11}$/);
    expect(text).toContain('Настоящий сертификат выдан Смирновой Анне Сергеевне');
    expect(text).toContain('ФИО: Смирнова Анна Сергеевна');
    expect(text).toContain(`№ ${certificate_number}`);
    expect(text).toContain('за участие: Вебинар «Цифровая школа»');
    expect(text).toContain('Рег. номер: ________________');
    expect(text).not.toContain('entry.registration_number');
    expect(text).not.toMatch(/\$\{|\{[a-z_]+\.[a-z_]+\}/);
    await t.inject({ method: 'GET', url: `/api/entry/${id}/print/certificate-docx`, headers: op });
    const [again] = await rows<{ certificate_number: string }>(t.database.db, sql`select certificate_number from entries where id = ${id}`);
    expect(again.certificate_number).toBe(certificate_number);
  });

  it('gives one number under concurrent first prints', async () => {
    const service = await makeService(t.database.db, { dict_type_id: 2, template_certificate_id: certificateTemplate });
    const id = await makeEntry(service.id);
    // Six operators at once (one account may have only PRINTS_PER_USER prints in flight).
    const operators = await Promise.all(Array.from({ length: 6 }, async () => t.loginAs(await t.createUser({ role: 1 }))));
    const answers = await Promise.all(operators.map((h) => t.inject({ method: 'GET', url: `/api/entry/${id}/print/certificate-docx`, headers: h })));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const docs = await Promise.all(answers.map((a) => fetchDocument(a)));
    const texts = new Set(docs.map((d) => docxText(d.rawPayload).match(/№ (\d{12})/)?.[1]));
    expect(texts.size).toBe(1);
  });

  it('prints a PDF whose text has the client name, and caches it until the inputs change', async () => {
    const service = await makeService(t.database.db, { dict_type_id: 2, template_certificate_id: certificateTemplate, title: 'Семинар по PDF' });
    const id = await makeEntry(service.id);
    const before = t.app.converters.office.converted;
    const res = await t.inject({ method: 'GET', url: `/api/entry/${id}/print/certificate`, headers: ownerH });
    expect(res.statusCode).toBe(200);
    const pdf = await fetchDocument(res);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain('inline');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Смирновой Анне Сергеевне');
    expect(text).toContain('Смирнова Анна Сергеевна');
    expect(text).toContain('Семинар по PDF');
    expect(t.app.converters.office.converted).toBe(before + 1);
    // The same inputs: from the cache, no conversion.
    await fetchDocument(await t.inject({ method: 'GET', url: `/api/entry/${id}/print/certificate`, headers: ownerH }));
    expect(t.app.converters.office.converted).toBe(before + 1);
    // A changed input (the operator corrects the dative form): a new document.
    await t.inject({ method: 'PUT', url: `/api/user/${owner.id}/name-forms`, headers: op, payload: { fio_dative: 'Смирновой Анне Сергеевне (испр.)' } });
    const changed = await fetchDocument(await t.inject({ method: 'GET', url: `/api/entry/${id}/print/certificate`, headers: ownerH }));
    expect(pdfText(changed.rawPayload)).toContain('(испр.)');
    expect(t.app.converters.office.converted).toBe(before + 2);
    await t.inject({ method: 'PUT', url: `/api/user/${owner.id}/name-forms`, headers: op, payload: { fio_dative: '' } });
  }, 60_000);

  it('lets operators set a unique 12-digit certificate number', async () => {
    const service = await makeService(t.database.db, { dict_type_id: 2 });
    const a = await makeEntry(service.id);
    const b = await makeEntry(service.id);
    const set = (id: number, n: string, h = op) =>
      t.inject({ method: 'PUT', url: `/api/entry/${id}/certificate-number`, headers: h, payload: { certificate_number: n } });
    expect((await set(a, '000000000777')).statusCode).toBe(200);
    const dup = await set(b, '000000000777');
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.certificate_number).toEqual([PrintMessages.certificateNumberTaken]);
    expect((await set(b, '12345')).json().errors.certificate_number).toEqual([PrintMessages.certificateNumberFormat]);
    expect((await set(b, '000000000778', ownerH)).statusCode).toBe(403);
  });
});

describe('signed links and private files', () => {
  it('refuses a tampered or expired link', async () => {
    const service = await makeService(t.database.db, { dict_type_id: 2, template_certificate_id: certificateTemplate });
    const id = await makeEntry(service.id);
    const res = await t.inject({ method: 'GET', url: `/api/entry/${id}/print/certificate-docx`, headers: op });
    const url = res.json().url as string;
    const [body, mac] = url.split('?t=').pop()!.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), k: 'ab/' + '0'.repeat(32) + '.pdf' })).toString(
      'base64url',
    );
    const signed = await t.inject({ method: 'GET', url });
    expect(signed.statusCode).toBe(200);
    expect(signed.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect((await t.inject({ method: 'GET', url: `/api/file/signed?t=${forged}.${mac}` })).statusCode).toBe(404);
    const expired = await signedFileUrl(t.database.db, { key: 'ab/' + 'c'.repeat(32) + '.pdf', name: 'x.pdf', mime: 'application/pdf' }, -1);
    expect((await t.inject({ method: 'GET', url: expired })).statusCode).toBe(404);
  });

  it('serves an uploaded file to its owner and operators only', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF');
    const file = await t.app.files.save(t.database.db, { userId: owner.id, name: 'Паспорт.pdf', mime: 'application/pdf', buffer: pdf, ext: 'pdf' });
    const url = `/api/file/${file.id}/download`;
    const got = await t.inject({ method: 'GET', url, headers: ownerH });
    expect(got.statusCode).toBe(200);
    // A user file is sandboxed (issue 29).
    expect(got.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect((await t.inject({ method: 'GET', url, headers: op })).rawPayload.toString()).toBe(pdf.toString());
    expect((await t.inject({ method: 'GET', url, headers: otherH })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url })).statusCode).toBe(401);
  });
});

describe('program, registration list, contract, consent', () => {
  it('prints an HTML program through Chromium and refuses when the service has none', async () => {
    const program = await uploadTemplate({
      title: 'Программа',
      dict_type_id: 2,
      content: '<h1>Программа курса «${service.title}»</h1><p>Объём: ${service.hours} ч.</p><p>Слушатель: ${user.fio}</p>',
    });
    const service = await makeService(t.database.db, {
      dict_type_id: 3,
      dict_subtype_id: 10,
      hours: 72,
      title: 'Курс «Наставничество»',
      template_program_id: program,
    });
    const id = await makeEntry(service.id, { status: 1 });
    const res = await t.inject({ method: 'GET', url: `/api/entry/${id}/print/program`, headers: ownerH });
    expect(res.statusCode).toBe(200);
    const text = pdfText((await fetchDocument(res)).rawPayload);
    expect(text).toContain('Программа курса «Курс «Наставничество»»');
    expect(text).toContain('Объём: 72 ч.');
    const none = await makeService(t.database.db, { dict_type_id: 2 });
    const noProgram = await t.inject({ method: 'GET', url: `/api/entry/${await makeEntry(none.id)}/print/program`, headers: ownerH });
    expect(noProgram.json().message).toBe(PrintMessages.programLater);
  }, 60_000);

  it("prints the service's registration list (template_participation_id), else the newest one", async () => {
    const regListOf = async (serviceId: number) => {
      const res = await t.inject({ method: 'GET', url: `/api/entry/${await makeEntry(serviceId, { status: 1 })}/print/registration-list`, headers: ownerH });
      return res.statusCode === 200 ? pdfText((await fetchDocument(res)).rawPayload) : res.json().message;
    };
    const bare = await makeService(t.database.db, { dict_type_id: 2, title: 'Семинар без листа' });
    expect(await regListOf(bare.id)).toBe(PrintMessages.regListLater);
    const chosen = await uploadTemplate({
      title: 'Лист семинара',
      dict_type_id: 3,
      content: '<h1>Лист регистрации (выбранный)</h1><p>${service.title}: ${user.fio}</p>',
    });
    await uploadTemplate({ title: 'Общий лист', dict_type_id: 3, content: '<h1>Лист регистрации (общий)</h1><p>${user.fio}</p>' });
    // Chosen in the service form (validated as a registration list there).
    const own = await makeService(t.database.db, { dict_type_id: 2, title: 'Семинар со своим листом', template_participation_id: chosen });
    const text = await regListOf(own.id);
    expect(text).toContain('Лист регистрации (выбранный)');
    expect(text).toContain('Семинар со своим листом: Смирнова Анна Сергеевна');
    // None chosen: the newest registration list.
    expect(await regListOf(bare.id)).toContain('Лист регистрации (общий)');
    // A choice deleted before deletes were refused while in use (decision 024) falls back too.
    expect((await t.inject({ method: 'DELETE', url: `/api/template/${chosen}`, headers: op })).statusCode).toBe(422);
    await t.database.db.execute(sql`update templates set deleted_at = now() where id = ${chosen}`);
    expect(await regListOf(own.id)).toContain('Лист регистрации (общий)');
  }, 60_000);

  it('prints the contract only for services that need one, and the consent for its user', async () => {
    const noContract = await t.inject({
      method: 'GET',
      url: `/api/entry/${await makeEntry((await makeService(t.database.db, { dict_type_id: 3 })).id, { status: 1 })}/print/contract`,
      headers: ownerH,
    });
    expect(noContract.json().message).toBe(PrintMessages.contractLater);
    await uploadTemplate(
      { title: 'Договор', dict_type_id: 7 },
      makeDocx(['ДОГОВОР № ${entry.number}', 'Заказчик: ${user.fio}', 'Стоимость: ${entry.price} (${entry.price_words})']),
    );
    const course = await makeService(t.database.db, { dict_type_id: 3, title: 'Курс по договору' });
    const entryId = await makeEntry(course.id, { status: 1, price: 12500 });
    const res = await t.inject({ method: 'GET', url: `/api/entry/${entryId}/print/contract`, headers: ownerH });
    expect(res.statusCode).toBe(200);
    const text = pdfText((await fetchDocument(res)).rawPayload);
    expect(text).toContain('Заказчик: Смирнова Анна Сергеевна');
    expect(text).toContain('Двенадцать тысяч пятьсот рублей 00 копеек');
    const webinar = await makeService(t.database.db, { dict_type_id: 2 });
    const notNeeded = await t.inject({ method: 'GET', url: `/api/entry/${await makeEntry(webinar.id)}/print/contract`, headers: ownerH });
    expect(notNeeded.json().message).toBe(PrintMessages.contractNotNeeded);

    const noConsent = await t.inject({ method: 'GET', url: `/api/user/${owner.id}/consent/print`, headers: ownerH });
    expect(noConsent.json().message).toBe(PrintMessages.consentLater);
    expect((await t.inject({ method: 'GET', url: `/api/user/${owner.id}/consent/print`, headers: op })).json().message).toBe(PrintMessages.noConsentTemplate);
    await uploadTemplate({ title: 'Согласие', dict_type_id: 6 }, makeDocx(['СОГЛАСИЕ', 'Я, ${user.fio}, даю согласие']));
    const consent = await t.inject({ method: 'GET', url: `/api/user/${owner.id}/consent/print`, headers: ownerH });
    expect(pdfText((await fetchDocument(consent)).rawPayload)).toContain('Я, Смирнова Анна Сергеевна, даю согласие');
    expect((await t.inject({ method: 'GET', url: `/api/user/${owner.id}/consent/print`, headers: otherH })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: `/api/user/${owner.id}/consent/print`, headers: op })).statusCode).toBe(200);
  }, 60_000);
});

describe('all certificates of a service as one zip', () => {
  it('runs as a durable job with progress and skips entries not printable yet', async () => {
    const service = await makeService(t.database.db, { dict_type_id: 2, template_certificate_id: certificateTemplate, title: 'Вебинар для архива' });
    const clients = [
      await t.createUser({ last_name: 'Алексеев' }),
      await t.createUser({ last_name: 'Борисова', first_name: 'Мария', middle_name: 'Ивановна' }),
      await t.createUser({ last_name: 'Васильев' }),
    ];
    for (const c of clients) await makeEntry(service.id, {}, c.id);
    await makeEntry(service.id, { status: 1 });
    expect((await t.inject({ method: 'POST', url: `/api/service/${service.id}/print-certificates`, headers: ownerH })).statusCode).toBe(403);
    const start = await t.inject({ method: 'POST', url: `/api/service/${service.id}/print-certificates`, headers: op });
    expect(start.statusCode).toBe(201);
    expect(start.json().message).toBe(PrintMessages.batchStarted);
    expect(start.json().data).toMatchObject({ status: 1, total: 3, done: 0, skipped: 1, url: null });
    await t.app.jobs.runDue();
    const batch = await t.inject({ method: 'GET', url: `/api/print-batch/${start.json().data.id}`, headers: op });
    expect(batch.json().data).toMatchObject({ status: 3, total: 3, done: 3 });
    const zip = await fetchDocument({ json: () => ({ url: batch.json().data.url }) });
    const names = Object.keys(new PizZip(zip.rawPayload).files).sort();
    expect(names).toHaveLength(3);
    expect(names[1]).toMatch(/^Борисова Мария Ивановна \d{12}\.pdf$/);
    expect(pdfText(new PizZip(zip.rawPayload).file(names[1])!.asNodeBuffer())).toContain('Борисовой Марии Ивановне');
    const empty = await makeService(t.database.db, { dict_type_id: 2 });
    expect((await t.inject({ method: 'POST', url: `/api/service/${empty.id}/print-certificates`, headers: op })).json().message).toBe(
      PrintMessages.batchNothing,
    );
  }, 120_000);
});

describe('without LibreOffice', () => {
  it('says clearly that the converter is absent', async () => {
    const bare = await createTestApp({ officeConverters: 0 });
    try {
      const h = await bare.loginAs(await bare.createUser({ role: 1 }));
      const client = await bare.createUser();
      const form = multipartForm({ title: 'С', dict_type_id: 1 }, [{ field: 'file', filename: 'c.docx', content: makeDocx(['${user.fio}']) }]);
      const tpl = await bare.inject({ method: 'POST', url: '/api/template', headers: { ...h, ...form.headers }, payload: form.payload });
      const service = await makeService(bare.database.db, { dict_type_id: 2, template_certificate_id: tpl.json().data.id });
      const [e] = await bare.database.db.insert(entries).values({ number: 'NO-LO-1', created_by: client.id, service_id: service.id, status: 3 }).returning();
      const res = await bare.inject({ method: 'GET', url: `/api/entry/${e.id}/print/certificate`, headers: h });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe(OFFICE_MISSING);
    } finally {
      await bare.close();
    }
  });
});
