import { z } from 'zod';
import { Messages } from '../common/messages.ts';
import { hasNul, BoundMessages, MAX_INT } from '../common/bounds.ts';
import { dataAnswer, messageAnswer } from '../common/answers.ts';

// Publication rubrics ('Рубрики публикаций', spec 03 §2, §3): dictionary dict_publication_categories,
// saved under /api/dictionaries/dict_publication_categories (spec 03 §7).

export const RubricMessages = {
  title: 'Рубрики публикаций',
  saved: 'Успешно сохранено!',
  deleted: 'Успешно удалено!',
  // Texts the spec does not give; ours, in the same voice.
  notFound: 'Рубрика не найдена',
  inUse: 'Нельзя удалить: рубрика указана в публикациях',
  aliasFormat: 'Только латинские буквы, цифры и дефис',
  aliasTaken: 'Такой alias уже есть',
} as const;

const plain = (max: number) =>
  z
    .string({ error: Messages.fieldRequired })
    .trim()
    .max(max, { error: Messages.maxLength(max) })
    .refine((s) => !hasNul(s), { error: BoundMessages.nul });

/** fdv (name) required; alias (latin slug), description, the site's category id optional. */
export const rubricBody = z.object({
  fdv: plain(255).pipe(z.string().min(1, { error: Messages.fieldRequired })),
  alias: z
    .union([plain(255), z.null()])
    .optional()
    .transform((v) => (v ? v.toLowerCase() : null))
    .refine((v) => v === null || /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(v), { error: RubricMessages.aliasFormat }),
  description: z
    .union([plain(5000), z.null()])
    .optional()
    .transform((v) => (v ? v : null)),
  joomla_category_id: z
    .union(
      [
        z.coerce
          .number({ error: 'Введите число' })
          .int({ error: 'Введите целое число' })
          .positive({ error: 'Введите число больше 0' })
          .max(MAX_INT, { error: BoundMessages.tooBig(MAX_INT) }),
        z.literal(''),
        z.null(),
      ],
      { error: 'Введите число' },
    )
    .optional()
    .transform((v) => (typeof v === 'number' ? v : null)),
});
export type RubricBody = z.infer<typeof rubricBody>;

export const rubricSchema = z.object({
  id: z.number().int(),
  fdv: z.string(),
  alias: z.string().nullable(),
  description: z.string().nullable(),
  joomla_category_id: z.number().int().nullable(),
});
export type Rubric = z.output<typeof rubricSchema>;

/** POST (201) and PUT /api/dictionaries/dict_publication_categories[/{id}]: the saved rubric and the notice. */
export const rubricSavedAnswer = dataAnswer(rubricSchema).extend({ message: z.string() });
/** DELETE /api/dictionaries/dict_publication_categories/{id}. */
export const rubricDeletedAnswer = messageAnswer;
