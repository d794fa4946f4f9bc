import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { entries, services } from '../src/db/schema/index.ts';
import type { TestApp } from './helper.ts';

/** A small but real PDF (magic bytes %PDF-). */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);

let pdfSeq = 0;

/** A PDF's words on one line (pdftotext; a long title may wrap on the page). */
export function pdfText(pdf: Buffer): string {
  const file = path.join(os.tmpdir(), `edu-pdf-${process.pid}-${pdfSeq++}.pdf`);
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  } finally {
    fs.rmSync(file, { force: true });
  }
}

export function png(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: '#22aa88' } })
    .png()
    .toBuffer();
}

export function jpg(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: '#aa2288' } })
    .jpeg()
    .toBuffer();
}

export interface Part {
  field: string;
  filename?: string;
  content: Buffer | string;
  type?: string;
}

/** A multipart/form-data body of files and fields, built by hand so tests control every byte. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----edu${randomBytes(6).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.filename !== undefined ? `form-data; name="${p.field}"; filename="${p.filename}"` : `form-data; name="${p.field}"`;
    const type = p.filename !== undefined ? `\r\nContent-Type: ${p.type ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let seq = 0;

/** A service of type 3 (qualification courses: is_contract_needed in the seed) and an entry of the user on it. */
export async function courseEntry(
  t: TestApp,
  userId: number,
  attrs: { title?: string; typeId?: number; status?: number } = {},
): Promise<{ entryId: number; serviceId: number }> {
  const [s] = await t.database.db
    .insert(services)
    .values({ title: attrs.title ?? 'Курс «Цифровая дидактика»', dict_type_id: attrs.typeId ?? 3, price: 12000, points: 72 })
    .returning({ id: services.id });
  seq++;
  const [e] = await t.database.db
    .insert(entries)
    .values({ number: `C-${userId}-${seq}-${randomBytes(2).toString('hex')}`, created_by: userId, service_id: s.id, status: attrs.status ?? 2, price: 12000 })
    .returning({ id: entries.id });
  return { entryId: e.id, serviceId: s.id };
}

export const VALID_SNILS = '112-233-445 95';

/** Fills the whole wizard for a user through the API: extras, passport, required documents and the consent. */
export async function fillContractData(t: TestApp, user: { id: number }, opts: { consent?: boolean } = {}): Promise<Record<string, string>> {
  const h = await t.loginAs(user);
  const extras = await t.inject({
    method: 'POST',
    url: `/api/user/${user.id}/profile-extras`,
    headers: h,
    payload: { address: 'г. Санкт-Петербург, Невский пр., д. 1', birthday: '1985-04-12', snils: VALID_SNILS },
  });
  if (extras.statusCode !== 200) throw new Error(`extras: ${extras.body}`);
  const passport = await t.inject({
    method: 'POST',
    url: '/api/identity-document',
    headers: h,
    payload: { number: '4010 123456', date: '2015-06-01', issued_by: 'ТП № 1 УФМС России по г. Санкт-Петербургу' },
  });
  if (passport.statusCode !== 201) throw new Error(`passport: ${passport.body}`);
  const parts: Part[] = [
    { field: 'passport', filename: 'passport.pdf', content: PDF, type: 'application/pdf' },
    { field: 'education', filename: 'diploma.png', content: await png(), type: 'image/png' },
    { field: 'snils', filename: 'snils.jpg', content: await jpg(), type: 'image/jpeg' },
  ];
  if (opts.consent !== false) parts.push({ field: 'consent', filename: 'consent.pdf', content: PDF, type: 'application/pdf' });
  const body = multipart(parts);
  const up = await t.inject({ method: 'POST', url: `/api/user/${user.id}/upload-documents`, headers: { ...h, ...body.headers }, payload: body.payload });
  if (up.statusCode !== 200) throw new Error(`upload: ${up.body}`);
  return h;
}
