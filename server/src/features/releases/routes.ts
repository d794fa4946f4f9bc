import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Role } from '@edu/domain/common/codes';
import { idParams } from '@edu/domain/common/bounds';
import { releaseBody, releaseListQuery, ReleaseMessages, type Release, type ReleaseBody } from '@edu/domain/releases/release';
import { publicationReleases } from '../../db/schema/index.ts';
import { currentUser } from '../../platform/auth.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { AppError, fieldError, notFound } from '../../platform/errors.ts';

// Journal releases (spec 03 §2 'Выпуски журнала', §4). The list is read by every signed-in user
// (the publication form's release picker); everything else is registered in the operator scope.

const tags = ['releases'];

interface ReleaseRow {
  id: number;
  title: string;
  dict_service_subtype_id: number | null;
  subtype_fdv: string | null;
  url: string | null;
  url_contents: string | null;
  is_hidden: boolean;
  is_published: boolean;
  publications_count: number;
}

const toRelease = (r: ReleaseRow): Release => ({
  id: r.id,
  title: r.title,
  dict_service_subtype_id: r.dict_service_subtype_id,
  subtype: r.dict_service_subtype_id && r.subtype_fdv ? { id: r.dict_service_subtype_id, fdv: r.subtype_fdv } : null,
  url: r.url,
  url_contents: r.url_contents,
  is_hidden: r.is_hidden,
  is_published: r.is_published,
  publications_count: Number(r.publications_count),
});

async function listReleases(db: Queryable, f: { id?: number; subtype?: number; hidden?: boolean }): Promise<Release[]> {
  const list = await rows<ReleaseRow>(
    db,
    sql`select r.id, r.title, r.dict_service_subtype_id, st.fdv as subtype_fdv, r.url, r.url_contents, r.is_hidden, r.is_published,
          (select count(*)::int from publications p where p.release_id = r.id and p.deleted_at is null) as publications_count
        from publication_releases r left join dict_service_subtypes st on st.id = r.dict_service_subtype_id
        where r.deleted_at is null
          ${f.id !== undefined ? sql`and r.id = ${f.id}` : sql``}
          ${f.subtype !== undefined ? sql`and r.dict_service_subtype_id = ${f.subtype}` : sql``}
          ${f.hidden !== undefined ? sql`and r.is_hidden = ${f.hidden}` : sql``}
        order by r.id desc`,
  );
  return list.map(toRelease);
}

async function findRelease(db: Queryable, id: number): Promise<Release> {
  const [release] = await listReleases(db, { id });
  if (!release) throw notFound(ReleaseMessages.notFound);
  return release;
}

/** A release belongs to a publication subtype (spec 03 §2: 'subtype among publication subtypes'). */
async function checkSubtype(db: Queryable, body: ReleaseBody) {
  const [subtype] = await rows<{ id: number }>(db, sql`select id from dict_service_subtypes where id = ${body.dict_service_subtype_id} and is_publication`);
  if (!subtype) throw fieldError('dict_service_subtype_id', ReleaseMessages.notPublicationSubtype);
}

/** GET /api/publication-release: operators see every release; others only visible ones (the picker). */
export const releaseReadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/publication-release', { onRequest: app.requireUser, schema: { tags, querystring: releaseListQuery } }, async (request) => {
    const q = request.query;
    const operator = currentUser(request).role === Role.operator;
    return { data: await listReleases(app.db, { subtype: q.dict_service_subtype_id, hidden: operator ? q.is_hidden : false }) };
  });
};

/** Save, delete, hide, publish, unpublish: registered in the operator scope (app.ts). */
export const releaseManagerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/publication-release', { schema: { tags, body: releaseBody } }, async (request, reply) => {
    await checkSubtype(app.db, request.body);
    const [row] = await app.db.insert(publicationReleases).values(request.body).returning({ id: publicationReleases.id });
    return reply.status(201).send({ data: await findRelease(app.db, row.id), message: ReleaseMessages.saved });
  });

  app.put('/publication-release/:id', { schema: { tags, params: idParams, body: releaseBody } }, async (request) => {
    await checkSubtype(app.db, request.body);
    const [row] = await app.db
      .update(publicationReleases)
      .set({ ...request.body, updated_at: new Date() })
      .where(and(eq(publicationReleases.id, request.params.id), sql`${publicationReleases.deleted_at} is null`))
      .returning({ id: publicationReleases.id });
    if (!row) throw notFound(ReleaseMessages.notFound);
    return { data: await findRelease(app.db, row.id), message: ReleaseMessages.saved };
  });

  /** Refused while publications are in the release (they would lose their issue); see docs/decisions. */
  app.delete('/publication-release/:id', { schema: { tags, params: idParams } }, async (request) => {
    const id = request.params.id;
    await app.db.transaction(async (tx) => {
      const [release] = await rows<{ id: number }>(tx, sql`select id from publication_releases where id = ${id} and deleted_at is null for update`);
      if (!release) throw notFound(ReleaseMessages.notFound);
      const [{ n }] = await rows<{ n: number }>(tx, sql`select count(*)::int as n from publications where release_id = ${id} and deleted_at is null`);
      if (n > 0) throw new AppError(422, ReleaseMessages.hasPublications(n));
      await tx.execute(sql`update publication_releases set deleted_at = now(), updated_at = now() where id = ${id}`);
    });
    return { message: ReleaseMessages.deleted };
  });

  /** Each state change is one conditional update, so two parallel clicks cannot both succeed. */
  const transition = (kind: 'hide' | 'publish' | 'unpublish') => async (request: { params: { id: number } }) => {
    const id = request.params.id;
    const set = { hide: sql`is_hidden = true`, publish: sql`is_published = true`, unpublish: sql`is_published = false` }[kind];
    const guard = { hide: sql`not is_hidden`, publish: sql`is_hidden and not is_published`, unpublish: sql`is_published` }[kind];
    const changed = await rows<{ id: number }>(
      app.db,
      sql`update publication_releases set ${set}, updated_at = now() where id = ${id} and deleted_at is null and ${guard} returning id`,
    );
    const release = await findRelease(app.db, id);
    if (!changed.length) {
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
  app.post('/publication-release/:id/hide', { schema: { tags, params: idParams } }, transition('hide'));
  app.post('/publication-release/:id/publish', { schema: { tags, params: idParams } }, transition('publish'));
  app.post('/publication-release/:id/unpublish', { schema: { tags, params: idParams } }, transition('unpublish'));
};
