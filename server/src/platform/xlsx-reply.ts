import { PassThrough, type Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** RFC 5987 encoding of a file name for `filename*` (Russian names survive every browser). */
const encodeName = (name: string) => encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Answers with an .xlsx that `write` streams as it reads: the download starts at once and memory stays
 * flat. A failure mid-way breaks the download (logged) rather than sending a half file as whole.
 * `name` is the file's Russian name; `asciiName` its fallback for old clients.
 */
export function sendXlsx(request: FastifyRequest, reply: FastifyReply, file: { name: string; asciiName: string }, write: (out: Writable) => Promise<unknown>) {
  const out = new PassThrough();
  write(out).catch((err: unknown) => {
    request.log.error({ err }, 'xlsx export failed');
    out.destroy(err instanceof Error ? err : new Error('export failed'));
  });
  return reply
    .type(XLSX_MIME)
    .header('content-disposition', `attachment; filename="${file.asciiName}"; filename*=UTF-8''${encodeName(file.name)}`)
    .header('cache-control', 'private, no-store')
    .send(out);
}
