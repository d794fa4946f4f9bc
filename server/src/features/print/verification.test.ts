import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import PizZip from 'pizzip';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { VERIFICATION_ALPHABET, VerificationMessages } from '@edu/domain/documents/verification';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { multipartForm } from '../../../test/multipart.ts';
import { entries, templates } from '../../db/schema/index.ts';
import { makeDocx } from '../../platform/converters/minimal-docx.ts';
import { rows } from '../../platform/db.ts';
import { loadConfig } from '../../platform/config.ts';
import { cancelEntryByRefund, returnEntryToUnpaid } from '../entries/entry-status.ts';
import { docxText } from '../templates/docx.ts';
import { VERIFY_LIMIT } from './routes.ts';

// Issue 33, capability 1 (decision 039): every printed certificate carries a verification code and
// a QR code of APP_URL/verify/<code>; anyone can check it; refunds, cancellations, deletions and
// operators revoke it.

const SHIPPED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../db/seed/templates');

let t: TestApp;
let op: Record<string, string>;
let operator: { id: number };
let owner: { id: number };
let ownerH: Record<string, string>;
let docxTemplate: number;
let shippedTemplate: number;
let htmlTemplate: number;
let seq = 0;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'edu-verify-'));

async function uploadTemplate(fields: Record<string, string | number>, content?: Buffer): Promise<number> {
  const form = multipartForm(fields, content ? [{ field: 'file', filename: 'tpl.docx', content }] : []);
  const res = await t.inject({ method: 'POST', url: '/api/template', headers: { ...op, ...form.headers }, payload: form.payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

async function certificateEntry(templateId: number, attrs: Partial<typeof entries.$inferInsert> = {}): Promise<number> {
  const service = await makeService(t.database.db, { dict_type_id: 1, title: `Конференция ${seq}`, template_certificate_id: templateId });
  const [row] = await t.database.db
    .insert(entries)
    .values({ number: `V-${Date.now()}-${seq++}`, created_by: owner.id, service_id: service.id, price: 1500, status: 3, ...attrs })
    .returning({ id: entries.id });
  return row.id;
}

async function print(entryId: number, kind: 'certificate' | 'certificate-docx', as?: Record<string, string>): Promise<Buffer> {
  // The .docx is operators' only; the client prints the PDF.
  const headers = as ?? (kind === 'certificate-docx' ? op : ownerH);
  const res = await t.inject({ method: 'GET', url: `/api/entry/${entryId}/print/${kind}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  const doc = await t.inject({ method: 'GET', url: res.json().url });
  expect(doc.statusCode).toBe(200);
  return doc.rawPayload;
}

/** The text of every QR code found in a PNG (jsQR reads one: the page has one). */
function decodePng(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
}

/** Renders the PDF's first page to PNG (pdftoppm, poppler-utils) and decodes its QR code. */
function decodePdf(pdf: Buffer): string | null {
  const file = path.join(tmp, `doc-${seq++}.pdf`);
  fs.writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', '-singlefile', file, file]);
  return decodePng(fs.readFileSync(`${file}.png`));
}

function pdfPages(pdf: Buffer): number {
  const file = path.join(tmp, `pages-${seq++}.pdf`);
  fs.writeFileSync(file, pdf);
  return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
}

const liveCode = async (entryId: number) =>
  (await rows<{ code: string }>(t.database.db, sql`select code from issued_documents where entry_id = ${entryId} and revoked_at is null`))[0]?.code;

const verify = (code: string, remoteAddress = '127.0.0.1') => t.inject({ method: 'GET', url: `/api/verify/${code}`, remoteAddress });

/** Opens the verification address the way a phone does after reading the QR code: its path, on the API. */
async function openVerificationUrl(url: string) {
  const prefix = `${loadConfig().appUrl}/verify/`;
  expect(url.startsWith(prefix)).toBe(true);
  const res = await verify(url.slice(prefix.length));
  expect(res.statusCode).toBe(200);
  return res.json();
}

beforeAll(async () => {
  t = await createTestApp({ officeConverters: 1 });
  operator = await t.createUser({ role: 1 });
  op = await t.loginAs(operator);
  owner = await t.createUser({ last_name: 'Смирнова', first_name: 'Анна', middle_name: 'Сергеевна', phone: '+79990001122' });
  ownerH = await t.loginAs(owner);
  docxTemplate = await uploadTemplate(
    { title: 'Сертификат участника', dict_type_id: 1 },
    makeDocx(['СЕРТИФИКАТ', 'ФИО: ${user.fio}', '№ ${entry.certificate_number}', 'QR: ${cert.qr} конец', 'Код проверки: ${cert.code}', 'Адрес: ${cert.url}']),
  );
  shippedTemplate = await uploadTemplate(
    { title: 'Сертификат участника конференции', dict_type_id: 1 },
    fs.readFileSync(path.join(SHIPPED, 'certificate-conference.docx')),
  );
  // Certificates are uploaded as .docx (templateEditor); an HTML certificate is one stored before
  // that rule or imported: the same macro draws the QR code as a picture there.
  [{ id: htmlTemplate }] = await t.database.db
    .insert(templates)
    .values({ title: 'Диплом участника (HTML)', dict_type_id: 1, content: '<h1>ДИПЛОМ</h1><p>${user.fio}</p><p>${cert.qr}</p><p>Код: ${cert.code}</p>' })
    .returning({ id: templates.id });
}, 180_000);
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('issuing', () => {
  it('puts the QR code of the verification address into the .docx and keeps the code on re-prints', async () => {
    const entryId = await certificateEntry(docxTemplate);
    const docx = await print(entryId, 'certificate-docx');
    const code = await liveCode(entryId);
    expect(code).toMatch(new RegExp(`^[${VERIFICATION_ALPHABET}]{12}$`));
    const text = docxText(docx);
    expect(text).toContain(`Код проверки: ${code}`);
    expect(text).toContain(`Адрес: ${loadConfig().appUrl}/verify/${code}`);
    expect(text).toContain('QR:  конец'); // the picture sits between the words, no marker left
    const zip = new PizZip(docx);
    const media = Object.keys(zip.files).filter((f) => f.startsWith('word/media/') && f.endsWith('.png'));
    expect(media).toHaveLength(1);
    expect(zip.file('word/_rels/document.xml.rels')!.asText()).toContain(`Target="${media[0].slice('word/'.length)}"`);
    expect(zip.file('[Content_Types].xml')!.asText()).toContain('Extension="png"');
    expect(decodePng(zip.file(media[0])!.asNodeBuffer())).toBe(`${loadConfig().appUrl}/verify/${code}`);

    // The PDF, an operator's print and the service's zip print the same document: one code.
    await print(entryId, 'certificate-docx', op);
    const [{ n }] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from issued_documents where entry_id = ${entryId}`);
    expect(n).toBe(1);
    expect(await liveCode(entryId)).toBe(code);
  }, 60_000);

  it('prints the shipped certificate on one page with a QR code that opens a valid verification', async () => {
    const entryId = await certificateEntry(shippedTemplate);
    const pdf = await print(entryId, 'certificate');
    expect(pdfPages(pdf)).toBe(1);
    const url = decodePdf(pdf);
    const code = await liveCode(entryId);
    expect(url).toBe(`${loadConfig().appUrl}/verify/${code}`);
    const answer = await openVerificationUrl(url!);
    expect(answer.valid).toBe(true);
    expect(answer.message).toBe('Документ действителен');
    const [e] = await rows<{ certificate_number: string }>(t.database.db, sql`select certificate_number from entries where id = ${entryId}`);
    // Only what the paper shows: no e-mail, phone, birthday, entry id or price.
    expect(Object.keys(answer.document).sort()).toEqual(['centre', 'code', 'date', 'fio', 'number', 'service', 'title']);
    expect(answer.document).toMatchObject({ code, fio: 'Смирнова Анна Сергеевна', number: e.certificate_number, title: 'Сертификат участника конференции' });
    expect(JSON.stringify(answer)).not.toContain('79990001122');
    // Re-printing (the cached PDF) keeps the code.
    await print(entryId, 'certificate');
    expect(await liveCode(entryId)).toBe(code);
  }, 120_000);

  it('draws the QR code of an HTML template as a picture (Chromium)', async () => {
    const entryId = await certificateEntry(htmlTemplate);
    const pdf = await print(entryId, 'certificate');
    const code = await liveCode(entryId);
    expect(decodePdf(pdf)).toBe(`${loadConfig().appUrl}/verify/${code}`);
  }, 120_000);

  it('answers the same for an unknown, a malformed and a revoked code', async () => {
    for (const code of ['ACDEFGHJKMNP', 'x', '1234567890ab', '..%2F..']) {
      const res = await verify(code);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ valid: false, message: 'Документ не найден / отозван', document: null });
    }
  });

  it('reads a code typed in lower case with dashes', async () => {
    const entryId = await certificateEntry(docxTemplate);
    await print(entryId, 'certificate-docx');
    const code = (await liveCode(entryId))!;
    const typed = `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`.toLowerCase();
    expect((await verify(typed)).json().valid).toBe(true);
  }, 60_000);
});

describe('revoking', () => {
  it('lets an operator see the codes of an entry and revoke one with a reason, logged', async () => {
    const entryId = await certificateEntry(docxTemplate);
    await print(entryId, 'certificate-docx');
    const code = (await liveCode(entryId))!;

    expect((await t.inject({ method: 'GET', url: `/api/entry/${entryId}/issued-documents`, headers: ownerH })).statusCode).toBe(403);
    const list = await t.inject({ method: 'GET', url: `/api/entry/${entryId}/issued-documents`, headers: op });
    expect(list.statusCode).toBe(200);
    const [doc] = list.json().data;
    expect(doc).toMatchObject({ entry_id: entryId, kind: 'certificate', code, revoked_at: null, url: `${loadConfig().appUrl}/verify/${code}` });

    const empty = await t.inject({ method: 'POST', url: `/api/issued-document/${doc.id}/revoke`, headers: op, payload: { reason: '  ' } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.reason).toEqual(['Укажите причину отзыва']);
    expect((await t.inject({ method: 'POST', url: `/api/issued-document/${doc.id}/revoke`, headers: ownerH, payload: { reason: 'x' } })).statusCode).toBe(403);
    expect((await t.inject({ method: 'POST', url: '/api/issued-document/999999/revoke', headers: op, payload: { reason: 'x' } })).statusCode).toBe(404);

    const res = await t.inject({ method: 'POST', url: `/api/issued-document/${doc.id}/revoke`, headers: op, payload: { reason: 'Выдан по ошибке' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ revoked_reason: 'Выдан по ошибке' });
    expect(res.json().data.revoked_at).not.toBeNull();
    expect((await verify(code)).json().valid).toBe(false);
    const again = await t.inject({ method: 'POST', url: `/api/issued-document/${doc.id}/revoke`, headers: op, payload: { reason: 'ещё раз' } });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(VerificationMessages.alreadyRevoked);

    const [log] = await rows<{ user_id: number; diff: Record<string, unknown> }>(
      t.database.db,
      sql`select user_id, diff from change_logs where type = 'entry' and entity_id = ${entryId} and diff::text like '%verification_revoked%' order by id desc limit 1`,
    );
    expect(log.user_id).toBe(operator.id);
    expect(JSON.stringify(log.diff)).toContain('Выдан по ошибке');

    // A new print of a document revoked by mistake issues a new code; the old one stays revoked.
    await print(entryId, 'certificate-docx', op);
    const fresh = await liveCode(entryId);
    expect(fresh).not.toBe(code);
    expect((await verify(fresh!)).json().valid).toBe(true);
    expect((await verify(code)).json().valid).toBe(false);
  }, 60_000);

  it('revokes when the entry is refunded and cancelled, or returned to unpaid', async () => {
    const refunded = await certificateEntry(docxTemplate);
    await print(refunded, 'certificate-docx');
    const refundedCode = (await liveCode(refunded))!;
    expect((await verify(refundedCode)).json().valid).toBe(true);
    await t.database.db.transaction((tx) => cancelEntryByRefund(tx, { entryId: refunded, by: operator.id, reason: 'возврат' }));
    expect((await verify(refundedCode)).json().valid).toBe(false);
    const [r] = await rows<{ revoked_reason: string }>(t.database.db, sql`select revoked_reason from issued_documents where code = ${refundedCode}`);
    expect(r.revoked_reason).toBe(VerificationMessages.reasonEntryRefunded);

    // A paid entry whose document was printed (printed when done; set back to paid here, as no
    // certificate prints for a paid entry of this type), its payment refunded in full.
    const returned = await certificateEntry(docxTemplate);
    await print(returned, 'certificate-docx');
    const returnedCode = (await liveCode(returned))!;
    await t.database.db.execute(sql`update entries set status = 2 where id = ${returned}`);
    await t.database.db.transaction((tx) => returnEntryToUnpaid(tx, { entryId: returned, by: null, reason: 'возврат' }));
    expect((await verify(returnedCode)).json().valid).toBe(false);
  }, 60_000);

  it('revokes when the entry is deleted', async () => {
    const entryId = await certificateEntry(docxTemplate);
    await print(entryId, 'certificate-docx');
    const code = (await liveCode(entryId))!;
    const res = await t.inject({ method: 'DELETE', url: `/api/entry/${entryId}`, headers: op });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect((await verify(code)).json().valid).toBe(false);
    const [r] = await rows<{ revoked_reason: string; revoked_by: number }>(
      t.database.db,
      sql`select revoked_reason, revoked_by from issued_documents where code = ${code}`,
    );
    expect(r).toEqual({ revoked_reason: VerificationMessages.reasonEntryDeleted, revoked_by: operator.id });
  }, 60_000);
});

describe('the public call', () => {
  it('needs no login and is limited per address with a Russian 429', async () => {
    const ip = '10.9.8.7';
    for (let i = 0; i < VERIFY_LIMIT.attempts; i++) expect((await verify('ACDEFGHJKMNP', ip)).statusCode).toBe(200);
    const over = await verify('ACDEFGHJKMNP', ip);
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toBe('Слишком много запросов. Попробуйте позже.');
    // Another address is not affected.
    expect((await verify('ACDEFGHJKMNP', '10.9.8.8')).statusCode).toBe(200);
  });
});
