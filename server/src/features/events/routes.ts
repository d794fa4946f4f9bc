import { z } from 'zod';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { EventMessages, eventSaveBody, eventSavedAnswer, notificationTemplatesAnswer } from '@edu/domain/events/event';
import type { FieldErrors } from '@edu/domain/common/validation';
import { notFound, validationError } from '../../platform/errors.ts';
import { unknownEventMacros } from './event-macros.ts';
import { findEvent, isNotificationTemplate, listNotificationTemplates, updateEvent, type EventChanges } from './events-repository.ts';

/**
 * Events (/manager/events), under /api/dictionaries/dict_events; registered inside the operator
 * scope (app.ts), which guards it. The list itself is the generic GET /api/dictionaries/dict_events.
 */
export const eventRoutes: RoutesPlugin = async (app) => {
  /** GET .../notification-templates: templates of type 5 for the dropdown. */
  app.get(
    '/notification-templates',
    { schema: { tags: ['events'], summary: 'Шаблоны уведомлений для выбора', response: { 200: notificationTemplatesAnswer } } },
    async () => {
      return { data: await listNotificationTemplates(app.db) };
    },
  );

  /**
   * PUT .../{id}: the 'Шаблон' modal saves subject (dv) and body (content), both required; the
   * table saves the notification template and the mailing switch alone. Unknown macros are refused
   * here, so they never reach a letter.
   */
  app.put(
    '/:id',
    {
      schema: {
        tags: ['events'],
        summary: 'Сохранить шаблон письма и настройки события',
        params: z.object({ id: z.coerce.number().int().positive() }),
        body: eventSaveBody,
        response: { 200: eventSavedAnswer },
      },
    },
    async (request) => {
      const body = request.body;
      const event = await findEvent(app.db, request.params.id);
      if (!event) throw notFound(EventMessages.eventNotFound);
      const errors: FieldErrors = {};
      const touchesTemplate = body.dv !== undefined || body.content !== undefined;
      if (touchesTemplate) {
        if (!body.dv?.trim()) errors.dv = [EventMessages.required];
        if (!body.content || !body.content.replace(/<[^>]*>/g, '').trim()) errors.content = [EventMessages.required];
        for (const field of ['dv', 'content'] as const) {
          const unknown = body[field] ? unknownEventMacros(body[field]) : [];
          if (unknown.length > 0) (errors[field] ??= []).push(EventMessages.unknownMacros(unknown));
        }
      }
      if (body.template_id) {
        if (!(await isNotificationTemplate(app.db, body.template_id))) errors.template_id = [EventMessages.notNotificationTemplate];
      }
      if (Object.keys(errors).length > 0) throw validationError(errors);

      const set: EventChanges = {};
      if (touchesTemplate) Object.assign(set, { dv: body.dv!.trim(), content: body.content });
      if (body.template_id !== undefined) set.template_id = body.template_id;
      if (body.is_mailing !== undefined) set.is_mailing = body.is_mailing;
      if (body.icon !== undefined) set.icon = body.icon;
      if (body.color !== undefined) set.color = body.color;
      await updateEvent(app.db, event.id, set);
      const saved = await findEvent(app.db, event.id);
      return { data: saved!, message: EventMessages.saved };
    },
  );
};
