import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Messages } from '@edu/domain/common/messages';
import { currentUser } from './auth.ts';
import { AppError } from './errors.ts';
import { writeXlsx, type XlsxExport } from './xlsx-export.ts';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Exports one account may stream at once on this instance; one more is answered 429. */
export const EXPORTS_PER_ACCOUNT = 1;

/** RFC 5987 encoding of a file name for `filename*` (Russian names survive every browser). */
const encodeName = (name: string) => encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Answers with the export as an .xlsx streamed as it is read (platform/xlsx-export.ts): the download
 * starts at once and memory stays flat. One export per account at a time (`app.exportSlots`): another
 * while one streams is refused with 429 before any database work; the slot is freed when the file is
 * written or the client goes away. A failure mid-way breaks the download (logged) rather than sending
 * a half file as whole. `name` is the file's Russian name; `asciiName` its fallback for old clients.
 */
export function sendXlsx<R, K extends string>(request: FastifyRequest, reply: FastifyReply, file: { name: string; asciiName: string }, spec: XlsxExport<R, K>) {
  const release = request.server.exportSlots.take(currentUser(request).id);
  if (!release) throw new AppError(429, Messages.exportRunning);
  const out = new PassThrough();
  out.once('close', release);
  writeXlsx(spec, out)
    .catch((err: unknown) => {
      if (!out.destroyed) request.log.error({ err }, 'xlsx export failed');
      else request.log.info({ err }, 'xlsx export stopped');
      out.destroy(err instanceof Error ? err : new Error('export failed'));
    })
    .finally(release);
  return reply
    .type(XLSX_MIME)
    .header('content-disposition', `attachment; filename="${file.asciiName}"; filename*=UTF-8''${encodeName(file.name)}`)
    .header('cache-control', 'private, no-store')
    .send(out);
}
