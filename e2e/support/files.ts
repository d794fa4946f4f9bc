import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { outputDir } from './screens.ts';

/** A one-page PDF that says "Signed scan" (PDFium rebuilds the missing cross-reference table). */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n' +
    '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources <</Font <</F1 5 0 R>>>>>> endobj\n' +
    '4 0 obj <</Length 44>> stream\nBT /F1 28 Tf 72 760 Td (Signed scan) Tj ET\nendstream endobj\n' +
    '5 0 obj <</Type /Font /Subtype /Type1 /BaseFont /Helvetica>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);
/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A scan to upload (setInputFiles), as a PDF or an image. */
export const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: PDF });
export const png = (name: string) => ({ name, mimeType: 'image/png', buffer: PNG });

/**
 * The words of a PDF on one line (pdftotext, from poppler-utils). With `keepAs` the file stays in
 * e2e/output/<keepAs>.pdf to look at after the run.
 */
export function pdfText(body: Buffer, keepAs?: string): string {
  const file = keepAs ? path.join(outputDir, `${keepAs}.pdf`) : path.join(os.tmpdir(), `e2e-${process.pid}-${Date.now()}.pdf`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, body);
  try {
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  } finally {
    if (!keepAs) fs.rmSync(file, { force: true });
  }
}

/**
 * Runs `act` (a click that opens a tab), waits for the signed link of the document, and reads the PDF
 * with the request context. The tab's own request is stopped (Chromium's PDF viewer may never report
 * its load, and a tab holding it could not be closed: close() hung for minutes). The PDF stays in
 * e2e/output/<name>.pdf.
 */
export async function printedPdf(context: BrowserContext, request: APIRequestContext, act: () => Promise<unknown>, name: string): Promise<string> {
  await context.route('**/api/file/signed**', (route) => route.abort());
  const signed = context.waitForEvent('request', { predicate: (r) => r.url().includes('/api/file/signed'), timeout: 90_000 });
  await act();
  const link = (await signed).url();
  await context.unroute('**/api/file/signed**');
  const answer = await request.get(link);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('application/pdf');
  return pdfText(await answer.body(), name);
}

/**
 * Presses `button` (its download is an .xlsx whose name starts with the sheet's name) and answers
 * the sheet `name` of the workbook.
 */
export async function downloadedSheet(page: Page, button: Locator, name: string): Promise<ExcelJS.Worksheet> {
  const download = page.waitForEvent('download');
  await button.click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^${name} .*\\.xlsx$`));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await file.path());
  const sheet = workbook.getWorksheet(name);
  expect(sheet, `the sheet «${name}»`).toBeDefined();
  return sheet!;
}
