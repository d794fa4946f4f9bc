import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './codes.ts';

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), { message: 'Допустимые размеры страницы: 15, 30, 100' })
    .default(DEFAULT_PAGE_SIZE)
    // The API document states the sizes the refinement accepts.
    .meta({ enum: [...PAGE_SIZES] }),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const pageMetaSchema = z.object({
  current_page: z.number().int(),
  last_page: z.number().int(),
  total: z.number().int(),
  per_page: z.number().int(),
});
export type PageMeta = z.output<typeof pageMetaSchema>;

export interface Paginated<T> {
  data: T[];
  meta: PageMeta;
}

/**
 * Operator lists over big tables (entries, users) stop counting past this many matches: the
 * server reports COUNT_CAP + 1 and the page shows «более 1 000»; the operator narrows the filter.
 */
export const COUNT_CAP = 1_000;

const groupDigits = (n: number) => new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 }).format(n).replace(/\u00a0|\u202f/g, ' ');

/**
 * The total as a list shows it: '1 000', or 'более 1 000' when the server stopped counting at
 * `cap` (it answers cap + 1 then). Pass the list's own cap when it is not COUNT_CAP.
 */
export function totalLabel(total: number, cap: number = COUNT_CAP): string {
  return total > cap ? `более ${groupDigits(cap)}` : groupDigits(total);
}

export function pageMeta(total: number, q: PageQuery): PageMeta {
  return { current_page: q.page, last_page: Math.max(1, Math.ceil(total / q.per_page)), total, per_page: q.per_page };
}

export const SORT_MESSAGE = 'Неизвестная сортировка';

/** A list's sort value: a key (ascending) or `-key` (descending). */
export type SortValue<K extends string> = K | `-${K}`;

/**
 * `?sort=key` or `?sort=-key` (descending) over a list's own whitelisted keys: anything else is a
 * 422 with SORT_MESSAGE (the server never builds SQL from an unknown value). Empty means the
 * list's default order.
 */
export function sortParam<const K extends string>(keys: readonly K[]) {
  const values = keys.flatMap((k) => [k, `-${k}`]) as [SortValue<K>, ...Array<SortValue<K>>];
  return z.preprocess((v) => (v === '' ? undefined : v), z.enum(values, { error: SORT_MESSAGE }).optional());
}

/** The key and direction of a sort value; null for the default order. */
export function sortParts<K extends string>(sort: SortValue<K> | undefined | null): { key: K; desc: boolean } | null {
  if (!sort) return null;
  return sort.startsWith('-') ? { key: sort.slice(1) as K, desc: true } : { key: sort as K, desc: false };
}

/** `?sort=column` or `?sort=-column` (descending), checked only for shape (lists with few rows). */
export const sortField = z
  .string()
  .trim()
  .regex(/^-?[a-z_]{1,40}$/, { message: 'Неизвестная сортировка' })
  .optional();

/** Page plus sort: the base of every operator list's query schema. */
export const listQuery = pageQuery.extend({ sort: sortField });
export type ListQuery = z.infer<typeof listQuery>;
