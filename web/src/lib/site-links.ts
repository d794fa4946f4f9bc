import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { siteLinksAnswer, SiteLinks } from '@edu/domain/settings/site-links';
import { api } from './api-client';

/**
 * GET /api/site-links: the top bar's shortcuts and the footer's requisites page, set by operators
 * in the settings (not baked into the build). Empty until set.
 */
export const siteLinksQuery = queryOptions({
  queryKey: ['settings', 'site-links'],
  queryFn: ({ signal }) => api.get<z.output<typeof siteLinksAnswer>>('/api/site-links', { protectedCall: false, signal }).then((r) => r.data),
  staleTime: 5 * 60_000,
});

export function useSiteLinks(): SiteLinks | undefined {
  return useQuery(siteLinksQuery).data;
}

/** Where operators set the links and the centre's requisites. */
export const SITE_LINKS_SETTINGS_PATH = '/manager/macroses?tab=requisites';
