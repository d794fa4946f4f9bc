import { z } from 'zod';
import { idArray, idField, textField } from '../common/bounds.ts';
import { Messages } from '../common/messages.ts';
import { emailField, passwordField, phoneField } from '../auth/register.ts';

export const ProfileMessages = {
  fillProfiles: 'Заполните профили!',
  chooseProfile: 'Выберите хотя бы один профиль',
  avatarChanged: 'Изображение профиля успешно изменено!',
  avatarType: 'Загрузите изображение JPG или PNG',
  fileTooLarge: 'Файл больше 10 МБ',
  currentPassword: 'Текущий пароль',
  currentPasswordRequired: 'Введите текущий пароль',
  currentPasswordWrong: 'Неверный текущий пароль',
} as const;

const requiredText = z
  .string({ error: Messages.fieldRequired })
  .trim()
  .min(1, { error: Messages.fieldRequired })
  .max(500, { error: Messages.maxLength(500) });
const optionalText = z
  .string()
  .trim()
  .max(500, { error: Messages.maxLength(500) })
  .nullish();
const optionalShort = z
  .string()
  .trim()
  .max(255, { error: Messages.maxLength(255) })
  .nullish();

/**
 * PUT /api/user/{id} by the user: e-mail, phone, organization and job title are required; names are
 * read-only for non-operators (ignored when sent).
 */
export const updateOwnProfileBody = z.object({
  email: emailField,
  phone: phoneField,
  organization: requiredText,
  job_title: requiredText,
  learned_from_us: optionalText,
  address: optionalText,
  region: optionalShort,
  dict_region_id: idField().nullish(),
  country: optionalShort,
  postcode: z
    .string()
    .trim()
    .max(16, { error: Messages.maxLength(16) })
    .nullish(),
  contract_step: z.coerce.number().int().min(1).max(3).nullish(),
  last_name: textField(255).optional(),
  first_name: textField(255).optional(),
  middle_name: textField(255).nullish(),
  /** Required when the user changes their own e-mail. */
  current_password: z.string().max(255).optional(),
});

/**
 * PUT /api/user/{id} as the server takes it: an update changes only the fields it is given (the
 * contract wizard sends contract_step alone); a field that is sent is checked as in the form.
 */
export const updateUserBody = updateOwnProfileBody.partial();

/** POST /api/user/store-profiles/{id}: at least one work profile. */
export const storeProfilesBody = z.object({
  profiles: idArray(100).min(1, { error: ProfileMessages.chooseProfile }),
});

/** POST /api/user/{id}/change-password. */
export const changePasswordBody = z
  .object({
    /** Required when changing one's own password (an operator setting someone else's does not know it). */
    current_password: z.string().max(255).optional(),
    password: passwordField,
    password_confirmation: z.string().optional(),
  })
  .refine((v) => v.password_confirmation === undefined || v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    error: Messages.passwordsDontMatchBang,
  });

export const AVATAR_SIZE = 180;
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
