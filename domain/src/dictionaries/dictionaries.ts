import { z } from 'zod';
import { dataAnswer, listAnswer } from '../common/answers.ts';
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

/** An item of a dictionary: every dictionary has id and fdv, the other columns differ. */
export const dictionaryItemSchema = z.looseObject({ id: z.number().int(), fdv: z.string() });
export type DictionaryItem = z.output<typeof dictionaryItemSchema>;

/** GET /api/dictionaries/{name}: the whole list, answered as {data: {data: [...]}}. */
export const dictionaryAnswer = dataAnswer(listAnswer(dictionaryItemSchema));

export function isDictionaryName(name: string): name is DictionaryName {
  return (DICTIONARY_NAMES as readonly string[]).includes(name);
}
