import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Role } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { ReviewAdminMessages, ReviewMessages } from '@edu/domain/reviews/review';
import { reviews } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';

let t: TestApp;
let op: Record<string, string>;
let user: Record<string, string>;
let userId: number;
let other: { id: number };
beforeAll(async () => {
  t = await createTestApp();
  op = await t.loginAs(await t.createUser({ role: Role.operator }));
  const u = await t.createUser({ last_name: 'Отзывова', first_name: 'Анна', middle_name: 'Ивановна' });
  userId = u.id;
  user = await t.loginAs(u);
  other = await t.createUser();
});
afterAll(() => t.close());

const call = (method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: unknown, headers = op) =>
  t.inject({ method, url, headers, payload: payload as object });

async function pendingReview(text: string) {
  const res = await call('POST', '/api/review', { text, user_id: other.id }, user);
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: number; user_id: number; status: number };
}

describe('reviews', () => {
  it("keeps the user's review pending and authored by the asker, whatever user_id says", async () => {
    const review = await pendingReview('Отличные курсы');
    expect(review).toMatchObject({ user_id: userId, status: 0 });
    const res = await call('POST', '/api/review', { text: ' ' }, user);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.text).toEqual([Messages.fieldRequired]);
    expect((await call('POST', '/api/review', { text: 'x' }, user)).json().message).toBe(ReviewMessages.sent);
  });

  it('lists pending reviews with the author, the date and pages', async () => {
    const review = await pendingReview('Спасибо за вебинар');
    const res = await call('GET', '/api/review?per_page=100');
    expect(res.statusCode).toBe(200);
    const row = res.json().data.find((r: { id: number }) => r.id === review.id);
    expect(row).toMatchObject({
      text: 'Спасибо за вебинар',
      status: 0,
      user: { id: userId, fio: 'Отзывова Анна Ивановна', avatar_url: null },
      created_at_formatted: expect.stringMatching(/^\d{2}\.\d{2}\.\d{4}$/),
    });
    expect(res.json().meta).toMatchObject({ current_page: 1, per_page: 100 });
    const page = await call('GET', '/api/review?per_page=15&page=2');
    expect(page.json().meta.current_page).toBe(2);
    expect((await call('GET', '/api/review?per_page=7')).statusCode).toBe(422);
  });

  it('accepts, edits and declines only pending reviews', async () => {
    const a = await pendingReview('Первый');
    const edit = await call('PUT', `/api/review/${a.id}`, { text: 'Первый, исправленный' });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ message: ReviewAdminMessages.saved, data: { text: 'Первый, исправленный' } });
    expect((await call('PUT', `/api/review/${a.id}`, { text: '' })).statusCode).toBe(422);
    const accept = await call('POST', `/api/review/${a.id}/accept`);
    expect(accept.json()).toMatchObject({ message: ReviewAdminMessages.published, data: { status: 1 } });
    for (const [method, url] of [
      ['POST', `/api/review/${a.id}/accept`],
      ['PUT', `/api/review/${a.id}`],
      ['DELETE', `/api/review/${a.id}`],
    ] as const) {
      const res = await call(method, url, { text: 'ещё' });
      expect(res.statusCode, `${method} ${url}`).toBe(422);
      expect(res.json().message).toBe(ReviewAdminMessages.notPending);
    }
    const list = (await call('GET', '/api/review?per_page=100')).json().data.map((r: { id: number }) => r.id);
    expect(list).not.toContain(a.id);

    const b = await pendingReview('Второй');
    const del = await call('DELETE', `/api/review/${b.id}`);
    expect(del.json()).toEqual({ message: ReviewAdminMessages.deleted });
    const [row] = await t.database.db.select().from(reviews).where(eq(reviews.id, b.id));
    expect(row.deleted_at).not.toBeNull();
    expect((await call('POST', `/api/review/${b.id}/accept`)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/review/2147483000')).statusCode).toBe(404);
  });

  it('keeps the history: published and declined reviews by status, newest first, with their state; unknown statuses refused', async () => {
    const published = await pendingReview('История: опубликован');
    const declined = await pendingReview('История: отклонён');
    const waiting = await pendingReview('История: ждёт');
    expect((await call('POST', `/api/review/${published.id}/accept`)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/review/${declined.id}`)).statusCode).toBe(200);
    const list = async (status: string) => {
      const res = await call('GET', `/api/review?status=${status}&per_page=100`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as Array<{ id: number; state: string; state_label: string; handled_at_formatted: string | null }>;
    };
    const ids = (l: Array<{ id: number }>) => l.map((r) => r.id);
    expect(ids(await list('0'))).toContain(waiting.id);
    expect(ids(await list('0'))).not.toContain(published.id);
    const pub = (await list('1')).find((r) => r.id === published.id);
    expect(pub).toMatchObject({ state: 'published', state_label: 'Опубликован' });
    expect(pub?.handled_at_formatted).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(ids(await list('1'))).not.toContain(waiting.id);
    const dec = await list('declined');
    expect(dec.find((r) => r.id === declined.id)).toMatchObject({ state: 'declined', state_label: 'Отклонён' });
    expect(ids(dec)).not.toContain(published.id);
    const all = ids(await list('all'));
    for (const id of [published.id, declined.id, waiting.id]) expect(all).toContain(id);
    // The history is newest first: the declined one was handled last.
    expect(all.indexOf(declined.id)).toBeLessThan(all.indexOf(published.id));
    const odd = await call('GET', '/api/review?status=9');
    expect(odd.statusCode).toBe(422);
    expect(odd.json().errors.status).toEqual(['Неизвестный статус']);
  });

  it('accepts a review once under two parallel clicks', async () => {
    const c = await pendingReview('Третий');
    const [x, y] = await Promise.all([call('POST', `/api/review/${c.id}/accept`), call('DELETE', `/api/review/${c.id}`)]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 422]);
  });

  it("publishes an operator's review for the picked author at once", async () => {
    const res = await call('POST', '/api/review', { text: 'Рекомендую коллегам', user_id: other.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ message: ReviewAdminMessages.published, data: { user_id: other.id, status: 1 } });
    const noAuthor = await call('POST', '/api/review', { text: 'Без автора' });
    expect(noAuthor.statusCode).toBe(422);
    expect(noAuthor.json().errors).toEqual({ user_id: [ReviewAdminMessages.authorRequired] });
    const ghost = await call('POST', '/api/review', { text: 'Призрак', user_id: 2147483000 });
    expect(ghost.json().errors).toEqual({ user_id: [ReviewAdminMessages.unknownAuthor] });
  });

  it('lets users list, accept, edit and decline nothing', async () => {
    const d = await pendingReview('Четвёртый');
    expect((await call('GET', '/api/review', undefined, user)).statusCode).toBe(403);
    expect((await call('POST', `/api/review/${d.id}/accept`, undefined, user)).statusCode).toBe(403);
    expect((await call('PUT', `/api/review/${d.id}`, { text: 'Сам себя похвалю' }, user)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/review/${d.id}`, undefined, user)).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: '/api/review' })).statusCode).toBe(401);
  });
});
