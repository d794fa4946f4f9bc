import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ServicePackage, servicePackagesAnswer } from '@edu/domain/service-packages/service-package';
import { api } from '../../../lib/api-client';

export interface PackageFilters {
  pinned?: boolean;
  /** A profile id, or null for packages meant for no profile; undefined for all. */
  profileId?: number | null;
}

/** GET /api/service-package?is_pinned=1&dict_profile_id=N|null: packages with their services and sections. */
export async function getPackages(filters: PackageFilters = {}): Promise<ServicePackage[]> {
  const answer = await api.get<z.output<typeof servicePackagesAnswer>>('/api/service-package', {
    query: {
      is_pinned: filters.pinned === undefined ? undefined : filters.pinned ? 1 : 0,
      dict_profile_id: filters.profileId === undefined ? undefined : filters.profileId === null ? 'null' : filters.profileId,
    },
  });
  return answer.data;
}

export const packagesQuery = (filters: PackageFilters = {}) => queryOptions({ queryKey: ['service-packages', filters], queryFn: () => getPackages(filters) });

export function usePackages(filters: PackageFilters = {}) {
  return useQuery(packagesQuery(filters));
}
