import { asc } from 'drizzle-orm';
import { z } from 'zod';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { DICTIONARY_NAMES, dictionaryAnswer, type DictionaryItem, type DictionaryName } from '@edu/domain/dictionaries/dictionaries';
import * as t from '../../db/schema/index.ts';
import { isOperator } from '../../platform/access.ts';
import { currentUser } from '../../platform/auth.ts';

const tables = {
  dict_profiles: t.dictProfiles,
  dict_service_types: t.dictServiceTypes,
  dict_service_subtypes: t.dictServiceSubtypes,
  dict_macros_categories: t.dictMacrosCategories,
  dict_macroses: t.dictMacroses,
  dict_template_types: t.dictTemplateTypes,
  dict_events: t.dictEvents,
  dict_publication_categories: t.dictPublicationCategories,
  dict_document_types: t.dictDocumentTypes,
  dict_regions: t.dictRegions,
} satisfies Record<DictionaryName, unknown>;

/** Fields only operators see: e-mail bodies of events. */
const OPERATOR_ONLY: Partial<Record<DictionaryName, string[]>> = { dict_events: ['content', 'dv', 'template_id', 'is_mailing'] };

export const dictionaryRoutes: RoutesPlugin = async (app) => {
  /** GET /api/dictionaries/{name}: the list sorted by id, answered as {data: {data: [...]}}. */
  app.get(
    '/:name',
    {
      config: { access: 'user' },
      schema: {
        tags: ['dictionaries'],
        params: z.object({ name: z.enum(DICTIONARY_NAMES, { error: 'Неизвестный справочник' }) }),
        response: { 200: dictionaryAnswer },
      },
    },
    async (request) => {
      const name = request.params.name;
      const table = tables[name];
      const list = (await app.db.select().from(table).orderBy(asc(table.id))) as DictionaryItem[];
      const hidden = isOperator(currentUser(request)) ? undefined : OPERATOR_ONLY[name];
      const data = hidden ? list.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !hidden.includes(k))) as DictionaryItem) : list;
      return { data: { data } };
    },
  );
};
