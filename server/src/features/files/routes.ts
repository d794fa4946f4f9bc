import { fileAnswer, PRINTED_TYPES, STORED_FILE_TYPES, type RoutesPlugin } from '../../platform/responses.ts';
import { z } from 'zod';
import { currentUser } from '../../platform/auth.ts';
import { notFound } from '../../platform/errors.ts';
import { sendPrivateFile, verifyFileToken } from '../../platform/signed-links.ts';
import { findStoredFile } from './files-repository.ts';
import { assertFileReadable } from './file-policy.ts';

/**
 * Downloads of private files. There is no public URL for a document: a file is read by its owner or
 * an operator (by id, with the session), or through a short-lived signed link made for printing.
 */
export const fileRoutes: RoutesPlugin = async (app) => {
  /** GET /api/file/{id}/download: the owner or an operator; anyone else gets 404 (not 403: no hint it exists). */
  app.get(
    '/:id/download',
    {
      config: { access: { owner: 'file' } },
      schema: {
        tags: ['files'],
        summary: 'Скачать файл (владельцу и операторам)',
        params: z.object({ id: z.coerce.number().int().positive() }),
        response: { 200: fileAnswer('Файл', [...STORED_FILE_TYPES, ...PRINTED_TYPES]) },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const file = await findStoredFile(app.db, request.params.id);
      assertFileReadable(me, file);
      const data = await app.files.read(file.storage_key).catch(() => null);
      if (!data) throw notFound();
      return sendPrivateFile(reply, file, data);
    },
  );

  /** GET /api/file/signed?t={token}: a print link; it works for a few minutes and only for its file. */
  app.get(
    '/signed',
    {
      config: { access: 'public', refuses: [404] },
      schema: {
        tags: ['files'],
        summary: 'Файл по ссылке для печати',
        querystring: z.object({ t: z.string().max(4000).default('') }),
        response: { 200: fileAnswer('Документ по ссылке для печати', PRINTED_TYPES) },
      },
    },
    async (request, reply) => {
      const payload = await verifyFileToken(app.db, request.query.t);
      if (!payload) throw notFound('Ссылка устарела. Откройте документ ещё раз из личного кабинета.');
      const data = await app.files.getGeneratedOrFile(payload.k);
      if (!data) throw notFound();
      return sendPrivateFile(reply, { mime: payload.t, name: payload.n }, data, payload.t === 'application/pdf' ? 'inline' : 'attachment');
    },
  );
};
