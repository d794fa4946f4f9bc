import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { accessPlugin } from '../src/platform/access.ts';
import { createTestApp, type TestApp } from './helper.ts';

// The operator area's access rule (spec 02 §2, §6), checked on the server's own route table: every
// route declared 'operator' (platform/access.ts; the manager area in app.ts declares it for all its
// routes) answers 401 without a session and 403 to users and guests. A route that declares no access
// stops the app from starting.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// Ids no record has: the operator's pass must not delete or log into anything real.
const concrete = (url: string) => url.replace(/:(\w+)\??/g, (_m, name: string) => (/id$/i.test(name) ? '2147483000' : 'x'));

describe('the manager guard', () => {
  it('answers 401 without a session and 403 to a user and a guest on every manager route', async () => {
    const routes = t.app.routeTable().filter((r) => r.access === 'operator');
    // The dashboard statistics and the card-provider list at least; the area grows with every issue.
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['GET /api/entry/statistics', 'GET /api/publication/count-pending', 'GET /api/yookassa']),
    );
    const user = await t.createUser({ role: Role.user });
    const guest = await t.createUser({ role: Role.guest });
    const asUser = await t.loginAs(user);
    const asGuest = await t.loginAs(guest);
    const operator = await t.createUser({ role: Role.operator });
    const asOperator = await t.loginAs(operator);
    for (const r of routes) {
      const url = concrete(r.url);
      const method = r.method as 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
      const anonymous = await t.inject({ method, url });
      expect(anonymous.statusCode, `${r.method} ${r.url} without a session`).toBe(401);
      expect(anonymous.json()).toEqual({ message: Messages.unauthenticated });
      for (const headers of [asUser, asGuest]) {
        const res = await t.inject({ method, url, headers });
        expect(res.statusCode, `${r.method} ${r.url} as a non-operator`).toBe(403);
        expect(res.json()).toEqual({ message: Messages.forbidden });
      }
      // The guard lets operators through (whatever the route then answers, it is not 401/403 or a 500).
      const allowed = await t.inject({ method, url, headers: asOperator });
      expect([401, 403, 500], `${r.method} ${r.url} as an operator`).not.toContain(allowed.statusCode);
    }
  });

  it('an app with a route that declares no access refuses to start', async () => {
    const app = Fastify();
    await app.register(accessPlugin);
    app.get('/api/manager/forgotten', async () => ({ ok: true }));
    app.get('/api/declared', { config: { access: 'public' } }, async () => ({ ok: true }));
    await expect(app.ready()).rejects.toThrow(/Routes without declared access: GET \/api\/manager\/forgotten$/);
    await app.close().catch(() => undefined);
  });

  it('a deleted operator is signed out', async () => {
    const operator = await t.createUser({ role: Role.operator, deleted_at: new Date() });
    const res = await t.inject({ method: 'GET', url: '/api/entry/statistics', headers: await t.loginAs(operator) });
    expect(res.statusCode).toBe(401);
  });
});
