import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './codes.ts';

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
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
