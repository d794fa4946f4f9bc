import { z } from 'zod';
import { TemplateType } from '../common/codes.ts';
import { Messages } from '../common/messages.ts';
import { pageQuery } from '../common/pagination.ts';
import { dataAnswer, isoTimestamp, messageAnswer, pageAnswer } from '../common/answers.ts';

// Templates (spec 02 §2 Templates, Template modal; §3 Template; §4 Template type rule; §5 Template).

export const TemplateMessages = {
  saved: Messages.saved,
  deleted: Messages.deleted,
  setAsDefault: 'Шаблон успешно установлен по умолчанию!',
  // Texts the spec does not give; ours, in the same voice.
  fileRequired: 'Загрузите файл шаблона .docx',
  unknownMacros: (names: string[]) => `Неизвестные макросы: ${names.map((n) => `\${${n}}`).join(', ')}`,
  malformedMacros: (parts: string[]) => `Некорректные макросы: ${parts.join(', ')}`,
  badTemplate: 'Шаблон не может быть сохранён',
  notDefaultable: 'Шаблоны этого типа не назначаются по умолчанию',
  copied: 'Скопировано в буфер обмена',
  searchPlaceholder: 'Поиск по названию или описанию',
  // Templates cannot reach the network (decision 021).
  externalLinks: (targets: string[]) =>
    `Шаблон подгружает файлы по внешним адресам (${targets.slice(0, 3).join(', ')}${targets.length > 3 ? ', …' : ''}): вставьте рисунки в документ, а не связью с файлом`,
  metaRefresh: 'Шаблон не может содержать <meta http-equiv="refresh">: удалите этот тег',
  // Templates in use are not deleted (issue 19): the answer names what uses them.
  inUse: (lines: string[]) => `Шаблон используется, удалить его нельзя. ${lines.join('. ')}. Сначала выберите вместо него другой шаблон.`,
  usedByTypes: (names: string[]) => `По умолчанию для типов услуг: ${names.map((n) => `«${n}»`).join(', ')}`,
  usedByServices: (names: string[], total: number) =>
    `В услугах: ${names.map((n) => `«${n}»`).join(', ')}${total > names.length ? ` и ещё ${total - names.length}` : ''}`,
  usedByEvents: (names: string[]) => `В событиях: ${names.map((n) => `«${n}»`).join(', ')}`,
  onlyConsent: 'Это единственный шаблон согласия: без него клиенты не смогут распечатать согласие',
  onlyContract: 'Это единственный шаблон договора: без него клиенты курсов не смогут распечатать договор',
} as const;

/** GET /api/template/missing: what the install cannot print for want of a template (the operator's check on /manager/templates). */
export const missingTemplatesSchema = z.object({
  /** Template types the install has none of: consent, contract (when a service type needs one), registration list. */
  general: z.array(z.object({ dict_type_id: z.number().int(), title: z.string() })),
  /** Live services with no certificate template (own or their type's default), or no contract template while their type needs one. */
  services: z.array(z.object({ id: z.number().int(), title: z.string(), type: z.string(), missing: z.array(z.number().int()) })),
  services_total: z.number().int(),
  /** Requisites of the centre still empty (their labels): documents print a blank line in their place (decision 031). */
  requisites: z.array(z.string()),
});
export type MissingTemplates = z.output<typeof missingTemplatesSchema>;
/** GET /api/template/missing. */
export const missingTemplatesAnswer = dataAnswer(missingTemplatesSchema);

/** How the content of a template type is edited: a .docx upload, raw HTML with a preview, or rich text. */
export type TemplateEditor = 'file' | 'html' | 'rich';

export function templateEditor(dictTypeId: number): TemplateEditor {
  if (dictTypeId === TemplateType.certificate || dictTypeId === TemplateType.consent || dictTypeId === TemplateType.contract) return 'file';
  if (dictTypeId === TemplateType.program || dictTypeId === TemplateType.regList) return 'html';
  return 'rich';
}

/** Types that can be a service type's default: certificate (and page, for the site). */
export const DEFAULTABLE_TYPES: readonly number[] = [TemplateType.certificate, TemplateType.page];

/** Multipart fields of POST /api/template and POST /api/template/{id} (_method=PUT). The file travels beside. */
export const templateFields = z.object({
  title: z
    .string({ error: Messages.fieldRequired })
    .trim()
    .min(1, { error: Messages.fieldRequired })
    .max(255, { error: Messages.maxLength(255) }),
  dict_type_id: z.coerce
    .number({ error: Messages.fieldRequired })
    .int({ error: Messages.fieldRequired })
    .min(1, { error: Messages.fieldRequired })
    .max(7, { error: Messages.fieldRequired }),
  content: z.string().max(500_000).nullish(),
  event_id: z.coerce.number().int().positive().nullish(),
});
export type TemplateFields = z.infer<typeof templateFields>;

export const templateListQuery = pageQuery.extend({
  dict_type_id: z.coerce.number().int().min(1).max(7).optional(),
  exceptType: z.coerce.number().int().min(1).max(7).optional(),
  title: z.string().trim().max(200).optional(),
});

export const templateRefSchema = z.object({ id: z.number().int(), fdv: z.string(), color: z.string().nullable(), icon: z.string().nullable() });
export type TemplateRef = z.output<typeof templateRefSchema>;

export const templateSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string().nullable(),
  dict_type_id: z.number().int(),
  file: z.object({ id: z.number().int(), name: z.string(), size: z.number() }).nullable(),
  event_id: z.number().int().nullable(),
  /** Service types whose default certificate this is. */
  serviceTypeCertificateFor: z.array(templateRefSchema),
  /** Service types whose default page this is. */
  serviceTypePageFor: z.array(templateRefSchema),
  /** Macros the template uses. */
  macros: z.array(z.string()),
  updated_at: isoTimestamp,
});
export type Template = z.output<typeof templateSchema>;

/** GET /api/template: a page of templates. */
export const templatesAnswer = pageAnswer(templateSchema);
/** GET /api/template/{id}. */
export const templateAnswer = dataAnswer(templateSchema);
/** POST (201) / PUT /api/template[/{id}], POST …/set-as-default/{serviceTypeId}: the template and the notice. */
export const templateSavedAnswer = dataAnswer(templateSchema).extend({ message: z.string() });
/** DELETE /api/template/{id}. */
export const templateDeletedAnswer = messageAnswer;
