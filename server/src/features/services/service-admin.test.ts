import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { Messages } from '@edu/domain/common/messages';
import { ServiceFormMessages } from '@edu/domain/services/service-form';
import { entries, templates } from '../../db/schema/index.ts';
import { rows } from '../../platform/db.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';

let t: TestApp;
let operator: Record<string, string>;
let user: Record<string, string>;
let operatorId: number;
let userId: number;

beforeAll(async () => {
  t = await createTestApp();
  const op = await t.createUser({ role: 1 });
  operatorId = op.id;
  operator = await t.loginAs(op);
  const u = await t.createUser();
  userId = u.id;
  user = await t.loginAs(u);
});
afterAll(() => t.close());

/** A valid body: a webinar (type 2, subtype 7) on a date on the 30-minute grid. */
const body = (over: Record<string, unknown> = {}) => ({
  title: 'Вебинар «Цифровая школа»',
  description: '<p>Описание</p>',
  price: 1500,
  points: 4,
  dict_type_id: 2,
  dict_subtype_id: 7,
  participation_type: 1,
  date_type: 1,
  begda: '2030-03-10 10:00:00',
  endda: '2030-03-10 11:30:00',
  max_participants: 30,
  sections: [{ title: 'Секция 1' }, { title: 'Секция 2' }],
  profiles: [1, 2],
  leadings: [1],
  ...over,
});

const create = (payload: unknown, headers = operator) => t.inject({ method: 'POST', url: '/api/service', headers, payload: payload as object });
const logsOf = (id: number) =>
  rows<{ user_id: number | null; diff: Record<string, { old: unknown; new: unknown }> }>(
    t.database.db,
    sql`select user_id, diff from change_logs where type = 'service' and entity_id = ${id} order by id`,
  );

describe('who may change services', () => {
  it('answers 401 without a session and 403 to users, for every operator call', async () => {
    const calls = [
      { method: 'POST' as const, url: '/api/service' },
      { method: 'PUT' as const, url: '/api/service/1' },
      { method: 'DELETE' as const, url: '/api/service/1' },
      { method: 'POST' as const, url: '/api/service/1/upload-image' },
      { method: 'POST' as const, url: '/api/service/save-to-joomla/1' },
      { method: 'POST' as const, url: '/api/joomla/categories' },
      { method: 'POST' as const, url: '/api/joomla/tags' },
      { method: 'GET' as const, url: '/api/service/form-options' },
    ];
    for (const c of calls) {
      expect((await t.inject({ ...c, payload: {} })).statusCode, `${c.method} ${c.url}`).toBe(401);
      expect((await t.inject({ ...c, headers: user, payload: {} })).statusCode, `${c.method} ${c.url}`).toBe(403);
    }
  });
});

describe('creating a service', () => {
  it('saves every field with sections, profiles and leadings, and logs who did it', async () => {
    const res = await create(
      body({ moodle_id: 77, joomla_intro_html: '<p>Анонс</p>', joomla_video_iframe: '<iframe src="https://video"></iframe>', hours: 36 }),
    );
    expect(res.statusCode).toBe(201);
    const { data, message } = res.json();
    expect(message).toBe(Messages.saved);
    expect(data).toMatchObject({
      title: 'Вебинар «Цифровая школа»',
      price: 1500,
      dict_type_id: 2,
      dict_subtype_id: 7,
      begda: '2030-03-10 10:00:00',
      endda: '2030-03-10 11:30:00',
      moodle_id: 77,
      max_participants: 30,
    });
    expect(data.sections.map((s: { title: string }) => s.title)).toEqual(['Секция 1', 'Секция 2']);
    expect(data.profiles.map((p: { id: number }) => p.id)).toEqual([1, 2]);
    expect(data.leadings.map((l: { id: number }) => l.id)).toEqual([1]);
    // Webinars need no contract: hours and days are not kept.
    expect(data.hours).toBeNull();
    expect(data.joomla_status).toBeNull();
    const logs = await logsOf(data.id);
    expect(logs).toHaveLength(1);
    expect(logs[0].user_id).toBe(operatorId);
    expect(logs[0].diff.title).toEqual({ old: null, new: 'Вебинар «Цифровая школа»' });
    expect(logs[0].diff.sections.new).toEqual(['Секция 1', 'Секция 2']);
    expect(logs[0].diff.id).toBeUndefined();
  });

  it('keeps the description as rich text cleaned on the server: no scripts, handlers or javascript: links', async () => {
    const dirty =
      '<h2>Программа</h2><p onclick="steal()">Текст <b>важно</b><script>alert(1)</script> <a href="javascript:alert(1)">ссылка</a> <a href="https://example.ru/">сайт</a></p><img src=x onerror=alert(1)><ul><li>Пункт</li></ul>';
    const res = await create(body({ description: dirty }));
    expect(res.statusCode).toBe(201);
    const { id, description } = res.json().data;
    expect(description).not.toMatch(/script|onclick|onerror|javascript:|<img/i);
    expect(description).toContain('<h2>Программа</h2>');
    expect(description).toContain('<b>важно</b>');
    expect(description).toContain('<ul><li>Пункт</li></ul>');
    expect(description).toContain('<a href="https://example.ru/" rel="noopener noreferrer" target="_blank">сайт</a>');
    const [stored] = await rows<{ description: string }>(t.database.db, sql`select description from services where id = ${id}`);
    expect(stored.description).toBe(description);
    // Only a script is empty once cleaned: no description.
    const empty = await t.inject({ method: 'PUT', url: `/api/service/${id}`, headers: operator, payload: body({ description: '<script>alert(1)</script>' }) });
    expect(empty.json().data.description).toBeNull();
  });

  it('keeps hours and days for a type needing a contract', async () => {
    const res = await create(body({ dict_type_id: 3, dict_subtype_id: 9, hours: 36, days: 5, sections: [] }));
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ hours: 36, days: 5 });
  });

  it('refuses a title over 100 characters with the spec message, and missing required fields per field', async () => {
    const long = await create(body({ title: 'А'.repeat(101) }));
    expect(long.statusCode).toBe(422);
    expect(long.json()).toMatchObject({ message: ServiceFormMessages.titleMax, errors: { title: [ServiceFormMessages.titleMax] } });

    const missing = await create({ title: '' });
    expect(missing.statusCode).toBe(422);
    const errors = missing.json().errors;
    for (const field of ['title', 'dict_type_id', 'participation_type', 'date_type']) expect(errors[field], field).toBeDefined();
    expect(errors.dict_type_id).toEqual([ServiceFormMessages.chooseType]);
  });

  it('needs a subtype of the chosen type when the type has subtypes', async () => {
    const none = await create(body({ dict_subtype_id: null }));
    expect(none.json().errors).toEqual({ dict_subtype_id: [ServiceFormMessages.chooseSubtype] });
    const other = await create(body({ dict_subtype_id: 9 }));
    expect(other.json().errors).toEqual({ dict_subtype_id: [ServiceFormMessages.subtypeNotOfType] });
    const unknownType = await create(body({ dict_type_id: 999, dict_subtype_id: null }));
    expect(unknownType.json().errors).toEqual({ dict_type_id: [ServiceFormMessages.chooseType] });
  });

  it('keeps times on the 30-minute grid from 8 to 21 and the end after the start', async () => {
    const early = await create(body({ begda: '2030-03-10 07:30:00' }));
    expect(early.json().errors).toEqual({ begda: [ServiceFormMessages.timeGrid] });
    const offGrid = await create(body({ begda: '2030-03-10 10:15:00', endda: '2030-03-10 22:00:00' }));
    expect(offGrid.json().errors).toEqual({ begda: [ServiceFormMessages.timeGrid], endda: [ServiceFormMessages.timeGrid] });
    const backwards = await create(body({ begda: '2030-03-10 12:00:00', endda: '2030-03-10 11:00:00' }));
    expect(backwards.json().errors).toEqual({ endda: [ServiceFormMessages.endBeforeStart] });
    const noStart = await create(body({ begda: null, endda: null }));
    expect(noStart.json().errors).toEqual({ begda: [ServiceFormMessages.startRequired] });
    const garbage = await create(body({ begda: 'завтра' }));
    expect(garbage.json().errors).toEqual({ begda: [ServiceFormMessages.badDate] });
    // 21:30 is the last slot; permanent services need no dates and keep none.
    expect((await create(body({ begda: '2030-03-10 21:00:00', endda: '2030-03-10 21:30:00', sections: [] }))).statusCode).toBe(201);
    const permanent = await create(body({ date_type: 2, begda: '2030-03-10 10:00:00', endda: null, sections: [] }));
    expect(permanent.statusCode).toBe(201);
    expect(permanent.json().data.begda).toBeNull();
  });

  it('refuses an empty section title and unknown profiles or leadings', async () => {
    const res = await create(body({ sections: [{ title: '   ' }], profiles: [999], leadings: [999] }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.sections).toEqual([ServiceFormMessages.sectionTitle]);
    const refs = await create(body({ profiles: [999], leadings: [999] }));
    expect(refs.json().errors).toEqual({ profiles: [ServiceFormMessages.unknownProfile], leadings: [ServiceFormMessages.unknownLeading] });
  });

  it('preselects the default templates of the service type, set by the call (decision 024), and checks each template by its type', async () => {
    const [cert] = await t.database.db.insert(templates).values({ title: 'Сертификат', dict_type_id: 1 }).returning();
    const [subCert] = await t.database.db.insert(templates).values({ title: 'Сертификат подтипа', dict_type_id: 1 }).returning();
    const [page] = await t.database.db.insert(templates).values({ title: 'Страница', dict_type_id: 4 }).returning();
    const [regList] = await t.database.db.insert(templates).values({ title: 'Регистрационный лист', dict_type_id: 3 }).returning();
    // The call takes a service type id (6, seminars), for the certificate and the page alike.
    for (const id of [cert.id, page.id])
      expect((await t.inject({ method: 'POST', url: `/api/template/${id}/set-as-default/6`, headers: operator })).statusCode).toBe(200);
    try {
      // Every subtype of the type starts with the type's defaults; the Service's type object carries them.
      for (const subtype of [14, 15]) {
        const created = (await create(body({ dict_type_id: 6, dict_subtype_id: subtype, sections: [] }))).json().data;
        expect(created).toMatchObject({ template_certificate_id: cert.id, joomla_article_template_id: page.id });
        const read = (await t.inject({ method: 'GET', url: `/api/service/${created.id}`, headers: operator })).json().data;
        expect(read.type).toMatchObject({ template_certificate_id: cert.id, template_page_id: page.id });
      }
      // An operator who clears the choice keeps it cleared.
      const cleared = (await create(body({ dict_type_id: 6, dict_subtype_id: 14, sections: [], template_certificate_id: null }))).json().data;
      expect(cleared.template_certificate_id).toBeNull();

      const options = (await t.inject({ method: 'GET', url: '/api/service/form-options', headers: operator })).json().data;
      expect(options.templates.certificate.map((o: { id: number }) => o.id)).toEqual([cert.id, subCert.id]);
      expect(options.templates.page).toEqual([{ id: page.id, title: 'Страница' }]);
      expect(options.templates.program).toEqual([]);
      expect(options.templates.regList).toEqual([{ id: regList.id, title: 'Регистрационный лист' }]);
      expect(options.leadings.length).toBeGreaterThan(0);
      expect(options.cms).toBe(false);

      const wrong = await create(body({ joomla_article_template_id: cert.id, template_program_id: page.id }));
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors).toEqual({
        joomla_article_template_id: [ServiceFormMessages.templateWrongType],
        template_program_id: [ServiceFormMessages.templateWrongType],
      });
      // template_participation_id is the registration list (decision 006): a certificate is refused there.
      const certAsList = await create(body({ template_participation_id: cert.id }));
      expect(certAsList.json().errors).toEqual({ template_participation_id: [ServiceFormMessages.templateWrongType] });
      const withList = await create(body({ template_participation_id: regList.id }));
      expect(withList.statusCode).toBe(201);
      expect(withList.json().data.template_participation_id).toBe(regList.id);
    } finally {
      await t.database.db.execute(sql`update dict_service_types set template_certificate_id = null, template_page_id = null where id = 6`);
    }
  });
});

describe('updating and deleting', () => {
  it('renames, adds and removes sections, logs only what changed', async () => {
    const created = (await create(body())).json().data;
    const [first, second] = created.sections;
    const res = await t.inject({
      method: 'PUT',
      url: `/api/service/${created.id}`,
      headers: operator,
      payload: body({ price: 1800, sections: [{ id: first.id, title: 'Секция 1 (новая)' }, { title: 'Секция 3' }] }),
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.price).toBe(1800);
    expect(data.sections.map((s: { title: string }) => s.title)).toEqual(['Секция 1 (новая)', 'Секция 3']);
    expect(data.sections[0].id).toBe(first.id);
    expect(data.sections.some((s: { id: number }) => s.id === second.id)).toBe(false);
    const logs = await logsOf(created.id);
    expect(logs).toHaveLength(2);
    expect(Object.keys(logs[1].diff).sort()).toEqual(['price', 'sections']);
    expect(logs[1].diff.price).toEqual({ old: 1500, new: 1800 });
  });

  it('refuses to remove a section with entries, changing nothing and logging nothing', async () => {
    const created = (await create(body())).json().data;
    const [first, second] = created.sections;
    await t.database.db.insert(entries).values({ number: `T-${created.id}`, created_by: userId, service_id: created.id, section_id: second.id });
    const res = await t.inject({
      method: 'PUT',
      url: `/api/service/${created.id}`,
      headers: operator,
      payload: body({ title: 'Другое', sections: [{ id: first.id, title: 'Секция 1' }] }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ sections: [ServiceFormMessages.sectionHasEntries('Секция 2')] });
    const after = (await t.inject({ method: 'GET', url: `/api/service/${created.id}`, headers: operator })).json().data;
    expect(after.title).toBe('Вебинар «Цифровая школа»');
    expect(await logsOf(created.id)).toHaveLength(1);
  });

  it('soft-deletes: gone for users and operators ("Услуга не найдена :("), logged, and a second delete is 404', async () => {
    const created = (await create(body({ sections: [] }))).json().data;
    const del = await t.inject({ method: 'DELETE', url: `/api/service/${created.id}`, headers: operator });
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe(Messages.deleted);
    for (const headers of [operator, user]) {
      const res = await t.inject({ method: 'GET', url: `/api/service/${created.id}`, headers });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(Messages.serviceNotFound);
    }
    const [row] = await rows<{ deleted_at: Date | null }>(t.database.db, sql`select deleted_at from services where id = ${created.id}`);
    expect(row.deleted_at).not.toBeNull();
    const logs = await logsOf(created.id);
    expect(Object.keys(logs.at(-1)!.diff)).toEqual(['deleted_at']);
    expect((await t.inject({ method: 'DELETE', url: `/api/service/${created.id}`, headers: operator })).statusCode).toBe(404);
    expect((await t.inject({ method: 'PUT', url: `/api/service/${created.id}`, headers: operator, payload: body() })).statusCode).toBe(404);
  });

  it('hidden services are found by operators and not by users', async () => {
    const created = (await create(body({ is_visible: false, sections: [] }))).json().data;
    expect((await t.inject({ method: 'GET', url: `/api/service/${created.id}`, headers: operator })).json().data.is_visible).toBe(false);
    expect((await t.inject({ method: 'GET', url: `/api/service/${created.id}`, headers: user })).statusCode).toBe(404);
  });
});

describe('service image', () => {
  const upload = (id: number, buffer: Buffer, filename = 'pic.png') => {
    const boundary = '----edu' + Math.random().toString(16).slice(2);
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      buffer,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.inject({
      method: 'POST',
      url: `/api/service/${id}/upload-image`,
      headers: { ...operator, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
  };

  it('stores a jpg or png resized to at most 1200 px wide, served publicly; anything else is refused', async () => {
    const created = (await create(body({ sections: [] }))).json().data;
    const png = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    const res = await upload(created.id, png);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(ServiceFormMessages.imageUploaded);
    const url = res.json().data.image as string;
    expect(url).toMatch(/^\/api\/service-image\/[a-f0-9]{2}\/[a-f0-9]{32}\.jpg$/);
    const img = await t.inject({ method: 'GET', url });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/jpeg');
    expect(img.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    const meta = await sharp(img.rawPayload).metadata();
    expect(meta.width).toBe(1200);
    expect(meta.height).toBe(600);

    const text = await upload(created.id, Buffer.from('%PDF-1.4 not an image'), 'x.png');
    expect(text.statusCode).toBe(422);
    expect(text.json().errors.file).toEqual([ServiceFormMessages.imageType]);
    expect((await t.inject({ method: 'GET', url: '/api/service-image/00/00000000000000000000000000000000.jpg' })).statusCode).toBe(404);
  });
});
