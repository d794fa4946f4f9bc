import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { joomlaOptionsAnswer } from '@edu/domain/services/service-form';
import { api, isApiError } from './api-client';

/** What the site keeps: its categories or its tags. */
export type SiteLookupKind = 'categories' | 'tags';
/** Which site: the main one (services) or the journal's (publications and their rubrics, decision 026). */
export type SiteSystem = 'site' | 'journal';

/**
 * POST /api/joomla/categories or /api/joomla/tags {joomla_system}: the site's own lists, so operators
 * choose a category or a tag by its name. Fails with 422 when that site is not connected.
 */
export function useSiteLookup(kind: SiteLookupKind, system: SiteSystem = 'site', enabled = true) {
  return useQuery({
    queryKey: ['joomla', kind, system],
    queryFn: () => api.post<z.output<typeof joomlaOptionsAnswer>>(`/api/joomla/${kind}`, { joomla_system: system }).then((a) => a.data),
    enabled,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

export type SiteLookup = ReturnType<typeof useSiteLookup>;

/** No such site is set up on the server (the lookup answers 422). */
export function siteNotConnected(lookup: SiteLookup): boolean {
  return lookup.isError && isApiError(lookup.error) && lookup.error.status === 422;
}

/** Why the list is not there, in Russian: no site connected (422), or the site did not answer. */
export function siteLookupProblem(lookup: SiteLookup): string | null {
  if (!lookup.isError) return null;
  return siteNotConnected(lookup) ? 'Сайт не подключён' : 'Сайт не ответил';
}

/** How a list cell names a stored category or tag: its title on the site, never its number. */
export function siteItemName(lookup: SiteLookup, id: number | null | undefined): string {
  if (!id) return '—';
  if (lookup.data) return lookup.data.find((o) => o.id === id)?.title ?? 'нет на сайте';
  return 'задано';
}
