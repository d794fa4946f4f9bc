import { useQuery } from '@tanstack/react-query';
import type { JoomlaOption } from '@edu/domain/services/service-form';
import { api, isApiError } from './api-client';

/** What the site keeps: its categories or its tags. */
export type SiteLookupKind = 'categories' | 'tags';

/**
 * POST /api/joomla/categories or /api/joomla/tags {joomla_system: 'site'}: the site's own lists, so
 * operators choose a category or a tag by its name. Fails with 422 when no site is connected.
 */
export function useSiteLookup(kind: SiteLookupKind, enabled = true) {
  return useQuery({
    queryKey: ['joomla', kind, 'site'],
    queryFn: () => api.post<{ data: JoomlaOption[] }>(`/api/joomla/${kind}`, { joomla_system: 'site' }).then((a) => a.data),
    enabled,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

export type SiteLookup = ReturnType<typeof useSiteLookup>;

/** Why the list is not there, in Russian: no site connected (422), or the site did not answer. */
export function siteLookupProblem(lookup: SiteLookup): string | null {
  if (!lookup.isError) return null;
  return isApiError(lookup.error) && lookup.error.status === 422 ? 'Сайт не подключён' : 'Сайт не ответил';
}

/** How a list cell names a stored category or tag: its title on the site, never its number. */
export function siteItemName(lookup: SiteLookup, id: number | null | undefined): string {
  if (!id) return '—';
  if (lookup.data) return lookup.data.find((o) => o.id === id)?.title ?? 'нет на сайте';
  return 'задано';
}
