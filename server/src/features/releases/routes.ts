import type { RoutesPlugin } from '../../platform/responses.ts';
import { idParams } from '@edu/domain/common/bounds';
import {
  releaseBody,
  releaseDeletedAnswer,
  releaseListQuery,
  ReleaseMessages,
  releaseSavedAnswer,
  releasesAnswer,
  type Release,
  type ReleaseBody,
} from '@edu/domain/releases/release';
import { isOperator } from '../../platform/access.ts';
import { currentUser } from '../../platform/auth.ts';
import type { Queryable } from '../../platform/db.ts';
import { AppError, fieldError, notFound } from '../../platform/errors.ts';
import {
  countReleasePublications,
  deleteRelease,
  findRelease,
  hideRelease,
  insertRelease,
  listReleases,
  lockRelease,
  publishRelease,
  unpublishRelease,
  updateRelease,
} from './releases-repository.ts';
import { isPublicationSubtype } from '../dictionaries/dictionaries-repository.ts';

// Journal releases (spec 03 §2 'Выпуски журнала', §4). The list is read by every signed-in user
// (the publication form's release picker); everything else is registered in the operator scope.

const tags = ['releases'];

async function findOrFail(db: Queryable, id: number): Promise<Release> {
  const release = await findRelease(db, id);
  if (!release) throw notFound(ReleaseMessages.notFound);
  return release;
}

/** A release belongs to a publication subtype (spec 03 §2: 'subtype among publication subtypes'). */
async function checkSubtype(db: Queryable, body: ReleaseBody) {
  if (!(await isPublicationSubtype(db, body.dict_service_subtype_id))) throw fieldError('dict_service_subtype_id', ReleaseMessages.notPublicationSubtype);
}

/** GET /api/publication-release: operators see every release; others only visible ones (the picker). */
export const releaseReadRoutes: RoutesPlugin = async (app) => {
  app.get(
    '/publication-release',
    { config: { access: 'user' }, schema: { tags, summary: 'Выпуски журнала', querystring: releaseListQuery, response: { 200: releasesAnswer } } },
    async (request) => {
      const q = request.query;
      const operator = isOperator(currentUser(request));
      return { data: await listReleases(app.db, { subtype: q.dict_service_subtype_id, hidden: operator ? q.is_hidden : false }) };
    },
  );
};

/** Save, delete, hide, publish, unpublish: registered in the operator scope (app.ts). */
export const releaseManagerRoutes: RoutesPlugin = async (app) => {
  app.post(
    '/publication-release',
    { schema: { tags, summary: 'Создать выпуск журнала', body: releaseBody, response: { 201: releaseSavedAnswer } } },
    async (request, reply) => {
      await checkSubtype(app.db, request.body);
      const id = await insertRelease(app.db, request.body);
      return reply.status(201).send({ data: await findOrFail(app.db, id), message: ReleaseMessages.saved });
    },
  );

  app.put(
    '/publication-release/:id',
    { schema: { tags, summary: 'Изменить выпуск журнала', params: idParams, body: releaseBody, response: { 200: releaseSavedAnswer } } },
    async (request) => {
      await checkSubtype(app.db, request.body);
      const id = await updateRelease(app.db, request.params.id, request.body);
      if (!id) throw notFound(ReleaseMessages.notFound);
      return { data: await findOrFail(app.db, id), message: ReleaseMessages.saved };
    },
  );

  /** Refused while publications are in the release (they would lose their issue); see docs/decisions. */
  app.delete(
    '/publication-release/:id',
    { schema: { tags, summary: 'Удалить выпуск журнала', params: idParams, response: { 200: releaseDeletedAnswer } } },
    async (request) => {
      const id = request.params.id;
      await app.db.transaction(async (tx) => {
        if (!(await lockRelease(tx, id))) throw notFound(ReleaseMessages.notFound);
        const n = await countReleasePublications(tx, id);
        if (n > 0) throw new AppError(422, ReleaseMessages.hasPublications(n));
        await deleteRelease(tx, id);
      });
      return { message: ReleaseMessages.deleted };
    },
  );

  /** Each state change is one conditional update (releases-repository), so two parallel clicks cannot both succeed. */
  const transition = (kind: 'hide' | 'publish' | 'unpublish') => async (request: { params: { id: number } }) => {
    const id = request.params.id;
    const changed = await { hide: hideRelease, publish: publishRelease, unpublish: unpublishRelease }[kind](app.db, id);
    const release = await findOrFail(app.db, id);
    if (!changed) {
      const message =
        kind === 'hide'
          ? ReleaseMessages.alreadyHidden
          : kind === 'unpublish'
            ? ReleaseMessages.notPublished
            : release.is_published
              ? ReleaseMessages.alreadyPublished
              : ReleaseMessages.publishOnlyHidden;
      throw new AppError(422, message);
    }
    const message = { hide: ReleaseMessages.hidden, publish: ReleaseMessages.published, unpublish: ReleaseMessages.unpublished }[kind];
    return { data: release, message };
  };
  app.post(
    '/publication-release/:id/hide',
    { schema: { tags, summary: 'Скрыть выпуск журнала', params: idParams, response: { 200: releaseSavedAnswer } } },
    transition('hide'),
  );
  app.post(
    '/publication-release/:id/publish',
    { schema: { tags, summary: 'Опубликовать скрытый выпуск журнала', params: idParams, response: { 200: releaseSavedAnswer } } },
    transition('publish'),
  );
  app.post(
    '/publication-release/:id/unpublish',
    { schema: { tags, summary: 'Снять публикацию выпуска журнала', params: idParams, response: { 200: releaseSavedAnswer } } },
    transition('unpublish'),
  );
};
