import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { siteLinksBody, siteLinksSavedAnswer } from '@edu/domain/settings/site-links';
import { api } from '../../../lib/api-client';
import { siteLinksQuery } from '../../../lib/site-links';

/** PUT /api/settings/site-links: the top bar's shortcuts and the footer's requisites page. */
export function useSaveSiteLinks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: z.input<typeof siteLinksBody>) => api.put<z.output<typeof siteLinksSavedAnswer>>('/api/settings/site-links', values),
    onSuccess: (answer) => client.setQueryData(siteLinksQuery.queryKey, answer.data),
  });
}
