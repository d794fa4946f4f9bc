import { z } from 'zod';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { Messages } from '@edu/domain/common/messages';
import { messageAnswer } from '@edu/domain/common/answers';
import {
  getByFioBody,
  leaveLoginAsAnswer,
  loginAsAnswer,
  managedUserAnswer,
  managedUsersAnswer,
  managedUserSavedAnswer,
  managerUserBody,
  UserMessages,
  userListQuery,
  userLookupAnswer,
} from '@edu/domain/users/manager-user';
import { currentUser } from '../../platform/auth.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { leaveLoginAs, loginAs, deleteUser, restoreUser, saveUser } from './manager-user-rules.ts';
import { findManagedUser, findUsersByFio, listUsers } from './manager-users-repository.ts';

const idParams = z.object({ id: z.coerce.number().int().positive().max(2147483647) });
const tags = ['manager users'];

/**
 * The operator's users (spec 02 §2 Users list, the modal, login as a user). Registered in the
 * operator scope with the prefix /api (app.ts), which guards every route here.
 */
export const managerUserRoutes: RoutesPlugin = async (app) => {
  /** GET /api/manager/users: filters id, fio, phone, email, role, profile (0 = not filled), deleted, is_spb. */
  app.get(
    '/manager/users',
    { schema: { tags, summary: 'Список пользователей с фильтрами', querystring: userListQuery, response: { 200: managedUsersAnswer } } },
    async (request) => {
      const q = request.query;
      return listUsers(
        app.database,
        {
          id: q.id,
          fio: q.fio,
          phone: q.phone,
          email: q.email,
          role: q.role,
          profile: q.profile,
          deleted: q.deleted === '1' || q.deleted === 'true',
          is_spb: q.is_spb,
        },
        q,
      );
    },
  );

  /** GET /api/manager/users/{id}: the user card with entry count, paid count and amount due (deleted ones too). */
  app.get(
    '/manager/users/:id',
    { schema: { tags, summary: 'Карточка пользователя', params: idParams, response: { 200: managedUserAnswer } } },
    async (request) => {
      const user = await findManagedUser(app.db, request.params.id);
      if (!user) throw notFound(UserMessages.userNotFound);
      return { data: user };
    },
  );

  /** POST /api/manager/users: a new user (role 2 by default; guests without e-mail and phone). */
  app.post(
    '/manager/users',
    { config: { refuses: [503] }, schema: { tags, summary: 'Создать пользователя', body: managerUserBody, response: { 201: managedUserSavedAnswer } } },
    async (request, reply) => {
      const id = await saveUser(app.db, currentUser(request), null, request.body);
      return reply.status(201).send({ data: await findManagedUser(app.db, id), message: Messages.saved });
    },
  );

  /** PUT /api/manager/users/{id}: every field, the work profiles and, when sent, a new password. */
  app.put(
    '/manager/users/:id',
    {
      config: { refuses: [503] },
      schema: { tags, summary: 'Изменить пользователя', params: idParams, body: managerUserBody, response: { 200: managedUserSavedAnswer } },
    },
    async (request) => {
      const id = await saveUser(app.db, currentUser(request), request.params.id, request.body);
      return { data: await findManagedUser(app.db, id), message: Messages.saved };
    },
  );

  /** DELETE /api/manager/users/{id}: soft delete. */
  app.delete(
    '/manager/users/:id',
    { schema: { tags, summary: 'Удалить пользователя', params: idParams, response: { 200: messageAnswer } } },
    async (request) => {
      await deleteUser(app.db, currentUser(request), request.params.id);
      return { message: Messages.deleted };
    },
  );

  /** POST /api/manager/users/{id}/restore: deleted_at cleared. */
  app.post(
    '/manager/users/:id/restore',
    { schema: { tags, summary: 'Восстановить удалённого пользователя', params: idParams, response: { 200: managedUserSavedAnswer } } },
    async (request) => {
      await restoreUser(app.db, currentUser(request), request.params.id);
      return { data: await findManagedUser(app.db, request.params.id), message: UserMessages.restored };
    },
  );

  /** POST /api/manager/users/{id}/login-as: the operator's session becomes the user's (answers the new token). */
  app.post(
    '/manager/users/:id/login-as',
    { schema: { tags, summary: 'Войти как пользователь', params: idParams, response: { 200: loginAsAnswer } } },
    async (request) => loginAs(app.db, currentUser(request), request.params.id, { ip: request.ip, userAgent: request.headers['user-agent'] }),
  );

  /** POST /api/user/get-by-fio {fio, role?}: users found by full name (the guests lookup). */
  app.post(
    '/user/get-by-fio',
    { schema: { tags, summary: 'Пользователи по ФИО', body: getByFioBody, response: { 200: userLookupAnswer } } },
    async (request) => ({
      data: await findUsersByFio(app.db, request.body.fio, request.body.role),
    }),
  );
};

/** POST /api/login-as/leave: from the user's session back to the operator's (a session of the user, so outside the operator scope). */
export const loginAsLeaveRoutes: RoutesPlugin = async (app) => {
  app.post(
    '/login-as/leave',
    { config: { access: 'session' }, schema: { tags, summary: 'Выйти из сессии пользователя в свою', response: { 200: leaveLoginAsAnswer } } },
    async (request) => {
      const session = await leaveLoginAs(app.db, currentUser(request), { ip: request.ip, userAgent: request.headers['user-agent'] });
      if (!session) throw forbidden();
      return session;
    },
  );
};
