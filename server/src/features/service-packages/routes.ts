import { idParams } from '@edu/domain/common/bounds';
import type { RoutesPlugin } from '../../platform/responses.ts';
import {
  enrollBody,
  PackageMessages,
  packageReady,
  servicePackageAnswer,
  servicePackageListQuery,
  servicePackagesAnswer,
} from '@edu/domain/service-packages/service-package';
import { packageEnrolledAnswer } from '@edu/domain/service-packages/package-enrollment';
import { currentUser } from '../../platform/auth.ts';
import { notFound, validationError } from '../../platform/errors.ts';
import { findEntry } from '../entries/entries-repository.ts';
import { enrollPackageIn } from './enroll-package.ts';
import { loadPackages } from './load-packages.ts';
import { packageIdIs, packageListWhere } from './service-packages-repository.ts';
import { defaultAccess, isOperator } from '../../platform/access.ts';

export const servicePackageRoutes: RoutesPlugin = async (app) => {
  defaultAccess(app, 'user');

  /** GET /api/service-package?is_pinned=1&dict_profile_id=N ('null' or empty: packages for no profile). */
  app.get(
    '/',
    { schema: { tags: ['service-packages'], summary: 'Список пакетов услуг', querystring: servicePackageListQuery, response: { 200: servicePackagesAnswer } } },
    async (request) => {
      const q = request.query;
      const where = packageListWhere({
        pinned: q.is_pinned === undefined ? undefined : q.is_pinned === '1' || q.is_pinned === 'true',
        profileId: q.dict_profile_id === undefined ? undefined : typeof q.dict_profile_id === 'number' ? q.dict_profile_id : null,
      });
      return { data: await loadPackages(app.db, where, currentUser(request).id) };
    },
  );

  app.get(
    '/:id',
    { schema: { tags: ['service-packages'], summary: 'Пакет услуг по идентификатору', params: idParams, response: { 200: servicePackageAnswer } } },
    async (request) => {
      const [p] = await loadPackages(app.db, packageIdIs(request.params.id), currentUser(request).id);
      if (!p) throw notFound(PackageMessages.notFound);
      return { data: p };
    },
  );

  /** POST /api/service-package/{id}/enroll {services: {serviceId: sectionId}}: all entries or none, at the package price. */
  app.post(
    '/:id/enroll',
    {
      schema: {
        tags: ['service-packages'],
        summary: 'Записаться на пакет услуг',
        params: idParams,
        body: enrollBody,
        response: { 201: packageEnrolledAnswer },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const [pkg] = await loadPackages(app.db, packageIdIs(request.params.id), user.id);
      if (!pkg || pkg.services.length === 0) throw notFound(PackageMessages.notFound);
      const chosen = request.body.services;
      if (!packageReady(pkg.services, chosen)) throw validationError({ services: [PackageMessages.chooseSections] });
      const ids = await app.db.transaction((tx) => enrollPackageIn(tx, user, pkg, chosen));
      const entries = await Promise.all(ids.map((id) => findEntry(app.db, id, { asOperator: isOperator(user) })));
      return reply.status(201).send({ data: { entries, price: pkg.price }, message: PackageMessages.enrolled });
    },
  );
};
