import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type Requisites = Record<string, string>;

interface RequisitesAnswer {
  data: Requisites;
  fields: { key: string; label: string }[];
}

/** GET /api/settings/requisites: the centre's requisites used by ${org.*} macros. */
export const requisitesQuery = queryOptions({
  queryKey: ['settings', 'requisites'],
  queryFn: () => api.get<RequisitesAnswer>('/api/settings/requisites'),
});

export function useRequisites() {
  return useQuery(requisitesQuery);
}

/** PUT /api/settings/requisites. */
export function useSaveRequisites() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: Requisites) => api.put<{ data: Requisites; message: string }>('/api/settings/requisites', values),
    onSuccess: () => client.invalidateQueries({ queryKey: requisitesQuery.queryKey }),
  });
}
