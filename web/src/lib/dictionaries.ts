import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DictionaryItem, DictionaryName, dictionaryAnswer } from '@edu/domain/dictionaries/dictionaries';
import { api } from './api-client';

/** dict_service_types: a service type with its colour, icon and points. */
export interface ServiceTypeItem extends DictionaryItem {
  points: number;
  color: string | null;
  icon: string | null;
  is_publication: boolean;
  description?: string | null;
}

/** dict_service_subtypes: belongs to a type; publication subtypes have their own entry form. */
export interface ServiceSubtypeItem extends DictionaryItem {
  dict_service_type_id: number;
  points: number;
  is_publication: boolean;
}

/** dict_profiles: a work profile with its badge colour. */
export interface ProfileItem extends DictionaryItem {
  color: string | null;
}

interface DictionaryTypes {
  dict_service_types: ServiceTypeItem;
  dict_service_subtypes: ServiceSubtypeItem;
  dict_profiles: ProfileItem;
}

type ItemOf<N extends DictionaryName> = N extends keyof DictionaryTypes ? DictionaryTypes[N] : DictionaryItem;

/** GET /api/dictionaries/{name}: the list is in data.data, sorted by id. */
export async function getDictionary<N extends DictionaryName>(name: N): Promise<Array<ItemOf<N>>> {
  const answer = await api.get<z.output<typeof dictionaryAnswer>>(`/api/dictionaries/${name}`);
  return answer.data.data as Array<ItemOf<N>>;
}

/** Dictionaries change rarely: loaded once per session and shared by every screen. */
export function dictionaryQuery<N extends DictionaryName>(name: N) {
  return queryOptions({ queryKey: ['dictionaries', name], queryFn: () => getDictionary(name), staleTime: Infinity });
}

export function useDictionary<N extends DictionaryName>(name: N) {
  return useQuery(dictionaryQuery(name));
}
