import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './codes.ts';

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), { message: 'Допустимые размеры страницы: 15, 30, 100' })
    .default(DEFAULT_PAGE_SIZE),
});
export type PageQuery = z.infer<typeof pageQuery>;

export interface PageMeta {
  current_page: number;
  last_page: number;
  total: number;
  per_page: number;
}

export interface Paginated<T> {
  data: T[];
  meta: PageMeta;
}

export function pageMeta(total: number, q: PageQuery): PageMeta {
  return { current_page: q.page, last_page: Math.max(1, Math.ceil(total / q.per_page)), total, per_page: q.per_page };
}

/** `?sort=column` or `?sort=-column` (descending); each list accepts its own columns. */
export const sortField = z
  .string()
  .trim()
  .regex(/^-?[a-z_]{1,40}$/, { message: 'Неизвестная сортировка' })
  .optional();

/** Page plus sort: the base of every operator list's query schema. */
export const listQuery = pageQuery.extend({ sort: sortField });
export type ListQuery = z.infer<typeof listQuery>;
