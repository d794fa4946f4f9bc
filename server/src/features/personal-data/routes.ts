import { z } from 'zod';
import {
  eraseUserAnswer,
  eraseUserBody,
  PersonalDataMessages,
  personalDataExportAnswer,
  personalDataExportStartedAnswer,
  personalDataExportSchema,
} from '@edu/domain/personal-data/personal-data';
import { isoTimestamp } from '@edu/domain/common/answers';
import { isOperator } from '@edu/domain/common/codes';
import { currentUser } from '../../platform/auth.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { eraseUser } from './erase-user.ts';
import { exportView, requestExport } from './personal-data-export.ts';
import { findExport, findPerson, latestExport } from './personal-data-repository.ts';

const tags = ['personal data'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2147483647) });

/**
 * «Мои данные» (issue 33): the signed-in person asks for an archive of their data and follows it to
 * the download link. The link is a signed, expiring link served by GET /api/file/signed with the
 * headers of every user file.
 */
export const personalDataRoutes: RoutesPlugin = async (app) => {
  /** GET /api/personal-data/export: the newest archive of the signed-in person (or null). */
  app.get(
    '/personal-data/export',
    { config: { access: 'user' }, schema: { tags, summary: 'Мой последний архив персональных данных', response: { 200: personalDataExportAnswer } } },
    async (request) => {
      const row = await latestExport(app.db, currentUser(request).id);
      return { data: row ? await exportView(app.db, row) : null };
    },
  );

  /** POST /api/personal-data/export: queue a new archive; 429 while one is being prepared. */
  app.post(
    '/personal-data/export',
    {
      config: { access: 'user', refuses: [429] },
      schema: { tags, summary: 'Подготовить архив моих персональных данных', response: { 202: personalDataExportStartedAnswer } },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const id = await requestExport(app.db, me.id, me);
      const row = await findExport(app.db, id);
      return reply.status(202).send({ data: await exportView(app.db, row!), message: PersonalDataMessages.requested });
    },
  );

  /** GET /api/personal-data/export/{id}: one archive's state; only its person's (others get 404). */
  app.get(
    '/personal-data/export/:id',
    {
      config: { access: 'user' },
      schema: { tags, summary: 'Состояние архива персональных данных', params: idParams, response: { 200: z.object({ data: personalDataExportSchema }) } },
    },
    async (request) => {
      const row = await findExport(app.db, request.params.id);
      if (!row || row.user_id !== currentUser(request).id) throw notFound(PersonalDataMessages.notFound);
      return { data: await exportView(app.db, row) };
    },
  );
};

const managerAnswer = z.object({
  data: z.object({ user_id: z.number().int(), erased_at: isoTimestamp.nullable(), is_operator: z.boolean(), export: personalDataExportSchema.nullable() }),
});

/** The operator's side, in the manager scope (operators only): a client's archive on a written request, and erasure. */
export const personalDataOperatorRoutes: RoutesPlugin = async (app) => {
  const person = async (id: number) => {
    const u = await findPerson(app.db, id);
    if (!u) throw notFound();
    return u;
  };

  /** GET /api/manager/users/{id}/personal-data: whether the data was erased, and the newest archive. */
  app.get(
    '/manager/users/:id/personal-data',
    { schema: { tags, summary: 'Персональные данные клиента: архив и удаление', params: idParams, response: { 200: managerAnswer } } },
    async (request) => {
      const u = await person(request.params.id);
      const row = await latestExport(app.db, u.id);
      return {
        data: {
          user_id: u.id,
          erased_at: u.erased_at ? new Date(u.erased_at).toISOString() : null,
          is_operator: isOperator(u),
          export: row ? await exportView(app.db, row) : null,
        },
      };
    },
  );

  /** POST /api/manager/users/{id}/personal-data/export: prepare the client's archive (their written request). */
  app.post(
    '/manager/users/:id/personal-data/export',
    {
      config: { refuses: [429] },
      schema: { tags, summary: 'Подготовить архив персональных данных клиента', params: idParams, response: { 202: personalDataExportStartedAnswer } },
    },
    async (request, reply) => {
      const u = await person(request.params.id);
      if (u.erased_at) throw new AppError(422, PersonalDataMessages.erasedNoExport);
      const id = await requestExport(app.db, u.id, currentUser(request));
      const row = await findExport(app.db, id);
      return reply.status(202).send({ data: await exportView(app.db, row!), message: PersonalDataMessages.requested });
    },
  );

  /** POST /api/manager/users/{id}/erase {reason}: erase the client's personal data, money records kept. */
  app.post(
    '/manager/users/:id/erase',
    {
      schema: {
        tags,
        summary: 'Удалить персональные данные клиента по его заявлению',
        params: idParams,
        body: eraseUserBody,
        response: { 200: eraseUserAnswer },
      },
    },
    async (request) => {
      const erasedAt = await eraseUser(app, currentUser(request), request.params.id, request.body.reason);
      return { message: PersonalDataMessages.erased, data: { id: request.params.id, erased_at: erasedAt.toISOString() } };
    },
  );
};
