import { z } from 'zod';
import { Messages } from '../common/messages.ts';
import { hasNul, idField, BoundMessages, flagField } from '../common/bounds.ts';
import { plural } from '../common/plural.ts';
import { dataAnswer, listAnswer, messageAnswer } from '../common/answers.ts';

// Journal releases ('Выпуски журнала', spec 03 §2, §3, §4): issues of the journal or collections.

export const ReleaseMessages = {
  title: 'Выпуски журнала',
  modalTitle: 'Выпуск',
  saved: 'Успешно сохранено!',
  deleted: 'Успешно удалено!',
  published: 'Успешно опубликовано!',
  // Texts the spec does not give; ours, in the same voice.
  hidden: 'Выпуск скрыт',
  unpublished: 'Публикация выпуска снята',
  notFound: 'Выпуск не найден',
  notPublicationSubtype: 'Выберите тип публикации',
  alreadyPublished: 'Выпуск уже опубликован',
  publishOnlyHidden: 'Опубликовать можно только скрытый выпуск',
  notPublished: 'Выпуск не опубликован',
  alreadyHidden: 'Выпуск уже скрыт',
  hasPublications: (n: number) =>
    `Нельзя удалить выпуск: в нём ${n} ${plural(n, 'публикация', 'публикации', 'публикаций')}. Сначала перенесите их в другой выпуск.`,
  urlFormat: 'Ссылка должна начинаться с http:// или https://',
} as const;

const link = z
  .union([
    z
      .string()
      .trim()
      .max(500, { error: Messages.maxLength(500) }),
    z.null(),
  ])
  .optional()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || /^https?:\/\/[^\s]+$/i.test(v), { error: ReleaseMessages.urlFormat });

/** The 'Выпуск' modal: title, the publication subtype, the collection link and the table-of-contents link. */
export const releaseBody = z.object({
  title: z
    .string({ error: Messages.fieldRequired })
    .trim()
    .min(1, { error: Messages.fieldRequired })
    .max(255, { error: Messages.maxLength(255) })
    .refine((s) => !hasNul(s), { error: BoundMessages.nul }),
  dict_service_subtype_id: idField(Messages.fieldRequired),
  url: link,
  url_contents: link,
});
export type ReleaseBody = z.infer<typeof releaseBody>;

const flag01 = flagField();

/** GET /api/publication-release: by subtype and hidden flag (pickers ask is_hidden=0). */
export const releaseListQuery = z.object({
  dict_service_subtype_id: idField().optional(),
  is_hidden: flag01.optional(),
});

export const releaseSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  dict_service_subtype_id: z.number().int().nullable(),
  subtype: z.object({ id: z.number().int(), fdv: z.string() }).nullable(),
  url: z.string().nullable(),
  url_contents: z.string().nullable(),
  is_hidden: z.boolean(),
  is_published: z.boolean(),
  publications_count: z.number().int(),
});
export type Release = z.output<typeof releaseSchema>;

/** GET /api/publication-release: every matching release (no pages). */
export const releasesAnswer = listAnswer(releaseSchema);
/** POST (201), PUT, and the hide/publish/unpublish actions: the release as it now is, and the notice. */
export const releaseSavedAnswer = dataAnswer(releaseSchema).extend({ message: z.string() });
/** DELETE /api/publication-release/{id}. */
export const releaseDeletedAnswer = messageAnswer;

/** Which row actions a release offers (spec 03 §2, §4): publish only for hidden ones not yet published. */
export function releaseActions(r: Pick<Release, 'is_hidden' | 'is_published'>) {
  return {
    canHide: !r.is_hidden,
    canPublish: r.is_hidden && !r.is_published,
    canUnpublish: r.is_hidden && r.is_published,
  };
}
