import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Service, serviceAnswer } from '@edu/domain/services/service';
import { api } from './api-client';

/**
 * GET /api/service/{id}, one call shared by the catalogue (the enrol modal of /user/service/{id}) and
 * the entry edit form (sections and participation); one cache entry per service.
 * 404 'Услуга не найдена :(' for a hidden, deleted or unknown service.
 */
export async function getService(id: number): Promise<Service> {
  const answer = await api.get<z.output<typeof serviceAnswer>>(`/api/service/${id}`);
  return answer.data;
}

export const serviceQuery = (id: number) => queryOptions({ queryKey: ['services', 'detail', id], queryFn: () => getService(id), retry: false });

export function useService(id: number | null) {
  return useQuery({ ...serviceQuery(id ?? 0), enabled: id !== null && id > 0 });
}
