import { z } from 'zod';
import sharp from 'sharp';
import { idParams } from '@edu/domain/common/bounds';
import type { FastifyInstance } from 'fastify';
import { fileAnswer, multipartForm, type RoutesPlugin } from '../../platform/responses.ts';
import { Messages } from '@edu/domain/common/messages';
import { messageAnswer } from '@edu/domain/common/answers';
import { AVATAR_SIZE, changePasswordBody, ProfileMessages, storeProfilesBody, updateUserBody } from '@edu/domain/users/profile';
import { currentUserAnswer, currentUserSavedAnswer, publicConfigAnswer } from '@edu/domain/users/current-user';
import { bearer, currentUser, hashToken, revokeUserSessions, touchSession } from '../../platform/auth.ts';
import { clearAttempts, takeAttempt } from '../../platform/attempts.ts';
import { AppError, fieldError, notFound, unauthenticated, validationError } from '../../platform/errors.ts';
import { IMAGE_MIMES, retireFiles } from '../../platform/files.ts';
import { readCheckedUploads } from '../../platform/uploads.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { logChange } from '../../platform/change-log.ts';
import { loadCurrentUser, loadCurrentUserBy } from './current-user.ts';
import { isOperator } from '../../platform/access.ts';
import { assertUserReachable } from './user-policy.ts';
import { userFileHeaders } from '../../platform/security-headers.ts';
import {
  findContactClashes,
  findKnownProfileIds,
  findLiveAvatar,
  findPasswordHash,
  findUserEmail,
  lockProfileFields,
  lockUserAvatar,
  replaceUserProfiles,
  setUserAvatar,
  setUserPassword,
  updateUserProfile,
} from './users-repository.ts';

/**
 * One's own password or e-mail changes only with the current password. Wrong guesses take from the
 * same kind of budget as logins, so a stolen session cannot brute-force it.
 */
async function assertCurrentPassword(app: FastifyInstance, userId: number, given: string | undefined): Promise<void> {
  if (!given) throw fieldError('current_password', ProfileMessages.currentPasswordRequired);
  const { perAccount, windowMinutes } = app.config.loginLimits;
  const key = `current-password:${userId}`;
  if (!(await takeAttempt(app.db, key, perAccount, windowMinutes))) throw new AppError(429, Messages.tooManyAttempts);
  const row = await findPasswordHash(app.db, userId);
  if (!row?.password || !(await verifyPassword(row.password, given))) throw fieldError('current_password', ProfileMessages.currentPasswordWrong);
  await clearAttempts(app.db, key);
}

export const userRoutes: RoutesPlugin = async (app) => {
  /** GET /api/get: the whole current user with computed fields; the session check is in the same query. */
  app.get(
    '/get',
    { config: { access: 'user', sessionInHandler: true }, schema: { tags: ['users'], summary: 'Текущий пользователь', response: { 200: currentUserAnswer } } },
    async (request) => {
      const token = bearer(request);
      const loaded = token ? await loadCurrentUserBy(app.database, { tokenHash: hashToken(token) }) : null;
      if (!loaded || loaded.tokenId === null) throw unauthenticated();
      request.user = { id: loaded.user.id, role: loaded.user.role, tokenId: loaded.tokenId, impersonatorId: null };
      if (loaded.lastUsedAt) await touchSession(app.db, loaded.tokenId, loaded.lastUsedAt);
      return loaded.user;
    },
  );

  /** GET /api/public-config: settings the web app reads at run time (the legacy cabinet link, OLD_CABINET_URL). Public. */
  app.get(
    '/public-config',
    { config: { access: 'public' }, schema: { tags: ['users'], summary: 'Общедоступные настройки веб-приложения', response: { 200: publicConfigAnswer } } },
    async () => ({
      data: { old_cabinet_url: app.config.oldCabinetUrl },
    }),
  );

  /** PUT /api/user/{id}: own profile. Names stay as they are unless an operator edits. */
  app.put(
    '/user/:id',
    {
      config: { access: { owner: 'user' }, refuses: [429, 503] },
      schema: { tags: ['users'], summary: 'Изменить свой профиль', params: idParams, body: updateUserBody, response: { 200: currentUserSavedAnswer } },
    },
    async (request) => {
      const me = currentUser(request);
      const id = request.params.id;
      assertUserReachable(me, id);
      const b = request.body;
      const clash = b.email !== undefined || b.phone !== undefined ? await findContactClashes(app.db, id, b.email ?? null, b.phone ?? null) : [];
      if (clash.length) {
        const errors: Record<string, string[]> = {};
        if (b.email !== undefined && clash.some((c) => c.email.toLowerCase() === b.email)) errors.email = [Messages.emailTaken];
        if (b.phone !== undefined && clash.some((c) => c.phone === b.phone)) errors.phone = [Messages.phoneTaken];
        throw validationError(errors);
      }
      if (me.id === id) {
        const current = await findUserEmail(app.db, id);
        if (current && b.email !== undefined && current.email.toLowerCase() !== b.email.toLowerCase()) await assertCurrentPassword(app, id, b.current_password);
      }
      const names =
        isOperator(me) && b.last_name?.trim() && b.first_name?.trim()
          ? { last_name: b.last_name.trim(), first_name: b.first_name.trim(), middle_name: b.middle_name?.trim() || null }
          : {};
      // Only what was sent changes: a form that does not show the address must not erase it.
      const given = <K extends keyof typeof b>(key: K) => (b[key] !== undefined ? { [key]: b[key] ?? null } : {});
      const changes = {
        ...names,
        ...given('email'),
        ...given('phone'),
        ...given('organization'),
        ...given('job_title'),
        ...given('learned_from_us'),
        ...given('address'),
        ...given('region'),
        ...given('dict_region_id'),
        ...given('country'),
        ...given('postcode'),
        ...(b.contract_step !== undefined ? { contract_step: b.contract_step } : {}),
      };
      await app.db.transaction(async (tx) => {
        const before = await lockProfileFields(tx, id);
        if (!before || !(await updateUserProfile(tx, id, changes))) throw notFound();
        await logChange(tx, { type: 'user', entityId: id, userId: me.id, before, after: (await lockProfileFields(tx, id)) ?? null });
      });
      return { data: await loadCurrentUser(app.database, id), message: Messages.saved };
    },
  );

  /** POST /api/user/store-profiles/{id} {profiles: [ids]}: replaces the work profiles (at least one). */
  app.post(
    '/user/store-profiles/:id',
    {
      config: { access: { owner: 'user' } },
      schema: {
        tags: ['users'],
        summary: 'Сохранить профили работы пользователя',
        params: idParams,
        body: storeProfilesBody,
        response: { 200: currentUserSavedAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const id = request.params.id;
      assertUserReachable(me, id);
      const wanted = [...new Set(request.body.profiles)];
      const known = await findKnownProfileIds(app.db, wanted);
      if (known.length !== wanted.length) throw fieldError('profiles', 'Неизвестный профиль');
      await app.db.transaction(async (tx) => {
        const before = await replaceUserProfiles(tx, id, wanted);
        const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
        await logChange(tx, {
          type: 'user',
          entityId: id,
          userId: me.id,
          before: { profiles: sorted(before) },
          after: { profiles: sorted(wanted) },
        });
      });
      return { data: await loadCurrentUser(app.database, id), message: Messages.saved };
    },
  );

  /**
   * POST /api/user/{id}/change-password {current_password, password, password_confirmation}. One's own
   * password needs the current one; every other session of the user ends (this one stays).
   */
  app.post(
    '/user/:id/change-password',
    {
      config: { access: { owner: 'user' }, refuses: [429, 503] },
      schema: { tags: ['users'], summary: 'Сменить пароль', params: idParams, body: changePasswordBody, response: { 200: messageAnswer } },
    },
    async (request) => {
      const me = currentUser(request);
      const id = request.params.id;
      assertUserReachable(me, id);
      if (me.id === id) await assertCurrentPassword(app, id, request.body.current_password);
      const password = await hashPassword(request.body.password);
      await app.db.transaction(async (tx) => {
        if (!(await setUserPassword(tx, id, password))) throw notFound();
        // The log says that the password changed, never the hash.
        await logChange(tx, { type: 'user', entityId: id, userId: me.id, before: { password: '***' }, after: { password: '*** (изменён)' } });
      });
      await revokeUserSessions(app.db, id, me.id === id ? me.tokenId : undefined);
      return { message: Messages.passwordUpdated };
    },
  );

  /** POST /api/user/{id}/upload-avatar (multipart "file"): jpg or png by content, at most 10 MB, stored as 180x180. */
  app.post(
    '/user/:id/upload-avatar',
    {
      config: { access: { owner: 'user' } },
      schema: {
        tags: ['users'],
        summary: 'Загрузить аватар',
        params: idParams,
        form: multipartForm(z.object({}), { file: { description: 'Изображение jpg или png, до 10 МБ', required: true } }),
        response: { 200: currentUserSavedAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      assertUserReachable(me, request.params.id);
      const id = request.params.id;
      // The quota is not asked here: the stored avatar is a small jpeg and replaces the previous one.
      const form = await readCheckedUploads(request, { allowed: IMAGE_MIMES, typeMessage: ProfileMessages.avatarType, quota: false });
      const upload = form.files[0];
      if (!upload) throw fieldError('file', ProfileMessages.avatarType);
      let resized: Buffer;
      try {
        resized = await sharp(upload.path).rotate().resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' }).jpeg({ quality: 85 }).toBuffer();
      } catch {
        throw fieldError('file', ProfileMessages.avatarType);
      }
      let stored: string | null = null;
      try {
        await app.db.transaction(async (tx) => {
          const before = await lockUserAvatar(tx, id);
          if (!before) throw notFound();
          const file = await app.files.save(tx, { userId: id, name: upload.name || 'avatar.jpg', mime: 'image/jpeg', buffer: resized, ext: 'jpg' });
          stored = file.storage_key;
          await setUserAvatar(tx, id, file.id);
          // The log names the files (ids the log screen shows by name), never their bytes.
          await logChange(tx, { type: 'user', entityId: id, userId: me.id, before: { avatar_id: before.avatar_id }, after: { avatar_id: file.id } });
          // The previous avatar stops being served at once; its bytes go after the retention period.
          await retireFiles(tx, [before.avatar_id]);
        });
      } catch (err) {
        if (stored) await app.files.remove(stored).catch(() => undefined);
        throw err;
      }
      return { data: await loadCurrentUser(app.database, request.params.id), message: ProfileMessages.avatarChanged };
    },
  );

  /** GET /api/avatar/{key}: avatars are not private; the 128-bit random key is the only way to one. */
  app.get(
    '/avatar/:a/:b',
    {
      config: { access: 'public' },
      schema: {
        tags: ['users'],
        summary: 'Аватар пользователя',
        params: z.object({ a: z.string().regex(/^[a-f0-9]{2}$/), b: z.string().regex(/^[a-f0-9]{32}\.jpg$/) }),
        response: { 200: fileAnswer('Изображение профиля', 'image/jpeg') },
      },
    },
    async (request, reply) => {
      const key = `${request.params.a}/${request.params.b}`;
      // Only a current avatar of a live user: a replaced or deleted one is gone at once.
      const file = await findLiveAvatar(app.db, key);
      if (!file) throw notFound();
      const data = await app.files.read(key).catch(() => null);
      if (!data) throw notFound();
      return userFileHeaders(reply).type('image/jpeg').header('cache-control', 'private, max-age=86400').send(data);
    },
  );
};
