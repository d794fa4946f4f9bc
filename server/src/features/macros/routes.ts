import type { RoutesPlugin } from '../../platform/responses.ts';
import { z } from 'zod';
import { Messages } from '@edu/domain/common/messages';
import {
  macroCategoriesAnswer,
  nameFormSavedAnswer,
  nameFormsAnswer,
  requisitesAnswer,
  requisitesSavedAnswer,
  userNameFormAnswer,
} from '@edu/domain/macros/macros';
import { notFound } from '../../platform/errors.ts';
import { currentUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import { readRequisites, REQUISITE_FIELDS, saveRequisites } from './requisites.ts';
import { lockSetting, SettingsLogId } from '../settings/site-links-repository.ts';
import { dativeName, joinFio } from './russian-words.ts';
import { findNameForms, listMacroCategories, searchUsersByName, setFioDative } from './macros-repository.ts';

const requisitesBody = z.object(
  Object.fromEntries(
    REQUISITE_FIELDS.map(([key]) => [
      key,
      z
        .string()
        .trim()
        .max(1000, { error: Messages.maxLength(1000) })
        .nullish(),
    ]),
  ),
);

/** Operators: the macro catalogue by category, the centre's requisites, a client's name in the dative case. */
export const macroRoutes: RoutesPlugin = async (app) => {
  /** GET /api/macros: categories (id, fdv) each with its macros (id, fdv, description). */
  app.get('/macros', { schema: { tags: ['macros'], summary: 'Макросы по категориям', response: { 200: macroCategoriesAnswer } } }, async () => {
    return { data: await listMacroCategories(app.db) };
  });

  /** GET /api/settings/requisites: the centre's requisites used by ${org.*}, with the form's labels. */
  app.get(
    '/settings/requisites',
    { schema: { tags: ['macros'], summary: 'Реквизиты центра для макросов', response: { 200: requisitesAnswer } } },
    async () => ({
      data: await readRequisites(app.db),
      fields: REQUISITE_FIELDS.map(([key, label]) => ({ key, label })),
    }),
  );

  app.put(
    '/settings/requisites',
    { schema: { tags: ['macros'], summary: 'Сохранить реквизиты центра', body: requisitesBody, response: { 200: requisitesSavedAnswer } } },
    async (request) => {
      await app.db.transaction(async (tx) => {
        await lockSetting(tx, 'requisites');
        const before = await readRequisites(tx);
        await saveRequisites(tx, request.body as Record<string, string>);
        await logChange(tx, { type: 'settings', entityId: SettingsLogId.requisites, userId: currentUser(request).id, before, after: await readRequisites(tx) });
      });
      return { data: await readRequisites(app.db), message: Messages.saved };
    },
  );

  /**
   * GET /api/macros/name-forms?fio=: clients found by name (at most 20), each with the dative form the
   * certificates use: the operator's correction when stored, otherwise the computed one.
   */
  app.get(
    '/macros/name-forms',
    {
      schema: {
        tags: ['macros'],
        summary: 'Клиенты по ФИО с формой имени в дательном падеже',
        querystring: z.object({ fio: z.string().trim().min(2, { error: 'Введите не меньше 2 букв' }).max(200) }),
        response: { 200: nameFormsAnswer },
      },
    },
    async (request) => {
      const words = request.query.fio.split(/\s+/).filter(Boolean).slice(0, 3);
      const found = await searchUsersByName(app.db, words, 20);
      return {
        data: found.map((u) => {
          const name = { last: u.last_name, first: u.first_name, middle: u.middle_name ?? '' };
          return { id: u.id, fio: joinFio(name), email: u.email, fio_dative: u.fio_dative, computed: joinFio(dativeName(name)) };
        }),
      };
    },
  );

  /** GET /api/user/{id}/name-forms: the dative form used in certificates (stored correction or computed). */
  app.get(
    '/user/:id/name-forms',
    {
      schema: {
        tags: ['macros'],
        summary: 'ФИО пользователя в дательном падеже',
        params: z.object({ id: z.coerce.number().int().positive() }),
        response: { 200: userNameFormAnswer },
      },
    },
    async (request) => {
      const u = await findNameForms(app.db, request.params.id);
      if (!u) throw notFound();
      const computed = joinFio(dativeName({ last: u.last_name, first: u.first_name, middle: u.middle_name ?? '' }));
      return { data: { fio_dative: u.fio_dative, computed, effective: u.fio_dative || computed } };
    },
  );

  /** PUT /api/user/{id}/name-forms {fio_dative}: an operator corrects the declension; empty goes back to the computed form. */
  app.put(
    '/user/:id/name-forms',
    {
      schema: {
        tags: ['macros'],
        summary: 'Исправить ФИО пользователя в дательном падеже',
        params: z.object({ id: z.coerce.number().int().positive() }),
        body: z.object({
          fio_dative: z
            .string()
            .trim()
            .max(500, { error: Messages.maxLength(500) })
            .nullish(),
        }),
        response: { 200: nameFormSavedAnswer },
      },
    },
    async (request) => {
      const value = request.body.fio_dative?.trim() || null;
      const id = request.params.id;
      await app.db.transaction(async (tx) => {
        const before = await findNameForms(tx, id);
        if (!before || !(await setFioDative(tx, id, value))) throw notFound();
        await logChange(tx, {
          type: 'user',
          entityId: id,
          userId: currentUser(request).id,
          before: { fio_dative: before.fio_dative },
          after: { fio_dative: value },
        });
      });
      return { message: Messages.saved };
    },
  );
};
