import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { servicePackages, servicePackageServices } from '../../db/schema/index.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { EntryStatus } from '@edu/domain/common/codes';
import { intArray } from '../../platform/list-query.ts';

export type ServicePackageRow = typeof servicePackages.$inferSelect;
export type ServicePackageLink = typeof servicePackageServices.$inferSelect;
/** The columns an operator saves (the 'Пакеты услуг' form). */
export type ServicePackageValues = Pick<
  typeof servicePackages.$inferInsert,
  'title' | 'description' | 'color' | 'price' | 'old_price' | 'points' | 'is_pinned' | 'dict_profile_id'
>;

/** The condition of the package list's filters: pinned or not; one profile's packages, or those of no profile (null). */
export function packageListWhere(f: { pinned?: boolean; profileId?: number | null }): SQL | undefined {
  const parts: SQL[] = [];
  if (f.pinned !== undefined) parts.push(eq(servicePackages.is_pinned, f.pinned));
  if (f.profileId !== undefined) parts.push(f.profileId === null ? isNull(servicePackages.dict_profile_id) : eq(servicePackages.dict_profile_id, f.profileId));
  return parts.length ? and(...parts) : undefined;
}

/** The condition of one package by id. */
export function packageIdIs(id: number): SQL {
  return eq(servicePackages.id, id);
}

/** Live packages matching where, by id. */
export async function listPackageRows(db: Queryable, where: SQL | undefined): Promise<ServicePackageRow[]> {
  return db
    .select()
    .from(servicePackages)
    .where(and(isNull(servicePackages.deleted_at), where))
    .orderBy(asc(servicePackages.id));
}

/** The services of these packages, in each package's order. */
export async function listPackageLinks(db: Queryable, packageIds: number[]): Promise<ServicePackageLink[]> {
  if (packageIds.length === 0) return [];
  return db
    .select()
    .from(servicePackageServices)
    .where(inArray(servicePackageServices.service_package_id, packageIds))
    .orderBy(asc(servicePackageServices.position));
}

/** How many of these service ids name live services. */
export async function countLiveServices(db: Queryable, serviceIds: number[]): Promise<number> {
  if (serviceIds.length === 0) return 0;
  const found = await rows<{ id: number }>(
    db,
    sql`select id from services where deleted_at is null and id in (${sql.join(
      serviceIds.map((i) => sql`${i}`),
      sql`, `,
    )})`,
  );
  return found.length;
}

export async function profileExists(db: Queryable, profileId: number): Promise<boolean> {
  const [p] = await rows<{ id: number }>(db, sql`select id from dict_profiles where id = ${profileId}`);
  return Boolean(p);
}

/** A package as the change log records it: prices as numbers, services as their ids in order. */
export async function packageSnapshot(db: Queryable, id: number): Promise<Record<string, unknown> | null> {
  const [p] = await db.select().from(servicePackages).where(eq(servicePackages.id, id));
  if (!p) return null;
  const links = await rows<{ service_id: number }>(db, sql`select service_id from service_package_services where service_package_id = ${id} order by position`);
  return { ...p, price: Number(p.price), old_price: p.old_price === null ? null : Number(p.old_price), services: links.map((l) => l.service_id) };
}

export async function insertPackage(db: Queryable, values: ServicePackageValues): Promise<number> {
  const [{ id }] = await db.insert(servicePackages).values(values).returning({ id: servicePackages.id });
  return id;
}

export async function updatePackage(db: Queryable, id: number, values: ServicePackageValues): Promise<void> {
  await db
    .update(servicePackages)
    .set({ ...values, updated_at: new Date() })
    .where(eq(servicePackages.id, id));
}

/** Unpins every other live package of the profile; the ids it unpinned. */
export async function unpinOtherPackages(db: Queryable, id: number, profileId: number | null): Promise<number[]> {
  const unpinned = await rows<{ id: number }>(
    db,
    sql`update service_packages set is_pinned = false, updated_at = now()
        where is_pinned and deleted_at is null and id <> ${id} and dict_profile_id is not distinct from ${profileId} returning id`,
  );
  return unpinned.map((u) => u.id);
}

/** The package's services become these, in this order. */
export async function replacePackageServices(db: Queryable, id: number, serviceIds: number[]): Promise<void> {
  await db.delete(servicePackageServices).where(eq(servicePackageServices.service_package_id, id));
  await db.insert(servicePackageServices).values(serviceIds.map((service_id, position) => ({ service_package_id: id, service_id, position })));
}

/** Locks a live package for the rest of the transaction; false when there is none. */
export async function lockPackage(tx: Queryable, id: number): Promise<boolean> {
  const [p] = await rows<{ id: number }>(tx, sql`select id from service_packages where id = ${id} and deleted_at is null for update`);
  return Boolean(p);
}

/** Soft delete: enrolments already made keep their package. */
export async function deletePackage(db: Queryable, id: number, now: Date): Promise<void> {
  await db.update(servicePackages).set({ deleted_at: now, is_pinned: false, updated_at: now }).where(eq(servicePackages.id, id));
}

export interface PurchaseRow {
  id: number;
  service_package_id: number;
  paid: boolean;
  numbers: string[];
}

/**
 * The user's live purchase of each of these packages, the newest: an enrollment not broken up whose
 * entries are live (not deleted, not refunded); paid when every one of them is paid or done.
 */
export function livePurchases(db: Queryable, userId: number, packageIds: number[]): Promise<PurchaseRow[]> {
  if (packageIds.length === 0) return Promise.resolve([]);
  return rows<PurchaseRow>(
    db,
    sql`select distinct on (pe.service_package_id) pe.id, pe.service_package_id,
          bool_and(e.status in (${EntryStatus.paid}, ${EntryStatus.done})) as paid,
          array_agg(e.number order by e.number) as numbers
        from package_enrollments pe
        join entries e on e.package_enrollment_id = pe.id and e.deleted_at is null and e.status <> ${EntryStatus.refunded}
        where pe.user_id = ${userId} and pe.broken_at is null and pe.service_package_id = any(${intArray(packageIds)})
        group by pe.id, pe.service_package_id
        order by pe.service_package_id, pe.id desc`,
  );
}
