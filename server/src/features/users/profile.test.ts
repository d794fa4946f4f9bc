import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { Messages } from '@edu/domain/common/messages';
import { ProfileMessages } from '@edu/domain/users/profile';
import { ReviewMessages } from '@edu/domain/reviews/review';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { rows } from '../../platform/db.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const profile = (over: Record<string, unknown> = {}) => ({
  email: 'new-address@example.com',
  phone: '+7 (921) 555-44-33',
  organization: 'Гимназия № 2',
  job_title: 'Методист',
  learned_from_us: 'От коллег',
  last_name: 'Подменённая',
  ...over,
});

function multipart(field: string, filename: string, content: Buffer, type: string) {
  const boundary = '----edu' + Date.now();
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, content, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('own profile', () => {
  it('updates contacts and work data; names stay for non-operators', async () => {
    const u = await t.createUser({ password: 'own-secret' });
    const h = await t.loginAs(u);
    const res = await t.inject({ method: 'PUT', url: `/api/user/${u.id}`, headers: h, payload: profile({ current_password: 'own-secret' }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ email: 'new-address@example.com', phone: '+7 (921) 555-44-33', organization: 'Гимназия № 2', last_name: 'Петров' });
  });

  it('an update changes only what it is given: the profile form does not erase the address', async () => {
    const u = await t.createUser({
      address: 'ул. Садовая, 5',
      region: 'Ленинградская область',
      dict_region_id: 47,
      country: 'Россия',
      postcode: '188300',
      contract_step: 2,
    });
    const h = await t.loginAs(u);
    const res = await t.inject({
      method: 'PUT',
      url: `/api/user/${u.id}`,
      headers: h,
      payload: profile({ email: `kept-${u.id}@example.com`, phone: '+7 (921) 555-44-34', current_password: u.password }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      address: 'ул. Садовая, 5',
      region: 'Ленинградская область',
      dict_region_id: 47,
      country: 'Россия',
      postcode: '188300',
      contract_step: 2,
      organization: 'Гимназия № 2',
    });
    // The wizard sends its step alone.
    const step = await t.inject({ method: 'PUT', url: `/api/user/${u.id}`, headers: h, payload: { contract_step: 3 } });
    expect(step.statusCode).toBe(200);
    expect(step.json().data).toMatchObject({ contract_step: 3, email: `kept-${u.id}@example.com`, address: 'ул. Садовая, 5', job_title: 'Методист' });
    // A field sent empty is still refused, and an explicit null clears an optional one.
    expect((await t.inject({ method: 'PUT', url: `/api/user/${u.id}`, headers: h, payload: { organization: '' } })).statusCode).toBe(422);
    const cleared = await t.inject({ method: 'PUT', url: `/api/user/${u.id}`, headers: h, payload: { postcode: null } });
    expect(cleared.json().data).toMatchObject({ postcode: null, address: 'ул. Садовая, 5' });
  });

  it('takes an update sent as POST with _method=PUT', async () => {
    const u = await t.createUser();
    const h = await t.loginAs(u);
    const res = await t.inject({ method: 'POST', url: `/api/user/${u.id}?_method=PUT`, headers: h, payload: { job_title: 'Завуч' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.job_title).toBe('Завуч');
  });

  it('requires e-mail, phone, organization and job title, and refuses taken contacts', async () => {
    const u = await t.createUser();
    const h = await t.loginAs(u);
    const res = await t.inject({ method: 'PUT', url: `/api/user/${u.id}`, headers: h, payload: { email: '', phone: 'x', organization: ' ', job_title: '' } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'job_title', 'organization', 'phone']);
    const other = await t.createUser();
    const taken = await t.inject({
      method: 'PUT',
      url: `/api/user/${u.id}`,
      headers: h,
      payload: profile({ email: other.email, phone: '+7 (921) 000-00-01' }),
    });
    expect(taken.json().errors.email).toEqual([Messages.emailTaken]);
  });

  it('an operator may change names; another user gets 404', async () => {
    const u = await t.createUser();
    const op = await t.loginAs(await t.createUser({ role: 1 }));
    const res = await t.inject({
      method: 'PUT',
      url: `/api/user/${u.id}`,
      headers: op,
      payload: profile({ email: 'renamed@example.com', phone: '+7 (921) 000-00-02', first_name: 'Анна' }),
    });
    expect(res.json().data).toMatchObject({ last_name: 'Подменённая', first_name: 'Анна' });
    const stranger = await t.loginAs(await t.createUser());
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: `/api/user/${u.id}`,
          headers: stranger,
          payload: profile({ email: 'x@example.com', phone: '+7 (921) 000-00-03' }),
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.inject({ method: 'POST', url: `/api/user/store-profiles/${u.id}`, headers: stranger, payload: { profiles: [1] } })).statusCode).toBe(404);
    expect((await t.inject({ method: 'POST', url: `/api/user/${u.id}/change-password`, headers: stranger, payload: { password: 'hijack' } })).statusCode).toBe(
      404,
    );
  });

  it('stores at least one known work profile', async () => {
    const u = await t.createUser();
    const h = await t.loginAs(u);
    expect((await t.inject({ method: 'POST', url: `/api/user/store-profiles/${u.id}`, headers: h, payload: { profiles: [] } })).json().errors.profiles).toEqual(
      [ProfileMessages.chooseProfile],
    );
    expect((await t.inject({ method: 'POST', url: `/api/user/store-profiles/${u.id}`, headers: h, payload: { profiles: [999] } })).statusCode).toBe(422);
    const res = await t.inject({ method: 'POST', url: `/api/user/store-profiles/${u.id}`, headers: h, payload: { profiles: [5, 2, 5] } });
    expect(res.json().data.profiles.map((p: { id: number }) => p.id)).toEqual([2, 5]);
  });

  it('changes the password when both fields match', async () => {
    const u = await t.createUser({ password: 'before' });
    const h = await t.loginAs(u);
    const bad = await t.inject({
      method: 'POST',
      url: `/api/user/${u.id}/change-password`,
      headers: h,
      payload: { current_password: 'before', password: 'after1', password_confirmation: 'after2' },
    });
    expect(bad.json().errors.password_confirmation).toEqual([Messages.passwordsDontMatchBang]);
    const ok = await t.inject({
      method: 'POST',
      url: `/api/user/${u.id}/change-password`,
      headers: h,
      payload: { current_password: 'before', password: 'after1', password_confirmation: 'after1' },
    });
    expect(ok.json().message).toBe(Messages.passwordUpdated);
    expect((await t.inject({ method: 'POST', url: '/login', payload: { email: u.email, password: 'after1' } })).statusCode).toBe(200);
  });
});

describe('avatar', () => {
  it('takes a png by content, stores it as a 180x180 jpeg behind an unguessable url', async () => {
    const u = await t.createUser();
    const h = await t.loginAs(u);
    const png = await sharp({ create: { width: 640, height: 400, channels: 3, background: '#3b82f6' } })
      .png()
      .toBuffer();
    const { payload, headers } = multipart('file', 'me.png', png, 'image/png');
    const res = await t.inject({ method: 'POST', url: `/api/user/${u.id}/upload-avatar`, headers: { ...h, ...headers }, payload });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(ProfileMessages.avatarChanged);
    const url = res.json().data.avatar_url as string;
    expect(url).toMatch(/^\/api\/avatar\/[a-f0-9]{2}\/[a-f0-9]{32}\.jpg$/);
    const img = await t.inject({ method: 'GET', url });
    expect(img.headers['content-type']).toBe('image/jpeg');
    expect(img.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    const meta = await sharp(img.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([180, 180]);
  });

  it('serves only the current avatar of a live user: a replaced one is 404 at once, so is the avatar of a deleted user', async () => {
    const u = await t.createUser();
    const h = await t.loginAs(u);
    const upload = async (background: string) => {
      const png = await sharp({ create: { width: 200, height: 200, channels: 3, background } })
        .png()
        .toBuffer();
      const { payload, headers } = multipart('file', 'me.png', png, 'image/png');
      const res = await t.inject({ method: 'POST', url: `/api/user/${u.id}/upload-avatar`, headers: { ...h, ...headers }, payload });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.avatar_url as string;
    };
    const first = await upload('#ff0000');
    expect((await t.inject({ method: 'GET', url: first })).statusCode).toBe(200);
    const second = await upload('#00ff00');
    expect(second).not.toBe(first);
    expect((await t.inject({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: second })).statusCode).toBe(200);
    // The replaced file is retired (the retention job removes its bytes later), the current one is live.
    const retired = await rows<{ storage_key: string; deleted: boolean }>(
      t.database.db,
      sql`select storage_key, deleted_at is not null as deleted from files where user_id = ${u.id} order by id`,
    );
    expect(retired.map((f) => [`/api/avatar/${f.storage_key}`, f.deleted])).toEqual([
      [first, true],
      [second, false],
    ]);
    await t.database.db.execute(sql`update users set deleted_at = now() where id = ${u.id}`);
    expect((await t.inject({ method: 'GET', url: second })).statusCode).toBe(404);
  });

  it('refuses a non-image named .png and a file over 10 MB', async () => {
    const u = await t.createUser();
    const h = await t.loginAs(u);
    const fake = multipart('file', 'virus.png', Buffer.from('MZ this is not an image at all'), 'image/png');
    const res = await t.inject({ method: 'POST', url: `/api/user/${u.id}/upload-avatar`, headers: { ...h, ...fake.headers }, payload: fake.payload });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual([ProfileMessages.avatarType]);
    const big = multipart('file', 'big.png', Buffer.alloc(10 * 1024 * 1024 + 10, 1), 'image/png');
    const tooBig = await t.inject({ method: 'POST', url: `/api/user/${u.id}/upload-avatar`, headers: { ...h, ...big.headers }, payload: big.payload });
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().errors.file).toEqual([ProfileMessages.fileTooLarge]);
  });
});

describe('reviews', () => {
  it('need text and belong to the asker', async () => {
    const u = await t.createUser();
    const other = await t.createUser();
    const h = await t.loginAs(u);
    expect((await t.inject({ method: 'POST', url: '/api/review', headers: h, payload: { text: '  ' } })).statusCode).toBe(422);
    const res = await t.inject({ method: 'POST', url: '/api/review', headers: h, payload: { text: 'Спасибо за вебинар!', user_id: other.id } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: ReviewMessages.sent, data: { user_id: u.id, status: 0 } });
  });
});
