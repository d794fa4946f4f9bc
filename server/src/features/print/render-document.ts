import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.ts';
import { rows } from '../../platform/db.ts';
import { DOCX_MIME, type FileStore } from '../../platform/files.ts';
import type { ConvertOwner, OfficeConverterPool } from '../../platform/converters/office-converter.ts';
import type { HtmlPdfConverter } from '../../platform/converters/html-pdf.ts';
import { ConversionFailed, ConverterUnavailable } from '../../platform/converters/converter-errors.ts';
import { AppError } from '../../platform/errors.ts';
import { escapeHtml } from '../../platform/html.ts';
import { PERSONAL_DATA_FIELD, PrintMessages } from '@edu/domain/documents/print';
import { macroValues, type MacroSubject } from '../macros/macro-values.ts';
import { renderMacros } from '../macros/render-macros.ts';
import { htmlMacros, missingPersonalData } from '../macros/personal-data.ts';
import { docxMacros, fillDocx, type DocxImage } from '../templates/docx.ts';
import { withoutMetaRefresh } from '../templates/html-template.ts';
import type { PrintGate } from './print-gate.ts';
import { timed } from '../../platform/stage-timing.ts';
import { qrImgHtml, qrPng } from './qr-code.ts';

/** The macro printed as the QR code of the document's verification address (its value is the address). */
export const QR_MACRO = 'cert.qr';
/** How large the QR code prints in a .docx, in centimetres. */
const QR_CM = 2.2;

export interface DocumentDeps {
  db: Db;
  files: FileStore;
  office: OfficeConverterPool;
  html: HtmlPdfConverter;
  gate: PrintGate;
}

export interface StoredDocument {
  key: string;
  name: string;
  mime: string;
  /** True when the file came from the cache (not rendered for this request nor waited for). */
  cached: boolean;
}

interface TemplateSource {
  id: number;
  content: string | null;
  storage_key: string | null;
  updated_at: Date | string;
}

async function templateSource(deps: DocumentDeps, templateId: number): Promise<TemplateSource> {
  const [t] = await rows<TemplateSource>(
    deps.db,
    sql`select t.id, t.content, f.storage_key, t.updated_at from templates t left join files f on f.id = t.file_id where t.id = ${templateId}`,
  );
  if (!t) throw new AppError(422, PrintMessages.noCertificateTemplate);
  return t;
}

/**
 * Uploaded template files by storage key. A key names one upload for good (keys are random and a new
 * upload gets a new key), so the bytes never go stale; read once, not on every print.
 */
const templateFiles = new Map<string, Buffer>();
const TEMPLATE_CACHE_BYTES = 32 * 1024 * 1024;

async function templateFile(files: FileStore, key: string): Promise<Buffer | null> {
  const hit = templateFiles.get(key);
  if (hit) {
    templateFiles.delete(key);
    templateFiles.set(key, hit); // most recently used last
    return hit;
  }
  const source = await files.read(key).catch(() => null);
  if (!source) return null;
  templateFiles.set(key, source);
  let total = 0;
  for (const b of templateFiles.values()) total += b.length;
  for (const [k, b] of templateFiles) {
    if (total <= TEMPLATE_CACHE_BYTES || templateFiles.size === 1) break;
    templateFiles.delete(k);
    total -= b.length;
  }
  return source;
}

/** The macros of a .docx template, by its bytes (a template file never changes under its key: read once). */
const docxMacroNames = new WeakMap<Buffer, string[]>();
function usedMacros(source: Buffer): string[] {
  let names = docxMacroNames.get(source);
  if (!names) {
    try {
      names = docxMacros(source);
    } catch {
      names = []; // a broken file fails in fillDocx with its own message
    }
    docxMacroNames.set(source, names);
  }
  return names;
}

/** Everything the output depends on; the same inputs give the same key, so a change of any makes a new file. */
function digest(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * The printed page of an HTML template. The policy allows nothing outside the page (pictures and
 * fonts only as data: URLs): the converter blocks every request anyway, this stops them earlier.
 */
const PAGE_POLICY = "default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline' data:";

function htmlPage(body: string, title: string): string {
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${PAGE_POLICY}"><title>${escapeHtml(title)}</title><style>
    body { font-family: 'Liberation Serif', 'Times New Roman', serif; font-size: 12pt; line-height: 1.4; color: #000; }
    table { border-collapse: collapse; width: 100%; } td, th { border: 1px solid #000; padding: 4px 6px; vertical-align: top; }
    h1, h2, h3 { font-family: 'Liberation Sans', Arial, sans-serif; }
  </style></head><body>${body}</body></html>`;
}

/**
 * Fills a template for a subject and stores the result (PDF, or the .docx itself when asked),
 * reusing the stored file while the template and the values are unchanged.
 */
export async function renderDocument(
  deps: DocumentDeps,
  opts: {
    templateId: number;
    subject: MacroSubject;
    output: 'pdf' | 'docx';
    name: string;
    values?: Record<string, string>;
    /** Values added to the subject's (a certificate's verification code and address). */
    extra?: Record<string, string>;
    account?: number;
    /** A document the client signs (consent, contract): personal data it uses must be filled, else 422 naming them (decision 031). */
    signedByClient?: boolean;
  },
): Promise<StoredDocument> {
  // Two independent reads at once.
  const [template, values] = await Promise.all([
    timed('template', () => templateSource(deps, opts.templateId)),
    opts.values ?? timed('values', () => macroValues(deps.db, opts.subject, opts.extra)),
  ]);
  const source = template.storage_key ? await timed('template-read', () => templateFile(deps.files, template.storage_key!)) : null;
  if (template.storage_key && !source) throw new AppError(422, PrintMessages.templateNotUploaded);
  // A document the client signs is refused while personal data it uses are missing, not printed with blanks (decision 031).
  if (opts.signedByClient) {
    const missing = missingPersonalData(source ? usedMacros(source) : htmlMacros(template.content ?? ''), values);
    if (missing.length) {
      const message = PrintMessages.fillPersonalData(missing);
      throw new AppError(422, message, { errors: { [PERSONAL_DATA_FIELD]: [message] } });
    }
  }
  const ext = opts.output;
  const mime = opts.output === 'pdf' ? 'application/pdf' : DOCX_MIME;
  const key = deps.files.generatedKey(
    'cache',
    digest([1, opts.output, template.id, template.storage_key, template.content, new Date(template.updated_at).toISOString(), values]),
    ext,
  );
  return storedOnce(deps, { key, name: `${opts.name}.${ext}`, mime, account: opts.account }, async (owner) => {
    if (source) {
      const qr = values[QR_MACRO];
      const images: Record<string, DocxImage> = qr ? { [QR_MACRO]: { png: await qrPng(qr), cm: QR_CM } } : {};
      const docx = await timed('fill', () => fillDocx(source, values, images));
      return opts.output === 'docx' ? docx : await timed('convert', () => convert(() => deps.office.toPdf(docx, owner)));
    }
    if (opts.output === 'docx') throw new AppError(422, PrintMessages.templateNotUploaded);
    // Refreshes are cut out of the filled template (templates saved before they were refused, and
    // any a value could complete), parsed as the printing browser parses it.
    const qr = values[QR_MACRO];
    const raw = qr ? { [QR_MACRO]: await qrImgHtml(qr) } : undefined;
    const html = withoutMetaRefresh(renderMacros(template.content ?? '', values, { escape: 'html', missing: 'blank', raw }));
    return timed('convert', () => convert(() => deps.html.toPdf(htmlPage(html, opts.name), owner)));
  });
}

/** A page the app lays out itself (the bank invoice) as PDF, cached like a template's document. */
export async function renderHtmlDocument(deps: DocumentDeps, opts: { body: string; name: string; account?: number }): Promise<StoredDocument> {
  const page = htmlPage(opts.body, opts.name);
  const key = deps.files.generatedKey('cache', digest([1, 'page', page]), 'pdf');
  return storedOnce(deps, { key, name: `${opts.name}.pdf`, mime: 'application/pdf', account: opts.account }, (owner) =>
    timed('convert', () => convert(() => deps.html.toPdf(page, owner))),
  );
}

/**
 * The stored file under `key`, made by `make` when it is not there yet. A document being rendered
 * for someone else is waited for, not rendered again; the converters serve `account` (the asking
 * user; none for a job) in turn with the others (decision 021).
 */
async function storedOnce(
  deps: DocumentDeps,
  doc: { key: string; name: string; mime: string; account?: number },
  make: (owner: ConvertOwner) => Promise<Buffer>,
): Promise<StoredDocument> {
  const { key, name, mime } = doc;
  if (await timed('cache-check', () => deps.files.storage.exists(key))) return { key, name, mime, cached: true };
  const account = doc.account ?? null;
  // A free account's document renders in the converter's low-priority browser (issue 29).
  const owner: ConvertOwner = account === null ? { key: 'job', bounded: false } : { key: `user:${account}`, low: deps.gate.isFree(account) };
  await deps.gate.once(
    key,
    async () => {
      // Stored by a render that ended between our cache check and now.
      if (await deps.files.storage.exists(key)) return;
      const body = await make(owner);
      await timed('store', () => deps.files.putGenerated(key, body, mime));
    },
    account,
  );
  return { key, name, mime, cached: false };
}

async function convert(run: () => Promise<Buffer>): Promise<Buffer> {
  try {
    return await run();
  } catch (err) {
    // Missing, restarted after a hang, or its queue full (ConverterBusy): 503 with the converter's text.
    if (err instanceof ConverterUnavailable) throw new AppError(503, err.message);
    if (err instanceof ConversionFailed) throw new AppError(422, 'Не удалось преобразовать документ в PDF: проверьте файл шаблона');
    throw err;
  }
}
