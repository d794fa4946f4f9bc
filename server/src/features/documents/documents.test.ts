import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages } from '@edu/domain/common/messages';
import { DocumentMessages, snilsChecksumValid } from '@edu/domain/documents/documents';
import { changeLogs, fileLinks, files, requestLogs } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { courseEntry, fillContractData, jpg, multipart, PDF, png, VALID_SNILS } from '../../../test/documents-fixtures.ts';

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  t = await createTestApp({ requestLog: true });
  dataDir = t.app.config.dataDir;
});
afterAll(() => t.close());

async function courseClient() {
  const u = await t.createUser();
  await courseEntry(t, u.id);
  return { u, h: await t.loginAs(u) };
}

function upload(userId: number, h: Record<string, string>, parts: Parameters<typeof multipart>[0]) {
  const body = multipart(parts);
  return t.inject({ method: 'POST', url: `/api/user/${userId}/upload-documents`, headers: { ...h, ...body.headers }, payload: body.payload });
}

describe('SNILS check number', () => {
  it('accepts valid numbers and refuses a wrong check number', () => {
    expect(snilsChecksumValid(VALID_SNILS)).toBe(true);
    expect(snilsChecksumValid('112-233-445 96')).toBe(false);
    // Sum 100 and 101 give 00.
    expect(snilsChecksumValid('001-326-679 00')).toBe(true);
    expect(snilsChecksumValid('001-001-998 77')).toBe(true); // issued before the rule
  });
});

describe('uploads', () => {
  it('stores pdf, jpg and png checked by content under random names, several per kind', async () => {
    const { u, h } = await courseClient();
    const res = await upload(u.id, h, [
      { field: 'passport[]', filename: 'стр 1.pdf', content: PDF, type: 'application/pdf' },
      { field: 'passport[]', filename: 'стр 2.jpg', content: await jpg(), type: 'image/jpeg' },
      { field: 'education', filename: 'diploma.png', content: await png(), type: 'image/png' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(DocumentMessages.filesUploaded);
    const docs = res.json().data;
    expect(docs.passport.map((f: { name: string }) => f.name)).toEqual(['стр 1.pdf', 'стр 2.jpg']);
    expect(docs.education).toHaveLength(1);
    expect(docs.list.map((d: { dict_document_type_id: number }) => d.dict_document_type_id)).toEqual([1, 1, 2]);
    const stored = await t.database.db.select().from(files).where(eq(files.user_id, u.id));
    expect(stored.map((f) => f.mime).sort()).toEqual(['application/pdf', 'image/jpeg', 'image/png']);
    for (const f of stored) {
      expect(f.storage_key).toMatch(/^[a-f0-9]{2}\/[a-f0-9]{32}\.(pdf|jpg|png)$/);
      expect(f.storage_key).not.toContain('стр');
    }
    // The file is served back byte for byte, to its owner.
    const pdf = docs.passport[0];
    const got = await t.inject({ method: 'GET', url: pdf.url, headers: h });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.equals(PDF)).toBe(true);
  });

  it('refuses wrong magic bytes whatever the name and declared type say, and stores nothing of that request', async () => {
    const { u, h } = await courseClient();
    const res = await upload(u.id, h, [
      { field: 'snils', filename: 'snils.pdf', content: await png(), type: 'application/pdf' }, // a png named .pdf is fine: it is a png
      { field: 'passport', filename: 'passport.pdf', content: Buffer.from('<html><script>alert(1)</script></html>'), type: 'application/pdf' },
      { field: 'education', filename: 'diploma.png', content: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), type: 'image/png' },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      message: DocumentMessages.fileType,
      errors: { passport: [DocumentMessages.fileType], education: [DocumentMessages.fileType] },
    });
    expect(res.json().errors.snils).toBeUndefined();
    expect(await t.database.db.select().from(files).where(eq(files.user_id, u.id))).toHaveLength(0);
  });

  it('refuses a file over 10 MB, an empty upload and unknown fields', async () => {
    const { u, h } = await courseClient();
    const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024, 32)]);
    const tooBig = await upload(u.id, h, [{ field: 'passport', filename: 'big.pdf', content: big, type: 'application/pdf' }]);
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().errors.passport).toEqual([DocumentMessages.fileTooLarge]);
    const empty = await upload(u.id, h, [{ field: 'note', content: 'just text' }]);
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.file).toEqual([DocumentMessages.noFile]);
    const unknown = await upload(u.id, h, [{ field: 'avatar', filename: 'a.pdf', content: PDF, type: 'application/pdf' }]);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.avatar).toEqual([DocumentMessages.unknownField]);
    const notMultipart = await t.inject({ method: 'POST', url: `/api/user/${u.id}/upload-documents`, headers: h, payload: { passport: 'x' } });
    expect(notMultipart.statusCode).toBe(422);
  });

  it('never uses the name as a path: traversal names are only labels', async () => {
    const { u, h } = await courseClient();
    const res = await upload(u.id, h, [
      { field: 'other', filename: '../../../../etc/passwd.pdf', content: PDF, type: 'application/pdf' },
      { field: 'other', filename: '..\\..\\boot.ini.png', content: await png(), type: 'image/png' },
    ]);
    expect(res.statusCode).toBe(200);
    const names = res.json().data.other.map((f: { name: string }) => f.name);
    expect(names).toEqual(['passwd.pdf', 'boot.ini.png']);
    const stored = await t.database.db.select().from(files).where(eq(files.user_id, u.id));
    for (const f of stored) {
      const full = path.join(dataDir, 'files', f.storage_key);
      expect(full.startsWith(path.join(dataDir, 'files'))).toBe(true);
      expect((await fs.readFile(full)).length).toBe(f.size);
    }
    // A path-like id is not a route to the disk.
    expect((await t.inject({ method: 'GET', url: '/api/file/..%2F..%2Fetc%2Fpasswd', headers: h })).statusCode).toBe(422);
  });

  it("refuses another user's files; operators may read them; guests of no session get 401", async () => {
    const { u, h } = await courseClient();
    const res = await upload(u.id, h, [{ field: 'passport', filename: 'p.pdf', content: PDF, type: 'application/pdf' }]);
    const fileUrl = res.json().data.passport[0].url as string;
    const other = await t.createUser();
    await courseEntry(t, other.id);
    const oh = await t.loginAs(other);
    expect((await t.inject({ method: 'GET', url: fileUrl, headers: oh })).statusCode).toBe(404);
    expect((await t.inject({ method: 'DELETE', url: fileUrl, headers: oh })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: `/api/user/${u.id}/documents`, headers: oh })).statusCode).toBe(404);
    expect((await upload(u.id, oh, [{ field: 'other', filename: 'x.pdf', content: PDF, type: 'application/pdf' }])).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: fileUrl })).statusCode).toBe(401);
    const op = await t.createUser({ role: 1 });
    const got = await t.inject({ method: 'GET', url: fileUrl, headers: await t.loginAs(op) });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(PDF)).toBe(true);
    // A user file is sandboxed: a PDF that is also HTML loads and runs nothing (issue 29).
    expect(got.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(got.headers['x-content-type-options']).toBe('nosniff');
  });

  it('deletes own document files, which then are gone', async () => {
    const { u, h } = await courseClient();
    const res = await upload(u.id, h, [{ field: 'other', filename: 'x.pdf', content: PDF, type: 'application/pdf' }]);
    const f = res.json().data.other[0];
    const del = await t.inject({ method: 'DELETE', url: f.url, headers: h });
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe('Успешно удалено');
    expect((await t.inject({ method: 'GET', url: f.url, headers: h })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: `/api/user/${u.id}/documents`, headers: h })).json().data.other).toEqual([]);
  });

  it('is only for clients of courses: "Загрузка документов доступна только записавшимся на курсы"', async () => {
    const u = await t.createUser();
    await courseEntry(t, u.id, { typeId: 1 }); // a type that needs no contract
    const h = await t.loginAs(u);
    const res = await upload(u.id, h, [{ field: 'passport', filename: 'p.pdf', content: PDF, type: 'application/pdf' }]);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(DocumentMessages.onlyForCourses);
    const pass = await t.inject({
      method: 'POST',
      url: '/api/identity-document',
      headers: h,
      payload: { number: '4010 123456', date: '2015-06-01', issued_by: 'УФМС' },
    });
    expect(pass.json().message).toBe(DocumentMessages.onlyForCourses);
    const me = (await t.inject({ method: 'GET', url: '/api/get', headers: h })).json();
    expect(me).toMatchObject({ is_documents_upload_allowed: false, is_contract_allowed: false });
  });
});

describe('passport', () => {
  it('checks the number mask, the date and issued_by', async () => {
    const { h } = await courseClient();
    const res = await t.inject({
      method: 'POST',
      url: '/api/identity-document',
      headers: h,
      payload: { number: '401012345', date: '2031-02-30', issued_by: ' ' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({
      number: [DocumentMessages.passportNumber],
      date: [DocumentMessages.badDate],
      issued_by: [Messages.fieldRequired],
    });
    const future = await t.inject({
      method: 'POST',
      url: '/api/identity-document',
      headers: h,
      payload: { number: '4010 123456', date: '2999-01-01', issued_by: 'УФМС' },
    });
    expect(future.json().errors.date).toEqual([DocumentMessages.futureDate]);
  });

  it('is locked once saved, also under two racing first saves; operators can correct it', async () => {
    const { u, h } = await courseClient();
    const body = { number: '4010 123456', date: '2015-06-01', issued_by: 'ТП № 1 УФМС' };
    const [a, b] = await Promise.all([
      t.inject({ method: 'POST', url: '/api/identity-document', headers: h, payload: body }),
      t.inject({ method: 'POST', url: '/api/identity-document', headers: h, payload: { ...body, number: '4010 654321' } }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 422]);
    const loser = a.statusCode === 422 ? a : b;
    expect(loser.json().message).toBe(DocumentMessages.passportLocked);
    const list = (await t.inject({ method: 'GET', url: '/api/identity-document', headers: h })).json().data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ user_id: u.id, locked: true, date: '2015-06-01', dict_document_type_id: 1 });
    const op = await t.createUser({ role: 1 });
    const oh = await t.loginAs(op);
    const fixed = await t.inject({ method: 'POST', url: '/api/identity-document', headers: oh, payload: { ...body, user_id: u.id, number: '4011 000001' } });
    expect(fixed.statusCode).toBe(201);
    expect(fixed.json().data).toMatchObject({ number: '4011 000001', locked: false });
    const other = await t.createUser();
    expect((await t.inject({ method: 'GET', url: `/api/identity-document?user_id=${u.id}`, headers: await t.loginAs(other) })).statusCode).toBe(404);
  });
});

describe('profile extras', () => {
  it('requires address, birthday and a SNILS with its check number; answers "Данные сохранены!"', async () => {
    const { u, h } = await courseClient();
    const bad = await t.inject({
      method: 'POST',
      url: `/api/user/${u.id}/profile-extras`,
      headers: h,
      payload: { address: '', birthday: '12.04.1985', snils: '112-233-445 96' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toMatchObject({
      address: [Messages.fieldRequired],
      birthday: [DocumentMessages.badDate],
      snils: [DocumentMessages.snilsChecksum],
    });
    const mask = await t.inject({
      method: 'POST',
      url: `/api/user/${u.id}/profile-extras`,
      headers: h,
      payload: { address: 'СПб', birthday: '1985-04-12', snils: '11223344595' },
    });
    expect(mask.json().errors.snils).toEqual([DocumentMessages.snilsFormat]);
    const ok = await t.inject({
      method: 'POST',
      url: `/api/user/${u.id}/profile-extras`,
      headers: h,
      payload: { address: 'СПб', birthday: '1985-04-12', snils: VALID_SNILS },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: DocumentMessages.dataSaved, data: { address: 'СПб', birthday: '1985-04-12', snils: VALID_SNILS } });
    const other = await t.createUser();
    expect((await t.inject({ method: 'GET', url: `/api/user/${u.id}/profile-extras`, headers: await t.loginAs(other) })).statusCode).toBe(404);
  });
});

describe('the wizard', () => {
  it('moves step by step only when the earlier steps are complete, with the spec messages', async () => {
    const { u, h } = await courseClient();
    const state0 = (await t.inject({ method: 'GET', url: `/api/user/${u.id}/contract-data`, headers: h })).json().data;
    expect(state0).toMatchObject({ contract_step: 1, is_documents_upload_allowed: true, is_contract_allowed: false, valid: false, max_step: 1 });
    expect(Object.keys(state0.missing).sort()).toEqual(
      [
        'address',
        'birthday',
        'snils',
        'passport.number',
        'passport.date',
        'passport.issued_by',
        'documents.passport',
        'documents.education',
        'documents.snils',
        'documents.consent',
      ].sort(),
    );

    const early = await t.inject({ method: 'POST', url: `/api/user/${u.id}/contract-step`, headers: h, payload: { contract_step: 2 } });
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe(DocumentMessages.fillAllForContract);
    // Each field its own message: the SNILS number never reads 'Загрузите документ' (issue 22).
    expect(early.json().errors).toMatchObject({
      snils: [Messages.fieldRequired],
      'documents.snils': [DocumentMessages.requiredDocument],
      'passport.number': [Messages.fieldRequired],
      'passport.date': [Messages.fieldRequired],
      'passport.issued_by': [Messages.fieldRequired],
    });

    await fillContractData(t, u, { consent: false });
    const state1 = (await t.inject({ method: 'GET', url: `/api/user/${u.id}/contract-data`, headers: h })).json().data;
    expect(state1).toMatchObject({
      valid: true,
      profile_valid: true,
      passport_valid: true,
      documents_valid: true,
      consent_valid: false,
      max_step: 2,
      is_contract_allowed: false,
    });
    const to2 = await t.inject({ method: 'POST', url: `/api/user/${u.id}/contract-step`, headers: h, payload: { contract_step: 2 } });
    expect(to2.statusCode).toBe(200);
    expect(to2.json().data.contract_step).toBe(2);
    expect((await t.inject({ method: 'POST', url: `/api/user/${u.id}/contract-step`, headers: h, payload: { contract_step: 3 } })).statusCode).toBe(422);

    await upload(u.id, h, [{ field: 'consent', filename: 'consent.jpg', content: await jpg(), type: 'image/jpeg' }]);
    const to3 = await t.inject({ method: 'POST', url: `/api/user/${u.id}/contract-step`, headers: h, payload: { contract_step: 3 } });
    expect(to3.statusCode).toBe(200);
    expect(to3.json().data).toMatchObject({ contract_step: 3, is_contract_allowed: true, missing: {} });
    const me = (await t.inject({ method: 'GET', url: '/api/get', headers: h })).json();
    expect(me).toMatchObject({ contract_step: 3, is_documents_upload_allowed: true, is_contract_allowed: true });
  });

  it('is_contract_allowed follows the data: deleting a required document takes it back', async () => {
    const { u } = await courseClient();
    const h = await fillContractData(t, u);
    expect((await t.inject({ method: 'GET', url: '/api/get', headers: h })).json().is_contract_allowed).toBe(true);
    const docs = (await t.inject({ method: 'GET', url: `/api/user/${u.id}/documents`, headers: h })).json().data;
    await t.inject({ method: 'DELETE', url: docs.education[0].url, headers: h });
    expect((await t.inject({ method: 'GET', url: '/api/get', headers: h })).json().is_contract_allowed).toBe(false);
    expect((await t.inject({ method: 'GET', url: `/api/user/${u.id}/contract-data`, headers: h })).json().data).toMatchObject({
      is_contract_allowed: false,
      max_step: 1,
    });
  });

  it('keeps passport and SNILS out of the request log and the change log', async () => {
    const { u } = await courseClient();
    const h = await fillContractData(t, u);
    await t.inject({ method: 'POST', url: '/api/identity-document', headers: h, payload: { number: '4010 999999', date: '2015-06-01', issued_by: 'УФМС' } });
    await t.inject({ method: 'GET', url: `/api/user/${u.id}/profile-extras`, headers: h });
    await new Promise((r) => setTimeout(r, 1200)); // the request log flushes every second
    const logged = JSON.stringify(await t.database.db.select().from(requestLogs));
    expect(logged).toContain('/api/identity-document');
    for (const secret of ['4010 123456', '4010 999999', VALID_SNILS, '112-233-445']) expect(logged).not.toContain(secret);
    const changes = JSON.stringify(await t.database.db.select().from(changeLogs));
    expect(changes).not.toContain('4010');
    expect(changes).not.toContain('112-233');
  });
});

describe('OpenAPI', () => {
  it('documents the contract data and contract routes', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of [
      '/api/identity-document',
      '/api/user/{id}/profile-extras',
      '/api/user/{id}/upload-documents',
      '/api/contract',
      '/api/contract/upload',
      '/api/contract/{id}/reject',
      '/api/entry/{id}/set-registration-number',
    ]) {
      expect(paths).toContain(p);
    }
  });
});

describe('short-lived file links', () => {
  it('open the file without the session header for a few minutes, only for the owner or an operator', async () => {
    const { u, h } = await courseClient();
    const res = await upload(u.id, h, [{ field: 'passport', filename: 'скан паспорта.pdf', content: PDF, type: 'application/pdf' }]);
    const fileUrl = res.json().data.passport[0].url as string;
    const other = await t.createUser();
    expect((await t.inject({ method: 'GET', url: `${fileUrl}/link`, headers: await t.loginAs(other) })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: `${fileUrl}/link` })).statusCode).toBe(401);
    const link = (await t.inject({ method: 'GET', url: `${fileUrl}/link`, headers: h })).json().url as string;
    expect(link).toMatch(/^\/api\/file\/link\/[A-Za-z0-9_-]{43}$/);
    const got = await t.inject({ method: 'GET', url: link });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['cache-control']).toBe('private, no-store');
    // The user file policy (nothing loads or runs, sandboxed) and no Referer are kept over the defaults.
    expect(got.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(got.headers['referrer-policy']).toBe('no-referrer');
    expect(String(got.headers['content-disposition'])).toContain(encodeURIComponent('скан паспорта.pdf'));
    expect(got.rawPayload.equals(PDF)).toBe(true);
    // A guessed token is nothing; an expired one neither; only the hash is stored.
    expect((await t.inject({ method: 'GET', url: `/api/file/link/${'A'.repeat(43)}` })).statusCode).toBe(404);
    const stored = await t.database.db.select().from(fileLinks);
    expect(JSON.stringify(stored)).not.toContain(link.split('/').pop());
    await t.database.db.update(fileLinks).set({ expires_at: new Date(Date.now() - 1000) });
    expect((await t.inject({ method: 'GET', url: link })).statusCode).toBe(404);
  });
});
