import { z } from 'zod';
import { PRICE_FIELD } from '../common/money.ts';
import { DateType } from '../common/codes.ts';
import { dataAnswer, listAnswer, messageAnswer } from '../common/answers.ts';
import { SERVICE_TITLE_MAX, serviceSchema } from './service.ts';

/** Texts of the operator's service screens (spec 02 §2, §5, §8); ours where the spec gives none. */
export const ServiceFormMessages = {
  titleMax: 'Внимание! Максимальная длина названия: 100 символов.',
  deleteConfirm: 'Вы уверены, что хотите удалить?',
  notFound: 'Услуга не найдена :(',
  notFoundHint: 'Услуга скрыта или удалена.',
  /** 'Ошибка сохранения в Joomla! {message}...' (spec 02 §8). */
  joomlaError: (message: string) => `Ошибка сохранения в Joomla! ${message}...`,
  // Ours.
  chooseType: 'Выберите тип услуги',
  chooseSubtype: 'Выберите подтип услуги',
  subtypeNotOfType: 'Подтип не относится к выбранному типу',
  chooseParticipation: 'Выберите формат участия',
  chooseDateType: 'Выберите тип даты',
  startRequired: 'Укажите дату и время начала',
  timeGrid: 'Время с 8:00 до 21:30 с шагом 30 минут',
  badDate: 'Дата в формате ГГГГ-ММ-ДД ЧЧ:ММ',
  endBeforeStart: 'Окончание не может быть раньше начала',
  sectionTitle: 'Введите название секции',
  sectionHasEntries: (title: string) => `В секции «${title}» есть заявки, её нельзя удалить`,
  templateWrongType: 'Выберите шаблон из списка',
  unknownProfile: 'Неизвестный профиль',
  unknownLeading: 'Неизвестный ведущий',
  imageType: 'Загрузите изображение .jpg или .png до 10 МБ',
  imageUploaded: 'Файл успешно загружен!',
  cmsOff: 'Сайт не подключён: публикация недоступна',
  published: 'Услуга опубликована на сайте',
  publishQueued: 'Публикация на сайт поставлена в очередь',
} as const;

/** Date pickers: 30-minute steps, hours 8 to 21, 24-hour clock (spec 02 §5, §9). */
export const SERVICE_TIME = { firstHour: 8, lastHour: 21, stepMinutes: 30 } as const;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Problem with a 'YYYY-MM-DD HH:mm[:ss]' time of a service (Moscow time), or null. */
export function serviceTimeProblem(value: string): string | null {
  const m = DATE_RE.exec(value.trim());
  if (!m) return ServiceFormMessages.badDate;
  const [month, day, hour, minute, second] = [Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > 31) return ServiceFormMessages.badDate;
  if (hour < SERVICE_TIME.firstHour || hour > SERVICE_TIME.lastHour || minute % SERVICE_TIME.stepMinutes !== 0 || second !== 0)
    return ServiceFormMessages.timeGrid;
  return null;
}

/** 'YYYY-MM-DD HH:mm:ss' from 'YYYY-MM-DD HH:mm[:ss]' or 'YYYY-MM-DDTHH:mm'. */
export function normaliseServiceTime(value: string): string {
  const m = DATE_RE.exec(value.trim());
  if (!m) return value;
  return `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6] ?? '00'}`;
}

const optionalId = z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), z.coerce.number().int().positive().nullish());
const optionalCount = z.preprocess((v) => (v === '' ? null : v), z.coerce.number().int().min(0).max(100_000).nullish());
const optionalText = z.preprocess((v) => (v === '' ? null : v), z.string().max(100_000).nullish());
const flag = (d: boolean) =>
  z.preprocess((v) => (v === '0' || v === 'false' || v === 0 ? false : v === '1' || v === 'true' || v === 1 ? true : v), z.boolean().default(d));
const idArray = z.array(z.coerce.number().int().positive()).max(200).default([]);

/** POST /api/service and PUT /api/service/{id} (spec 02 §3 Service, §5). */
export const saveServiceBody = z
  .object({
    title: z
      .string({ error: 'Обязательное поле' })
      .trim()
      .min(1, { error: 'Обязательное поле' })
      .max(SERVICE_TITLE_MAX, { error: ServiceFormMessages.titleMax }),
    description: optionalText,
    /** Kopecks. */
    price: PRICE_FIELD.default(0),
    points: z.coerce.number().int().min(0).max(10_000).default(0),
    is_visible: flag(true),
    is_done: flag(false),
    is_thesis_needed: flag(false),
    dict_type_id: z.coerce
      .number({ error: ServiceFormMessages.chooseType })
      .int({ error: ServiceFormMessages.chooseType })
      .positive({ error: ServiceFormMessages.chooseType }),
    dict_subtype_id: optionalId,
    participation_type: z.coerce
      .number({ error: ServiceFormMessages.chooseParticipation })
      .int()
      .min(1, { error: ServiceFormMessages.chooseParticipation })
      .max(3, { error: ServiceFormMessages.chooseParticipation }),
    date_type: z.coerce
      .number({ error: ServiceFormMessages.chooseDateType })
      .int()
      .min(1, { error: ServiceFormMessages.chooseDateType })
      .max(3, { error: ServiceFormMessages.chooseDateType }),
    begda: z.preprocess((v) => (v === '' ? null : v), z.string().max(32).nullish()),
    endda: z.preprocess((v) => (v === '' ? null : v), z.string().max(32).nullish()),
    max_participants: z.coerce.number().int().min(0).max(100_000).default(0),
    moodle_id: optionalId,
    hours: optionalCount,
    days: optionalCount,
    template_certificate_id: optionalId,
    template_program_id: optionalId,
    template_participation_id: optionalId,
    joomla_article_template_id: optionalId,
    joomla_intro_html: optionalText,
    joomla_additional_html: optionalText,
    joomla_video_iframe: optionalText,
    sections: z
      .array(
        z.object({
          id: z.coerce.number().int().positive().optional(),
          title: z.string().trim().max(500),
        }),
      )
      .max(100)
      .default([]),
    profiles: idArray,
    leadings: idArray,
  })
  .superRefine((v, ctx) => {
    if (v.sections.some((s) => !s.title)) ctx.addIssue({ code: 'custom', path: ['sections'], message: ServiceFormMessages.sectionTitle });
    for (const key of ['begda', 'endda'] as const) {
      const value = v[key];
      if (!value) continue;
      const problem = serviceTimeProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', path: [key], message: problem });
    }
    if (v.date_type === DateType.specific && !v.begda) ctx.addIssue({ code: 'custom', path: ['begda'], message: ServiceFormMessages.startRequired });
    if (v.begda && v.endda && !serviceTimeProblem(v.begda) && !serviceTimeProblem(v.endda) && normaliseServiceTime(v.endda) < normaliseServiceTime(v.begda)) {
      ctx.addIssue({ code: 'custom', path: ['endda'], message: ServiceFormMessages.endBeforeStart });
    }
  });
export type SaveServiceBody = z.input<typeof saveServiceBody>;
export type SaveServiceInput = z.output<typeof saveServiceBody>;

/** Where a service stands on the site. */
export interface ServiceSiteState {
  /** null: never sent; 'pending': queued or being sent; 'published'; 'error': the last try failed (retried). */
  joomla_status: 'pending' | 'published' | 'error' | null;
  joomla_error: string | null;
  joomla_article_id: number | null;
  /** Link to the article on the site, when published. */
  site_url: string | null;
}

/** POST /api/joomla/categories and /api/joomla/tags. */
export const joomlaLookupBody = z.object({ joomla_system: z.enum(['site', 'journal']).default('site') });
export const joomlaOptionSchema = z.object({ id: z.number().int(), title: z.string() });
export type JoomlaOption = z.output<typeof joomlaOptionSchema>;
/** POST /api/joomla/categories and /api/joomla/tags: the site's list. */
export const joomlaOptionsAnswer = listAnswer(joomlaOptionSchema);

/** End of a service after its start changes: keep the length, or start + 1.5 h (spec: end follows start). */
export function followStart(newStart: string, oldStart: string | null, oldEnd: string | null): string {
  const toMs = (s: string) => Date.parse(`${normaliseServiceTime(s).replace(' ', 'T')}Z`);
  const start = toMs(newStart);
  const length = oldStart && oldEnd ? Math.max(0, toMs(oldEnd) - toMs(oldStart)) : 90 * 60_000;
  let end = new Date(start + length);
  // Keep the end on the clock grid (8:00-21:30).
  if (end.getUTCHours() > SERVICE_TIME.lastHour || (end.getUTCHours() === SERVICE_TIME.lastHour && end.getUTCMinutes() > 30)) {
    end = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate(), SERVICE_TIME.lastHour, 30));
  }
  if (end.getUTCHours() < SERVICE_TIME.firstHour)
    end = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate(), SERVICE_TIME.firstHour, 0));
  const p = (n: number) => String(n).padStart(2, '0');
  return `${end.getUTCFullYear()}-${p(end.getUTCMonth() + 1)}-${p(end.getUTCDate())} ${p(end.getUTCHours())}:${p(end.getUTCMinutes())}:00`;
}

const choiceSchema = z.object({ id: z.number().int(), title: z.string() });

/** GET /api/service/form-options: the choices of the service modal. */
export const serviceFormOptionsSchema = z.object({
  templates: z.object({
    certificate: z.array(choiceSchema),
    program: z.array(choiceSchema),
    /** Registration lists: the choices of template_participation_id. */
    regList: z.array(choiceSchema),
    page: z.array(choiceSchema),
  }),
  leadings: z.array(z.object({ id: z.number().int(), fio: z.string() })),
  /** Whether the site (Joomla) is configured: the publish button says so when not. */
  cms: z.boolean(),
});
export type ServiceFormOptions = z.output<typeof serviceFormOptionsSchema>;
/** GET /api/service/form-options. */
export const serviceFormOptionsAnswer = dataAnswer(serviceFormOptionsSchema);

/** POST /api/service (201), PUT /api/service/{id}, its image upload and its publication on the site: the service as it now is, and the notice. */
export const serviceSavedAnswer = dataAnswer(serviceSchema).extend({ message: z.string() });
/** DELETE /api/service/{id}. */
export const serviceDeletedAnswer = messageAnswer;
