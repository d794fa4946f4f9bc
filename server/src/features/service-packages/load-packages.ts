import type { SQL } from 'drizzle-orm';
import type { ServicePackage } from '@edu/domain/service-packages/service-package';
import type { Queryable } from '../../platform/db.ts';
import { getServices } from '../services/services-repository.ts';
import { appliedEntries } from './enroll-package.ts';
import { listPackageLinks, listPackageRows, livePurchases, type PurchaseRow } from './service-packages-repository.ts';

/** Live packages matching where (service-packages-repository's conditions), each with its services and the asker's entries for them. */
export async function loadPackages(db: Queryable, where: SQL | undefined, userId: number): Promise<ServicePackage[]> {
  const list = await listPackageRows(db, where);
  if (list.length === 0) return [];
  const links = await listPackageLinks(
    db,
    list.map((p) => p.id),
  );
  const serviceIds = [...new Set(links.map((l) => l.service_id))];
  const services = new Map((await getServices(db, serviceIds, false)).map((s) => [s.id, s]));
  const applied = await appliedEntries(db, userId, serviceIds);
  const purchases = new Map(
    (
      await livePurchases(
        db,
        userId,
        list.map((p) => p.id),
      )
    ).map((p) => [p.service_package_id, p]),
  );
  return list.map((p) => {
    const own = links.filter((l) => l.service_package_id === p.id && services.has(l.service_id)).map((l) => services.get(l.service_id)!);
    return {
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
      services: own,
      applied: applied
        .filter((a) => own.some((s) => s.id === a.service_id))
        .map(({ service_id, entry_id, entry_number }) => ({ service_id, entry_id, entry_number })),
      purchase: purchaseOf(purchases.get(p.id)),
    };
  });
}

function purchaseOf(row: PurchaseRow | undefined): ServicePackage['purchase'] {
  return row ? { enrollment_id: row.id, paid: row.paid, entry_numbers: row.numbers } : null;
}
