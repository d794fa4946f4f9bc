import { z } from 'zod';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { DICTIONARY_NAMES, dictionaryAnswer, type DictionaryItem, type DictionaryName } from '@edu/domain/dictionaries/dictionaries';
import { listDictionary } from './dictionaries-repository.ts';
import { isOperator } from '../../platform/access.ts';
import { currentUser } from '../../platform/auth.ts';

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
        summary: 'Справочник по имени',
        params: z.object({ name: z.enum(DICTIONARY_NAMES, { error: 'Неизвестный справочник' }) }),
        response: { 200: dictionaryAnswer },
      },
    },
    async (request) => {
      const name = request.params.name;
      const list = await listDictionary(app.db, name);
      const hidden = isOperator(currentUser(request)) ? undefined : OPERATOR_ONLY[name];
      const data = hidden ? list.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !hidden.includes(k))) as DictionaryItem) : list;
      return { data: { data } };
    },
  );
};
