import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { macroCategoriesAnswer } from '@edu/domain/macros/macros';
import { api } from './api-client';

export interface MacroItem {
  id: number;
  /** The macro as written in templates: ${user.fio}. */
  fdv: string;
  description: string | null;
}

export interface MacroCategory {
  id: number;
  fdv: string;
  macros: MacroItem[];
}

/** GET /api/macros: the catalogue by category (operators). Shared by the macros page and every template editor. */
export const macrosQuery = queryOptions({
  queryKey: ['macros'],
  queryFn: () => api.get<z.output<typeof macroCategoriesAnswer>>('/api/macros').then((r) => r.data),
  staleTime: Infinity,
});

export function useMacros() {
  return useQuery(macrosQuery);
}

/** Case-insensitive match on the macro or its description ('Поиск по названию или описанию'). */
export function matchesMacro(m: MacroItem, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return m.fdv.toLowerCase().includes(q) || (m.description ?? '').toLowerCase().includes(q);
}
