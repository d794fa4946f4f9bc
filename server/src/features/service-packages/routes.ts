import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Role } from '@edu/domain/common/codes';
import { enrollBody, packageReady, servicePackageListQuery, type ServicePackage } from '@edu/domain/service-packages/service-package';
import { servicePackages, servicePackageServices } from '../../db/schema/index.ts';
import { currentUser } from '../../platform/auth.ts';
import type { Queryable } from '../../platform/db.ts';
import { notFound, validationError } from '../../platform/errors.ts';
import { scheduleJob } from '../../platform/jobs.ts';
import { PACKAGE_PAY_WINDOW_MIN } from '@edu/domain/service-packages/service-package';
import { getServices } from '../services/services-repository.ts';
import { createEntryIn } from '../entries/entry-rules.ts';
import { findEntry } from '../entries/entries-repository.ts';

export const PackageMessages = {
  chooseSections: 'Выберите секцию для каждой услуги пакета',
  notFound: 'Пакет услуг не найден',
  enrolled: 'Заявка успешно отправлена!',
} as const;

async function loadPackages(db: Queryable, where: SQL | undefined): Promise<ServicePackage[]> {
  const list = await db.select().from(servicePackages).where(and(isNull(servicePackages.deleted_at), where)).orderBy(asc(servicePackages.id));
  if (list.length === 0) return [];
  const links = await db
    .select()
    .from(servicePackageServices)
    .where(sql`${servicePackageServices.service_package_id} in (${sql.join(list.map((p) => sql`${p.id}`), sql`, `)})`)
    .orderBy(asc(servicePackageServices.position));
  const services = new Map((await getServices(db, [...new Set(links.map((l) => l.service_id))], false)).map((s) => [s.id, s]));
  return list.map((p) => ({
    id: p.id,
    title: p.title,
    description: p.description,
    color: p.color,
    price: p.price,
    oldPrice: p.old_price,
    points: p.points,
    is_pinned: p.is_pinned,
    pinned: p.is_pinned,
    dict_profile_id: p.dict_profile_id,
    services: links.filter((l) => l.service_package_id === p.id && services.has(l.service_id)).map((l) => services.get(l.service_id)!),
  }));
}

/** Splits the package price over its services in proportion to their prices, to the kopeck, summing exactly. */
export function splitPrice(total: number, prices: number[]): number[] {
  const sum = prices.reduce((a, b) => a + b, 0);
  const totalKop = Math.round(total * 100);
  const parts = prices.map((p) => (sum > 0 ? Math.floor((p / sum) * totalKop) : Math.floor(totalKop / prices.length)));
  parts[parts.length - 1] += totalKop - parts.reduce((a, b) => a + b, 0);
  return parts.map((k) => k / 100);
}

export const servicePackageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.requireUser);

  /** GET /api/service-package?is_pinned=1&dict_profile_id=N ('null' or empty: packages for no profile). */
  app.get('/', { schema: { tags: ['service-packages'], querystring: servicePackageListQuery } }, async (request) => {
    const q = request.query;
    const parts: SQL[] = [];
    if (q.is_pinned !== undefined) parts.push(eq(servicePackages.is_pinned, q.is_pinned === '1' || q.is_pinned === 'true'));
    if (q.dict_profile_id !== undefined) {
      parts.push(typeof q.dict_profile_id === 'number' ? eq(servicePackages.dict_profile_id, q.dict_profile_id) : isNull(servicePackages.dict_profile_id));
    }
    return { data: await loadPackages(app.db, parts.length ? and(...parts) : undefined) };
  });

  app.get('/:id', { schema: { tags: ['service-packages'], params: z.object({ id: z.coerce.number().int() }) } }, async (request) => {
    const [p] = await loadPackages(app.db, eq(servicePackages.id, request.params.id));
    if (!p) throw notFound(PackageMessages.notFound);
    return { data: p };
  });

  /** POST /api/service-package/{id}/enroll {services: {serviceId: sectionId}}: all entries or none, at the package price. */
  app.post(
    '/:id/enroll',
    { schema: { tags: ['service-packages'], params: z.object({ id: z.coerce.number().int() }), body: enrollBody } },
    async (request, reply) => {
      const user = currentUser(request);
      const [pkg] = await loadPackages(app.db, eq(servicePackages.id, request.params.id));
      if (!pkg) throw notFound(PackageMessages.notFound);
      const chosen = request.body.services;
      if (!packageReady(pkg.services, chosen)) throw validationError({ services: [PackageMessages.chooseSections] });
      const prices = splitPrice(pkg.price, pkg.services.map((s) => s.price));
      const ids = await app.db.transaction(async (tx) => {
        const created: number[] = [];
        for (const [i, s] of pkg.services.entries()) {
          created.push(
            await createEntryIn(tx, user, { service_id: s.id, section_id: chosen[String(s.id)] ?? null, pay_type: 3, is_extramural: s.participation_type === 3 ? 1 : 0 }, { price: prices[i], servicePackageId: pkg.id }),
          );
        }
        // Unpaid after 15 minutes: removed by a durable job (survives restarts, any instance runs it).
        await scheduleJob(tx, 'expire-package', { entryIds: created }, { runAt: new Date(Date.now() + PACKAGE_PAY_WINDOW_MIN * 60_000) });
        return created;
      });
      const entries = await Promise.all(ids.map((id) => findEntry(app.db, id, { asOperator: user.role === Role.operator })));
      return reply.status(201).send({ data: { entries, price: pkg.price }, message: PackageMessages.enrolled });
    },
  );
};
