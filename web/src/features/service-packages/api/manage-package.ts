import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Paginated } from '@edu/domain/common/pagination';
import type { z } from 'zod';
import type { packageDeletedAnswer, packageSavedAnswer, SavePackageBody } from '@edu/domain/service-packages/service-package';
import type { Service } from '@edu/domain/services/service';
import { api } from '../../../lib/api-client';

function usePackagesChanged() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: ['service-packages'] });
}

/** POST /api/service-package or PUT /api/service-package/{id}. */
export function useSavePackage() {
  const changed = usePackagesChanged();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: SavePackageBody }) =>
      id
        ? api.put<z.output<typeof packageSavedAnswer>>(`/api/service-package/${id}`, body)
        : api.post<z.output<typeof packageSavedAnswer>>('/api/service-package', body),
    onSuccess: changed,
  });
}

/** DELETE /api/service-package/{id}. */
export function useDeletePackage() {
  const changed = usePackagesChanged();
  return useMutation({ mutationFn: (id: number) => api.delete<z.output<typeof packageDeletedAnswer>>(`/api/service-package/${id}`), onSuccess: changed });
}

/** Services to put in a package, found by title (the operator sees hidden ones too). */
export function useServiceChoices(title: string) {
  return useQuery({
    queryKey: ['services', 'package-choices', title],
    queryFn: () =>
      api.get<Paginated<Service>>('/api/service', { query: { title: title.trim() || undefined, per_page: 30, past: title.trim() ? undefined : 0 } }),
    placeholderData: keepPreviousData,
  });
}
