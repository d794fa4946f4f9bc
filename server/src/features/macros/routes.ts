import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { Messages } from '@edu/domain/common/messages';
import { rows } from '../../platform/db.ts';
import { notFound } from '../../platform/errors.ts';
import { readRequisites, REQUISITE_FIELDS, saveRequisites } from './requisites.ts';
import { dativeName, joinFio } from './russian-words.ts';

const requisitesBody = z.object(Object.fromEntries(REQUISITE_FIELDS.map(([key]) => [key, z.string().trim().max(1000, { error: Messages.maxLength(1000) }).nullish()])));

/** Operators: the macro catalogue by category, the centre's requisites, a client's name in the dative case. */
export const macroRoutes: FastifyPluginAsyncZod = async (app) => {

  /** GET /api/macros: categories (id, fdv) each with its macros (id, fdv, description). */
  app.get('/macros', { schema: { tags: ['macros'] } }, async () => {
    const list = await rows<{ id: number; fdv: string; macros: { id: number; fdv: string; description: string | null }[] | null }>(
      app.db,
      sql`select c.id, c.fdv, (select json_agg(json_build_object('id', m.id, 'fdv', m.fdv, 'description', m.description) order by m.id)
                               from dict_macroses m where m.dict_category_id = c.id) as macros
          from dict_macros_categories c order by c.id`,
    );
    return { data: list.map((c) => ({ ...c, macros: c.macros ?? [] })) };
  });

  /** GET /api/settings/requisites: the centre's requisites used by ${org.*}, with the form's labels. */
  app.get('/settings/requisites', { schema: { tags: ['macros'] } }, async () => ({
    data: await readRequisites(app.db),
    fields: REQUISITE_FIELDS.map(([key, label]) => ({ key, label })),
  }));

  app.put('/settings/requisites', { schema: { tags: ['macros'], body: requisitesBody } }, async (request) => {
    await saveRequisites(app.db, request.body as Record<string, string>);
    return { data: await readRequisites(app.db), message: Messages.saved };
  });

  /**
   * GET /api/macros/name-forms?fio=: clients found by name (at most 20), each with the dative form the
   * certificates use: the operator's correction when stored, otherwise the computed one.
   */
  app.get(
    '/macros/name-forms',
    { schema: { tags: ['macros'], querystring: z.object({ fio: z.string().trim().min(2, { error: 'Введите не меньше 2 букв' }).max(200) }) } },
    async (request) => {
      const words = request.query.fio.split(/\s+/).filter(Boolean).slice(0, 3);
      const cond = sql.join(
        words.map((w) => {
          const like = `${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
          return sql`(u.last_name ilike ${like} or u.first_name ilike ${like} or u.middle_name ilike ${like})`;
        }),
        sql` and `,
      );
      const found = await rows<{ id: number; last_name: string; first_name: string; middle_name: string | null; email: string; fio_dative: string | null }>(
        app.db,
        sql`select u.id, u.last_name, u.first_name, u.middle_name, u.email, u.fio_dative from users u
            where u.deleted_at is null and ${cond} order by u.last_name, u.first_name, u.id limit 20`,
      );
      return {
        data: found.map((u) => {
          const name = { last: u.last_name, first: u.first_name, middle: u.middle_name ?? '' };
          return { id: u.id, fio: joinFio(name), email: u.email, fio_dative: u.fio_dative, computed: joinFio(dativeName(name)) };
        }),
      };
    },
  );

  /** GET /api/user/{id}/name-forms: the dative form used in certificates (stored correction or computed). */
  app.get('/user/:id/name-forms', { schema: { tags: ['macros'], params: z.object({ id: z.coerce.number().int().positive() }) } }, async (request) => {
    const [u] = await rows<{ last_name: string; first_name: string; middle_name: string | null; fio_dative: string | null }>(
      app.db,
      sql`select last_name, first_name, middle_name, fio_dative from users where id = ${request.params.id}`,
    );
    if (!u) throw notFound();
    const computed = joinFio(dativeName({ last: u.last_name, first: u.first_name, middle: u.middle_name ?? '' }));
    return { data: { fio_dative: u.fio_dative, computed, effective: u.fio_dative || computed } };
  });

  /** PUT /api/user/{id}/name-forms {fio_dative}: an operator corrects the declension; empty goes back to the computed form. */
  app.put(
    '/user/:id/name-forms',
    {
      schema: {
        tags: ['macros'],
        params: z.object({ id: z.coerce.number().int().positive() }),
        body: z.object({ fio_dative: z.string().trim().max(500, { error: Messages.maxLength(500) }).nullish() }),
      },
    },
    async (request) => {
      const value = request.body.fio_dative?.trim() || null;
      const updated = await rows<{ id: number }>(app.db, sql`update users set fio_dative = ${value}, updated_at = now() where id = ${request.params.id} returning id`);
      if (updated.length === 0) throw notFound();
      return { message: Messages.saved };
    },
  );
};
