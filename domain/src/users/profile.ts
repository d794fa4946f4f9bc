import { z } from 'zod';
import { Messages } from '../common/messages.ts';
import { emailField, passwordField, phoneField } from '../auth/register.ts';

export const ProfileMessages = {
  fillProfiles: 'Заполните профили!',
  chooseProfile: 'Выберите хотя бы один профиль',
  avatarChanged: 'Изображение профиля успешно изменено!',
  avatarType: 'Загрузите изображение JPG или PNG',
  fileTooLarge: 'Файл больше 10 МБ',
} as const;

const requiredText = z.string({ error: Messages.fieldRequired }).trim().min(1, { error: Messages.fieldRequired }).max(500, { error: Messages.maxLength(500) });
const optionalText = z.string().trim().max(500, { error: Messages.maxLength(500) }).nullish();

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
  region: optionalText,
  dict_region_id: z.coerce.number().int().positive().nullish(),
  country: optionalText,
  postcode: z.string().trim().max(16).nullish(),
  contract_step: z.coerce.number().int().min(1).max(3).nullish(),
  last_name: z.string().optional(),
  first_name: z.string().optional(),
  middle_name: z.string().nullish(),
});

/** POST /api/user/store-profiles/{id}: at least one work profile. */
export const storeProfilesBody = z.object({
  profiles: z.array(z.coerce.number().int().positive()).min(1, { error: ProfileMessages.chooseProfile }),
});

/** POST /api/user/{id}/change-password. */
export const changePasswordBody = z
  .object({ password: passwordField, password_confirmation: z.string().optional() })
  .refine((v) => v.password_confirmation === undefined || v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    error: Messages.passwordsDontMatchBang,
  });

export const AVATAR_SIZE = 180;
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
