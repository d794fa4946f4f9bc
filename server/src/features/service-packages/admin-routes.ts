import { z } from 'zod';
import { rublesOf } from '@edu/domain/common/money';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { Messages } from '@edu/domain/common/messages';
import { packageDeletedAnswer, PackageFormMessages, packageSavedAnswer, savePackageBody } from '@edu/domain/service-packages/service-package';
import type { AuthUser } from '../../platform/auth.ts';
import { currentUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import type { Queryable } from '../../platform/db.ts';
import { notFound, validationError } from '../../platform/errors.ts';
import { PackageMessages } from '@edu/domain/service-packages/service-package';
import {
  countLiveServices,
  deletePackage,
  insertPackage,
  lockPackage,
  packageSnapshot,
  profileExists,
  replacePackageServices,
  unpinOtherPackages,
  updatePackage,
  type ServicePackageValues,
} from './service-packages-repository.ts';

type Input = z.output<typeof savePackageBody>;
const idParams = z.object({ id: z.coerce.number().int().positive() });

async function check(tx: Queryable, input: Input): Promise<void> {
  const errors: Record<string, string[]> = {};
  if ((await countLiveServices(tx, input.services)) !== input.services.length) errors.services = [PackageFormMessages.unknownService];
  if (input.dict_profile_id && !(await profileExists(tx, input.dict_profile_id))) errors.dict_profile_id = [PackageFormMessages.unknownProfile];
  if (Object.keys(errors).length) throw validationError(errors);
}

/** One pinned package per profile (the cabinet shows one): pinning this one unpins the others of its profile. */
async function save(tx: Queryable, user: AuthUser, id: number | null, input: Input): Promise<number> {
  await check(tx, input);
  const before = id ? await packageSnapshot(tx, id) : null;
  const values: ServicePackageValues = {
    title: input.title,
    description: input.description ?? null,
    color: input.color,
    price: rublesOf(input.price),
    old_price: input.old_price == null ? null : rublesOf(input.old_price),
    points: input.points,
    is_pinned: input.is_pinned,
    dict_profile_id: input.dict_profile_id ?? null,
  };
  let pkgId: number;
  if (id) await updatePackage(tx, (pkgId = id), values);
  else pkgId = await insertPackage(tx, values);
  if (input.is_pinned) {
    const unpinned = await unpinOtherPackages(tx, pkgId, values.dict_profile_id ?? null);
    for (const u of unpinned)
      await logChange(tx, { type: 'service_package', entityId: u, userId: user.id, before: { is_pinned: true }, after: { is_pinned: false } });
  }
  await replacePackageServices(tx, pkgId, input.services);
  await logChange(tx, { type: 'service_package', entityId: pkgId, userId: user.id, before, after: await packageSnapshot(tx, pkgId) });
  return pkgId;
}

/** Operator calls of /manager/service-package, registered in the operator scope (app.ts). */
export const servicePackageAdminRoutes: RoutesPlugin = async (app) => {
  app.post(
    '/',
    { schema: { tags: ['service-packages'], summary: 'Создать пакет услуг', body: savePackageBody, response: { 201: packageSavedAnswer } } },
    async (request, reply) => {
      const id = await app.db.transaction((tx) => save(tx, currentUser(request), null, request.body));
      return reply.status(201).send({ data: { id }, message: Messages.saved });
    },
  );

  app.put(
    '/:id',
    { schema: { tags: ['service-packages'], summary: 'Изменить пакет услуг', params: idParams, body: savePackageBody, response: { 200: packageSavedAnswer } } },
    async (request) => {
      await app.db.transaction(async (tx) => {
        if (!(await lockPackage(tx, request.params.id))) throw notFound(PackageMessages.notFound);
        await save(tx, currentUser(request), request.params.id, request.body);
      });
      return { data: { id: request.params.id }, message: Messages.saved };
    },
  );

  /** Soft delete: enrolments already made keep their package. */
  app.delete(
    '/:id',
    { schema: { tags: ['service-packages'], summary: 'Удалить пакет услуг', params: idParams, response: { 200: packageDeletedAnswer } } },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const id = request.params.id;
        if (!(await lockPackage(tx, id))) throw notFound(PackageMessages.notFound);
        const now = new Date();
        await deletePackage(tx, id, now);
        await logChange(tx, {
          type: 'service_package',
          entityId: id,
          userId: currentUser(request).id,
          before: { deleted_at: null },
          after: { deleted_at: now },
        });
      });
      return { message: Messages.deleted };
    },
  );
};
