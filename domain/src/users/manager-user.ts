import { z } from 'zod';
import { isGuest, Role } from '../common/codes.ts';
import { dataAnswer, isoTimestamp, listAnswer, pageAnswer } from '../common/answers.ts';
import { flagNumber } from '../common/bounds.ts';
import { Messages } from '../common/messages.ts';
import { looksLikeEmail, normalizePhone } from '../common/phone.ts';
import { pageQuery, sortParam } from '../common/pagination.ts';
import { PASSWORD_MIN_LENGTH } from '../auth/register.ts';
import { ProfileMessages } from './profile.ts';
import { roleCodeSchema, userDetailsSchema } from './current-user.ts';

// The operator's users screen (spec 02 §2 Users list, User create/edit modal; §3 User; §6).

export const UserMessages = {
  loginAs: (fio: string) => `Вы вошли как ${fio}`,
  backToOperator: 'Вернуться к оператору',
  noLoginAsOperator: 'Нельзя войти от имени другого оператора',
  noLoginAsDeleted: 'Пользователь удалён',
  noLoginAsSelf: 'Это ваша учётная запись',
  notImpersonating: 'Вход от имени пользователя не выполнялся',
  noDeleteSelf: 'Нельзя удалить свою учётную запись',
  restored: 'Пользователь восстановлен',
  userNotFound: 'Пользователь не найден',
} as const;

/** Log values of the start and end of an operator's session as a user (type 'user'). */
export const LOGIN_AS_FIELD = 'login_as';
export const LoginAsLog = { started: 'начат', ended: 'завершён' } as const;

const boolParam = z.enum(['1', '0', 'true', 'false'], { error: 'Допустимо 1 или 0' });

/** Numbers separated by commas (`1,2,0`), as the URL keeps a multiple choice. */
const idList = z.union([z.string(), z.array(z.string())]).transform((v, ctx) => {
  const parts = (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean);
  const ids = parts.map(Number);
  if (ids.some((n) => !Number.isInteger(n) || n < 0 || n > 2147483647)) {
    ctx.addIssue({ code: 'custom', message: 'Неизвестный профиль' });
    return z.NEVER;
  }
  return [...new Set(ids)];
});

/** The sorts of the users list (name sorts by last name); without one: newest first. */
export const USER_SORTS = ['id', 'fio', 'email', 'created_at', 'left_sum'] as const;
export type UserSortKey = (typeof USER_SORTS)[number];

/**
 * GET /api/manager/users: id, fio, phone, email, role, profile (multiple choice; 0 = not filled),
 * deleted (empty = active users, true = deleted ones), is_spb; page, per_page, sort.
 */
export const userListQuery = pageQuery.extend({
  sort: sortParam(USER_SORTS),
  id: z.coerce
    .number({ error: 'Введите число' })
    .int({ error: 'Введите число' })
    .positive({ error: 'Введите число' })
    .max(2147483647, { error: 'Введите число' })
    .optional(),
  fio: z.string().trim().max(200).optional(),
  phone: z.string().trim().max(32).optional(),
  email: z.string().trim().max(255).optional(),
  role: z.coerce
    .number()
    .pipe(z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'Неизвестная роль' }))
    .optional(),
  profile: idList.optional(),
  deleted: boolParam.optional(),
  is_spb: flagNumber().optional(),
});

/** A user as the operator sees them (list row and the edit modal). Money in rubles. */
export const managedUserSchema = userDetailsSchema.extend({
  /** Empty for guests (they have a reserved address, see GUEST_EMAIL_DOMAIN). */
  email: z.string().nullable(),
  has_password: z.boolean(),
  /** When the person's data was erased (issue 33): the card is then read-only. */
  erased_at: isoTimestamp.nullable(),
});
export type ManagedUser = z.output<typeof managedUserSchema>;

/** GET /api/manager/users: a page of users. */
export const managedUsersAnswer = pageAnswer(managedUserSchema);
/** GET /api/manager/users/{id}. */
export const managedUserAnswer = dataAnswer(managedUserSchema);
/** POST, PUT /api/manager/users/{id}, restore: the user as saved (null only if gone meanwhile) and a notice. */
export const managedUserSavedAnswer = dataAnswer(managedUserSchema.nullable()).extend({ message: z.string() });

/** A new session's token (login as a user, back to the operator). */
export const sessionTokenSchema = z.object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_at: isoTimestamp });
/** POST /api/manager/users/{id}/login-as: the user's session and who they are. */
export const loginAsAnswer = sessionTokenSchema.extend({ user: z.object({ id: z.number().int(), fio: z.string() }) });
export type LoginAsAnswer = z.output<typeof loginAsAnswer>;
/** POST /api/login-as/leave: the operator's own session again. */
export const leaveLoginAsAnswer = sessionTokenSchema;

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: Messages.maxLength(max) });
const optional = (max: number) =>
  z
    .union([text(max), z.null()])
    .optional()
    .transform((v) => (v ? v : null));

/**
 * POST /api/manager/users and PUT /api/manager/users/{id}: the modal. A new user defaults to role 2;
 * guests (role 3) have no e-mail and phone; everyone else needs e-mail, phone, organization, job title
 * and at least one work profile. The password is write-only: sent only to change it (never on create).
 */
export const managerUserBody = z
  .object({
    // Required, but checked below with the rest so that every missing field is reported at once.
    last_name: text(255).default(''),
    first_name: text(255).default(''),
    middle_name: optional(255),
    role: z.coerce
      .number()
      .pipe(z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'Неизвестная роль' }))
      .default(Role.user),
    email: optional(255),
    phone: optional(32),
    organization: optional(500),
    job_title: optional(500),
    learned_from_us: optional(500),
    address: optional(500),
    region: optional(255),
    dict_region_id: z.coerce.number().int().positive().nullish(),
    country: optional(255),
    postcode: optional(16),
    note: optional(5000),
    profiles: z.array(z.coerce.number().int().positive()).default([]),
    is_spb: flagNumber().default(0),
    password: z
      .string()
      .max(200, { error: Messages.maxLength(200) })
      .optional()
      .nullable()
      .transform((v) => (v ? v : null)),
  })
  .transform((v, ctx) => {
    const guest = isGuest(v);
    const out = { ...v, email: guest ? null : v.email, phone: guest ? null : v.phone };
    if (!v.last_name) ctx.addIssue({ code: 'custom', path: ['last_name'], message: Messages.fieldRequired });
    if (!v.first_name) ctx.addIssue({ code: 'custom', path: ['first_name'], message: Messages.fieldRequired });
    if (!guest) {
      if (!v.email) ctx.addIssue({ code: 'custom', path: ['email'], message: Messages.fieldRequired });
      else if (!looksLikeEmail(v.email)) ctx.addIssue({ code: 'custom', path: ['email'], message: Messages.invalidEmail });
      else out.email = v.email.toLowerCase();
      if (!v.phone) ctx.addIssue({ code: 'custom', path: ['phone'], message: Messages.fieldRequired });
      else {
        const phone = normalizePhone(v.phone);
        if (!phone) ctx.addIssue({ code: 'custom', path: ['phone'], message: Messages.phoneFormat });
        else out.phone = phone;
      }
      if (!v.organization) ctx.addIssue({ code: 'custom', path: ['organization'], message: Messages.fieldRequired });
      if (!v.job_title) ctx.addIssue({ code: 'custom', path: ['job_title'], message: Messages.fieldRequired });
      if (v.profiles.length === 0) ctx.addIssue({ code: 'custom', path: ['profiles'], message: ProfileMessages.chooseProfile });
    }
    if (v.password !== null && v.password.length < PASSWORD_MIN_LENGTH)
      ctx.addIssue({ code: 'custom', path: ['password'], message: Messages.passwordMinLength });
    return out;
  })
  // The API document states what the check above requires: the names always, the rest unless the
  // role is a guest's (the fields keep their defaults so that every missing one is reported at once).
  .meta({
    required: ['last_name', 'first_name'],
    if: { properties: { role: { const: Role.guest } }, required: ['role'] },
    else: {
      required: ['email', 'phone', 'organization', 'job_title', 'profiles'],
      properties: { email: { minLength: 1 }, phone: { minLength: 1 }, organization: { minLength: 1 }, job_title: { minLength: 1 }, profiles: { minItems: 1 } },
    },
  });
export type ManagerUserInput = z.input<typeof managerUserBody>;
export type ManagerUserValues = z.output<typeof managerUserBody>;

/** POST /api/user/get-by-fio {fio}: users (and guests) found by full name, at most 20. */
export const getByFioBody = z.object({
  fio: z
    .string({ error: Messages.fieldRequired })
    .trim()
    .min(1, { error: Messages.fieldRequired })
    .max(200, { error: Messages.maxLength(200) }),
  role: z.coerce
    .number()
    .pipe(z.union([z.literal(1), z.literal(2), z.literal(3)]))
    .optional(),
});

/** Found by get-by-fio. */
export const userLookupSchema = z.object({
  id: z.number().int(),
  fio: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  organization: z.string().nullable(),
  job_title: z.string().nullable(),
  role: roleCodeSchema,
  role_label: z.string(),
});
export type UserLookup = z.output<typeof userLookupSchema>;
/** POST /api/user/get-by-fio: at most 20 users. */
export const userLookupAnswer = listAnswer(userLookupSchema);

/**
 * Guests have no e-mail, but users.email is required and unique: a guest gets a reserved address
 * (RFC 2606 `.invalid`, never deliverable) that the API shows as empty.
 */
export const GUEST_EMAIL_DOMAIN = 'guests.invalid';
export const isGuestEmail = (email: string | null | undefined) => Boolean(email?.toLowerCase().endsWith(`@${GUEST_EMAIL_DOMAIN}`));
