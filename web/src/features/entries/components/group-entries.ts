import { EntryStatus } from '@edu/domain/common/codes';
import type { Entry } from '@edu/domain/entries/entry';

/** One line of a list: an ordinary entry, or a package purchase with its entries. */
export type EntryItem =
  { kind: 'entry'; key: string; entry: Entry } | { kind: 'package'; key: string; title: string; price: number; entries: Entry[]; lead: Entry };

/**
 * Entries of one intact package purchase shown as one purchase, under the package's name and price
 * (docs/decisions/009-package-purchases.md); the rest one by one, in the list's order.
 */
export function groupEntries(entries: Entry[]): EntryItem[] {
  const items: EntryItem[] = [];
  const packages = new Map<number, Extract<EntryItem, { kind: 'package' }>>();
  for (const entry of entries) {
    const p = entry.package_enrollment;
    if (!p || p.broken) {
      items.push({ kind: 'entry', key: `e${entry.id}`, entry });
      continue;
    }
    const existing = packages.get(p.id);
    if (existing) {
      existing.entries.push(entry);
      continue;
    }
    const item = { kind: 'package' as const, key: `p${p.id}`, title: p.title, price: p.price, entries: [entry], lead: entry };
    packages.set(p.id, item);
    items.push(item);
  }
  for (const item of packages.values()) {
    item.entries.sort((a, b) => a.id - b.id);
    // The entry that speaks for the purchase: the least advanced one (unpaid while any is unpaid).
    item.lead = item.entries.reduce((a, b) => (b.status < a.status ? b : a));
  }
  return items;
}

/** Is the entry (or purchase, through its lead entry) waiting for money? */
export const isUnpaid = (entry: Entry) => entry.status === EntryStatus.notPaid && !entry.deleted_at;
