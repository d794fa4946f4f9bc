import { z } from 'zod';
import { PRICE_FIELD } from '../common/money.ts';
import { BoundMessages, flagField, idField, MAX_ID_LIST } from '../common/bounds.ts';
import { dataAnswer, listAnswer, messageAnswer } from '../common/answers.ts';
import { serviceSchema } from '../services/service.ts';

/** A package of services as the cabinet and the operator's screen see it. Money in rubles. */
export const servicePackageSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  color: z.string(),
  price: z.number(),
  oldPrice: z.number().nullable(),
  points: z.number().int(),
  is_pinned: z.boolean(),
  pinned: z.boolean(),
  dict_profile_id: z.number().int().nullable(),
  services: z.array(serviceSchema),
  /** The asking user's live entries for services of this package: enrolling would pay twice for them. */
  applied: z.array(z.object({ service_id: z.number().int(), entry_id: z.number().int(), entry_number: z.string() })),
  /**
   * The asking user's live purchase of this package (its entries neither deleted nor refunded), the
   * newest; null when they have none. The cabinet then offers their entries, not «Записаться».
   */
  purchase: z.object({ enrollment_id: z.number().int(), paid: z.boolean(), entry_numbers: z.array(z.string()) }).nullable(),
});
export type ServicePackage = z.output<typeof servicePackageSchema>;

/** GET /api/service-package: the live packages matching the filters, by id. */
export const servicePackagesAnswer = listAnswer(servicePackageSchema);
/** GET /api/service-package/{id}. */
export const servicePackageAnswer = dataAnswer(servicePackageSchema);
/** POST /api/service-package (201) and PUT /api/service-package/{id}: the package's id and the notice. */
export const packageSavedAnswer = dataAnswer(z.object({ id: z.number().int() })).extend({ message: z.string() });
/** DELETE /api/service-package/{id}. */
export const packageDeletedAnswer = messageAnswer;

export const PackageMessages = {
  chooseSections: 'Выберите секцию для каждой услуги пакета',
  notFound: 'Пакет услуг не найден',
  enrolled: 'Заявка успешно отправлена!',
  // Ours: the spec gives no text.
  alreadyApplied: (title: string, number: string) =>
    `Вы уже подали заявку № ${number} на услугу «${title}» из этого пакета. Пакет оформляется целиком: удалите неоплаченную заявку или выберите другой пакет.`,
  alreadyAppliedShort: 'Вы уже подали заявку на услугу из этого пакета',
  bought: 'Пакет куплен',
  boughtUnpaid: 'Пакет ожидает оплаты',
  toMyEntries: 'Мои заявки',
} as const;

/** Unpaid package entries are removed after this many minutes (spec 01 §4). */
export const PACKAGE_PAY_WINDOW_MIN = 15;

export const servicePackageListQuery = z.object({
  is_pinned: z.union([z.literal('1'), z.literal('0'), z.literal('true'), z.literal('false')]).optional(),
  dict_profile_id: z.union([z.literal('null'), z.literal(''), idField()]).optional(),
});

/** POST /api/service-package/{id}/enroll: {services: {serviceId: sectionId | null}}. */
export const enrollBody = z.object({
  services: z
    .record(z.string().regex(/^\d{1,10}$/), idField().nullable())
    .refine((r) => Object.keys(r).length <= MAX_ID_LIST, { error: BoundMessages.listTooLong(MAX_ID_LIST) }),
});

/** Pay is enabled only when every service with sections has one chosen (spec 01 §4). */
export function packageReady(services: Array<{ id: number; sections: unknown[] }>, chosen: Record<string, number | null | undefined>): boolean {
  return services.every((s) => s.sections.length === 0 || Boolean(chosen[String(s.id)]));
}

/** Texts of /manager/service-package; ours where the spec gives none. */
export const PackageFormMessages = {
  chooseServices: 'Выберите услуги пакета',
  unknownService: 'Услуга не найдена или удалена',
  unknownProfile: 'Неизвестный профиль',
  oldPriceLower: 'Старая цена должна быть больше цены пакета',
  deleteConfirm: 'Вы уверены, что хотите удалить?',
} as const;

const required = { error: 'Обязательное поле' };

/** POST /api/service-package and PUT /api/service-package/{id}: services in their order, prices in rubles. */
export const savePackageBody = z
  .object({
    title: z.string(required).trim().min(1, required).max(255),
    description: z.string().max(20_000).nullish(),
    color: z.string().trim().min(1).max(32).default('grape'),
    /** Kopecks. */
    price: PRICE_FIELD,
    /** Kopecks; empty or 0 is none. */
    old_price: z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), PRICE_FIELD.nullish()),
    points: z.coerce.number().int().min(0).max(10_000).default(0),
    is_pinned: flagField().default(false),
    dict_profile_id: z.preprocess((v) => (v === '' || v === 0 ? null : v), z.coerce.number().int().positive().nullish()),
    services: z.array(z.coerce.number().int().positive()).min(1, { error: PackageFormMessages.chooseServices }).max(30),
  })
  .superRefine((v, ctx) => {
    if (v.old_price != null && v.old_price <= v.price) ctx.addIssue({ code: 'custom', path: ['old_price'], message: PackageFormMessages.oldPriceLower });
    if (new Set(v.services).size !== v.services.length) ctx.addIssue({ code: 'custom', path: ['services'], message: PackageFormMessages.chooseServices });
  });
export type SavePackageBody = z.input<typeof savePackageBody>;
