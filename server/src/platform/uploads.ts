import type { FastifyRequest } from 'fastify';
import { DocumentMessages } from '@edu/domain/documents/documents';
import type { FieldErrors } from '@edu/domain/common/validation';
import { DOCUMENT_MIMES, fileTooLarge, sniffMime } from './files.ts';
import { fieldError, validationError } from './errors.ts';

/** A file part that passed the checks: a pdf, jpg or png by its content, at most 10 MB. */
export interface CheckedUpload {
  /** The form field, without a trailing "[]". */
  field: string;
  /** The browser's file name, cleaned; kept as a label only, never used as a path. */
  name: string;
  mime: string;
  ext: string;
  buffer: Buffer;
}

const EXT_BY_MIME: Record<string, string> = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png' };

/** A display name from whatever the browser sent: no folders, no control characters, at most 200 characters. */
export function cleanFileName(raw: string | undefined, ext: string): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '').replace(/^\.+/, '').trim().slice(0, 200);
  return cleaned || `document.${ext}`;
}

function isCode(error: unknown, ...codes: string[]): boolean {
  return Boolean(error && typeof error === 'object' && codes.includes(String((error as { code?: unknown }).code)));
}

/**
 * Reads every part of a multipart request and checks each file by its magic bytes (never by its
 * name or declared type). All files are checked before any is stored, so a request either stores
 * all of its files or none. Text fields come back as strings. Any failure is a 422 with the field.
 */
export async function readCheckedUploads(
  request: FastifyRequest,
  opts: { allowedFields?: (field: string) => boolean } = {},
): Promise<{ files: CheckedUpload[]; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw fieldError('file', DocumentMessages.noFile);
  const files: CheckedUpload[] = [];
  const fields: Record<string, string> = {};
  const errors: FieldErrors = {};
  try {
    for await (const part of request.parts()) {
      const field = part.fieldname.replace(/\[\]$/, '');
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[field] = part.value;
        continue;
      }
      let buffer: Buffer;
      try {
        buffer = await part.toBuffer();
      } catch (error) {
        if (isCode(error, 'FST_REQ_FILE_TOO_LARGE')) throw fieldError(field, DocumentMessages.fileTooLarge);
        throw error;
      }
      if (opts.allowedFields && !opts.allowedFields(field)) {
        (errors[field] ??= []).push(DocumentMessages.unknownField);
        continue;
      }
      if (part.file.truncated || fileTooLarge(buffer)) {
        (errors[field] ??= []).push(DocumentMessages.fileTooLarge);
        continue;
      }
      if (buffer.length === 0) {
        (errors[field] ??= []).push(DocumentMessages.noFile);
        continue;
      }
      const mime = await sniffMime(buffer);
      if (!mime || !(DOCUMENT_MIMES as readonly string[]).includes(mime)) {
        (errors[field] ??= []).push(DocumentMessages.fileType);
        continue;
      }
      const ext = EXT_BY_MIME[mime];
      files.push({ field, name: cleanFileName(part.filename, ext), mime, ext, buffer });
    }
  } catch (error) {
    if (isCode(error, 'FST_FILES_LIMIT')) throw fieldError('file', DocumentMessages.tooManyFiles);
    if (isCode(error, 'FST_INVALID_MULTIPART_CONTENT_TYPE', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT')) throw fieldError('file', DocumentMessages.noFile);
    throw error;
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return { files, fields };
}
