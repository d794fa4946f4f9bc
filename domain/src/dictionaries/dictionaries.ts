/** Dictionaries loaded at start, answered by GET /api/dictionaries/{name} as {data: {data: [...]}}. */
export const DICTIONARY_NAMES = [
  'dict_profiles',
  'dict_service_types',
  'dict_service_subtypes',
  'dict_macros_categories',
  'dict_macroses',
  'dict_template_types',
  'dict_events',
  'dict_publication_categories',
  'dict_document_types',
  'dict_regions',
] as const;
export type DictionaryName = (typeof DICTIONARY_NAMES)[number];

export interface DictionaryItem {
  id: number;
  fdv: string;
  [key: string]: unknown;
}

export function isDictionaryName(name: string): name is DictionaryName {
  return (DICTIONARY_NAMES as readonly string[]).includes(name);
}
