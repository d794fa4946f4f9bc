import { sql } from 'drizzle-orm';
import { PrintMessages, printRefusal, refusalFor, type PrintKind } from '@edu/domain/documents/print';
import { AppError, notFound } from '../../platform/errors.ts';
import { rows } from '../../platform/db.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { ensureCertificateNumber } from './certificate-number.ts';
import { timed } from '../../platform/stage-timing.ts';
import { consentTemplateId, loadEntryPrintRow, toPrintContext, type EntryPrintRow } from './print-context.ts';
import { renderDocument, renderHtmlDocument, type DocumentDeps, type StoredDocument } from './render-document.ts';
import { invoiceHtml, loadInvoice } from './invoice.ts';
import { canReachEntry } from '../entries/entry-policy.ts';
import { ensureIssuedDocument, verificationValues } from './issued-documents.ts';

const TITLES: Record<PrintKind, string> = {
  certificate: 'Сертификат',
  'certificate-docx': 'Сертификат',
  program: 'Программа',
  'registration-list': 'Регистрационный лист',
  contract: 'Договор',
  invoice: 'Счёт на оплату',
};

/** File names without characters that file systems or headers dislike. */
export function fileTitle(...parts: string[]): string {
  return (
    parts
      .filter(Boolean)
      .join(' ')
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[\\/:*?"<>|\u0000-\u001f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 150)
  );
}

/** An entry the asker may see: the client's own or any for operators; otherwise 404. */
export async function entryForPrint(deps: DocumentDeps, entryId: number, me: Pick<AuthUser, 'id' | 'role'>): Promise<EntryPrintRow> {
  const row = await loadEntryPrintRow(deps.db, entryId);
  if (!row || !canReachEntry(me, row.created_by)) throw notFound();
  return row;
}

/**
 * Checks the print rules for the asker and makes the document (the converters serve the asker in
 * turn with others). A certificate gets its number on the first print.
 */
export async function printEntryDocument(deps: DocumentDeps, row: EntryPrintRow, kind: PrintKind, me: Pick<AuthUser, 'id' | 'role'>): Promise<StoredDocument> {
  const ctx = toPrintContext(row, row.deleted);
  const refusal = printRefusal(kind, ctx, me.role);
  const account = me.id;
  if (refusal) throw new AppError(refusal.status, refusal.message);
  switch (kind) {
    case 'certificate':
    case 'certificate-docx': {
      const number = await timed('number', () => ensureCertificateNumber(deps.db, row.id, row.certificate_number));
      const code = await timed('verification', () => ensureIssuedDocument(deps.db, { entryId: row.id, by: me.id }));
      return renderDocument(deps, {
        templateId: ctx.certificateTemplateId!,
        subject: { entryId: row.id },
        extra: verificationValues(code),
        output: kind === 'certificate' ? 'pdf' : 'docx',
        name: fileTitle(TITLES[kind], number),
        account,
      });
    }
    case 'program':
      return renderDocument(deps, {
        templateId: ctx.programTemplateId!,
        subject: { entryId: row.id },
        output: 'pdf',
        name: fileTitle(TITLES[kind], row.service_title),
        account,
      });
    case 'registration-list':
      return renderDocument(deps, {
        templateId: ctx.regListTemplateId!,
        subject: { entryId: row.id },
        output: 'pdf',
        name: fileTitle(TITLES[kind], row.number),
        account,
      });
    case 'contract':
      return renderDocument(deps, {
        templateId: ctx.contractTemplateId!,
        subject: { entryId: row.id },
        output: 'pdf',
        name: fileTitle(TITLES[kind], row.number),
        account,
        signedByClient: true,
      });
    case 'invoice': {
      const invoice = await timed('invoice', () => loadInvoice(deps.db, row, me.role));
      return renderHtmlDocument(deps, { body: invoiceHtml(invoice), name: fileTitle(TITLES[kind], row.number), account });
    }
  }
}

/** The consent to personal data processing, filled for the user; `me` asks (the user or an operator). */
export async function printConsent(deps: DocumentDeps, userId: number, me: Pick<AuthUser, 'id' | 'role'>): Promise<StoredDocument> {
  const account = me.id;
  const templateId = await consentTemplateId(deps.db);
  if (templateId === null) throw new AppError(422, refusalFor(PrintMessages.noConsentTemplate, me.role));
  const [user] = await rows<{ id: number }>(deps.db, sql`select id from users where id = ${userId} and deleted_at is null`);
  if (!user) throw notFound();
  return renderDocument(deps, {
    templateId,
    subject: { userId },
    output: 'pdf',
    name: 'Согласие на обработку персональных данных',
    account,
    signedByClient: true,
  });
}
