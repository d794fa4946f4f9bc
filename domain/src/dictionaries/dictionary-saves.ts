import { z } from 'zod';
import { Messages } from '../common/messages.ts';
import { listQuery } from '../common/pagination.ts';
import { dataAnswer, pageAnswer } from '../common/answers.ts';
import { PALETTE_COLORS, SERVICE_ICON_NAMES } from './icons.ts';
import { BoundMessages, flagField, flagNumber } from '../common/bounds.ts';

// Saves of spec 02 §7 (dict_service_types, dict_service_subtypes, dict_profiles) and leading persons.

export const DictionaryMessages = {
  inUse: 'Нельзя удалить: запись используется',
  unknownIcon: 'Выберите иконку из набора',
  unknownColor: 'Выберите цвет из палитры',
  unknownType: 'Неизвестный тип услуги',
  urlFormat: 'Ссылка должна начинаться с http:// или https://',
} as const;

/** Dictionaries the operator saves (the others are read-only or belong to other screens). */
export const EDITABLE_DICTIONARIES = ['dict_service_types', 'dict_service_subtypes', 'dict_profiles'] as const;
export type EditableDictionary = (typeof EDITABLE_DICTIONARIES)[number];

const name = z
  .string({ error: Messages.fieldRequired })
  .trim()
  .min(1, { error: Messages.fieldRequired })
  .max(255, { error: Messages.maxLength(255) });
const optionalText = (max: number) =>
  z
    .union([
      z
        .string()
        .trim()
        .max(max, { error: Messages.maxLength(max) }),
      z.null(),
    ])
    .optional()
    .transform((v) => (v ? v : null));
const points = z.coerce
  .number({ error: 'Введите число' })
  .int({ error: 'Введите целое число' })
  .min(0, { error: 'Не меньше 0' })
  .max(1000, { error: 'Не больше 1000' })
  .default(0);
const joomlaId = z
  .union([
    z.coerce.number({ error: 'Введите число' }).int({ error: 'Введите целое число' }).positive({ error: 'Введите число больше 0' }).max(2147483647),
    z.literal(''),
    z.null(),
  ])
  .optional()
  .transform((v) => (typeof v === 'number' ? v : null));
const flag = flagField().default(false);
const color = z
  .union([z.enum(PALETTE_COLORS), z.literal(''), z.null()], { error: DictionaryMessages.unknownColor })
  .optional()
  .transform((v) => (v ? v : null));

/** dict_service_types: fdv, dv, points, description, icon, colour, flags, Joomla category. */
export const serviceTypeBody = z.object({
  fdv: name,
  dv: optionalText(255),
  points,
  description: optionalText(5000),
  icon: z
    .union([z.enum(SERVICE_ICON_NAMES), z.literal(''), z.null()], { error: DictionaryMessages.unknownIcon })
    .optional()
    .transform((v) => (v ? v : null)),
  color,
  is_contract_needed: flag,
  is_publication: flag,
  joomla_category_id: joomlaId,
});

/** dict_service_subtypes: fdv, dv, its type, points, is_spb, flags, Joomla category or tag. */
export const serviceSubtypeBody = z.object({
  fdv: name,
  dv: optionalText(255),
  dict_service_type_id: z.coerce.number({ error: Messages.fieldRequired }).int({ error: Messages.fieldRequired }).positive({ error: Messages.fieldRequired }),
  points,
  // A flag, or empty for "either".
  is_spb: z
    .union([flagNumber(), z.literal(''), z.null()], { error: BoundMessages.flag })
    .optional()
    .transform((v) => (v === '' || v === null || v === undefined ? null : v)),
  is_publication: flag,
  publication_has_file: flag,
  joomla_category_id: joomlaId,
  joomla_tag_id: joomlaId,
});

/** dict_profiles: fdv, colour, Joomla tag. */
export const profileBody = z.object({ fdv: name, color, joomla_tag_id: joomlaId });

export const dictionaryBodies = {
  dict_service_types: serviceTypeBody,
  dict_service_subtypes: serviceSubtypeBody,
  dict_profiles: profileBody,
} as const;

/** A leading person of services (/manager/leadings): fio required. */
export const leadingBody = z.object({
  fio: name,
  description: optionalText(5000),
  url: z
    .union([
      z
        .string()
        .trim()
        .max(500, { error: Messages.maxLength(500) }),
      z.null(),
    ])
    .optional()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || /^https?:\/\/[^\s]+$/i.test(v), { error: DictionaryMessages.urlFormat }),
});

/** A leading person as stored. */
export const leadingRecordSchema = z.object({ id: z.number().int(), fio: z.string(), description: z.string().nullable(), url: z.string().nullable() });
/** A leading person in the list, with the number of services naming them. */
export const leadingSchema = leadingRecordSchema.extend({ services_count: z.number().int() });
export type Leading = z.output<typeof leadingSchema>;

/** GET /api/leading. */
export const leadingsAnswer = pageAnswer(leadingSchema);
/** POST /api/leading (201), PUT /api/leading/{id}: the stored person and the notice. */
export const leadingSavedAnswer = dataAnswer(leadingRecordSchema).extend({ message: z.string() });

/**
 * POST /api/dictionaries/{name} (201), PUT /api/dictionaries/{name}/{id}: the stored item (its
 * columns differ per dictionary) and the notice.
 */
export const dictionaryItemSavedAnswer = dataAnswer(z.looseObject({ id: z.number().int(), fdv: z.string() })).extend({ message: z.string() });

/** GET /api/leading: 100 per page by default (one page of 100, spec 02 §9). */
export const leadingListQuery = listQuery.extend({
  per_page: z.coerce
    .number()
    .int()
    .refine((n) => [15, 30, 100].includes(n), { message: 'Допустимые размеры страницы: 15, 30, 100' })
    .default(100)
    .meta({ enum: [15, 30, 100] }),
  fio: z.string().trim().max(200).optional(),
});
