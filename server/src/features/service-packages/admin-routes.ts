import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Messages } from '@edu/domain/common/messages';
import { PackageFormMessages, savePackageBody } from '@edu/domain/service-packages/service-package';
import { servicePackages, servicePackageServices } from '../../db/schema/index.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { currentUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { notFound, validationError } from '../../platform/errors.ts';
import { PackageMessages } from './routes.ts';

type Input = z.output<typeof savePackageBody>;
const idParams = z.object({ id: z.coerce.number().int().positive() });

async function check(tx: Queryable, input: Input): Promise<void> {
  const errors: Record<string, string[]> = {};
  const found = await rows<{ id: number }>(tx, sql`select id from services where deleted_at is null and id in (${sql.join(input.services.map((i) => sql`${i}`), sql`, `)})`);
  if (found.length !== input.services.length) errors.services = [PackageFormMessages.unknownService];
  if (input.dict_profile_id) {
    const [p] = await rows<{ id: number }>(tx, sql`select id from dict_profiles where id = ${input.dict_profile_id}`);
    if (!p) errors.dict_profile_id = [PackageFormMessages.unknownProfile];
  }
  if (Object.keys(errors).length) throw validationError(errors);
}

async function snapshot(tx: Queryable, id: number): Promise<Record<string, unknown> | null> {
  const [p] = await tx.select().from(servicePackages).where(sql`id = ${id}`);
  if (!p) return null;
  const links = await rows<{ service_id: number }>(tx, sql`select service_id from service_package_services where service_package_id = ${id} order by position`);
  return { ...p, price: Number(p.price), old_price: p.old_price === null ? null : Number(p.old_price), services: links.map((l) => l.service_id) };
}

/** One pinned package per profile (the cabinet shows one): pinning this one unpins the others of its profile. */
async function save(tx: Queryable, user: AuthUser, id: number | null, input: Input): Promise<number> {
  await check(tx, input);
  const before = id ? await snapshot(tx, id) : null;
  const values = {
    title: input.title,
    description: input.description ?? null,
    color: input.color,
    price: input.price,
    old_price: input.old_price ?? null,
    points: input.points,
    is_pinned: input.is_pinned,
    dict_profile_id: input.dict_profile_id ?? null,
  };
  let pkgId = id;
  if (pkgId) await tx.update(servicePackages).set({ ...values, updated_at: new Date() }).where(sql`id = ${pkgId}`);
  else [{ id: pkgId }] = await tx.insert(servicePackages).values(values).returning({ id: servicePackages.id });
  if (input.is_pinned) {
    const unpinned = await rows<{ id: number }>(
      tx,
      sql`update service_packages set is_pinned = false, updated_at = now()
          where is_pinned and deleted_at is null and id <> ${pkgId} and dict_profile_id is not distinct from ${values.dict_profile_id} returning id`,
    );
    for (const u of unpinned) await logChange(tx, { type: 'service_package', entityId: u.id, userId: user.id, before: { is_pinned: true }, after: { is_pinned: false } });
  }
  await tx.delete(servicePackageServices).where(sql`service_package_id = ${pkgId}`);
  await tx.insert(servicePackageServices).values(input.services.map((service_id, position) => ({ service_package_id: pkgId!, service_id, position })));
  await logChange(tx, { type: 'service_package', entityId: pkgId!, userId: user.id, before, after: await snapshot(tx, pkgId!) });
  return pkgId!;
}

/** Operator calls of /manager/service-package, registered in the operator scope (app.ts). */
export const servicePackageAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/', { schema: { tags: ['service-packages'], body: savePackageBody } }, async (request, reply) => {
    const id = await app.db.transaction((tx) => save(tx, currentUser(request), null, request.body));
    return reply.status(201).send({ data: { id }, message: Messages.saved });
  });

  app.put('/:id', { schema: { tags: ['service-packages'], params: idParams, body: savePackageBody } }, async (request) => {
    await app.db.transaction(async (tx) => {
      const [p] = await rows<{ id: number }>(tx, sql`select id from service_packages where id = ${request.params.id} and deleted_at is null for update`);
      if (!p) throw notFound(PackageMessages.notFound);
      await save(tx, currentUser(request), p.id, request.body);
    });
    return { data: { id: request.params.id }, message: Messages.saved };
  });

  /** Soft delete: enrolments already made keep their package. */
  app.delete('/:id', { schema: { tags: ['service-packages'], params: idParams } }, async (request) => {
    await app.db.transaction(async (tx) => {
      const [p] = await rows<{ id: number }>(tx, sql`select id from service_packages where id = ${request.params.id} and deleted_at is null for update`);
      if (!p) throw notFound(PackageMessages.notFound);
      const now = new Date();
      await tx.update(servicePackages).set({ deleted_at: now, is_pinned: false, updated_at: now }).where(sql`id = ${p.id}`);
      await logChange(tx, { type: 'service_package', entityId: p.id, userId: currentUser(request).id, before: { deleted_at: null }, after: { deleted_at: now } });
    });
    return { message: Messages.deleted };
  });
};
