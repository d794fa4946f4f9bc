import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { ServiceFormMessages } from '@edu/domain/services/service-form';
import { rows } from '../../platform/db.ts';
import { JoomlaClient, JoomlaError, siteTitle, wallClock } from '../../platform/cms/joomla-client.ts';
import { ConfigError, loadConfig } from '../../platform/config.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { startFakeJoomla, type FakeJoomla } from '../../../test/fake-joomla.ts';
import { publishService } from './service-publishing.ts';

let joomla: FakeJoomla;
let t: TestApp;
let off: TestApp;
let operator: Record<string, string>;

beforeAll(async () => {
  joomla = await startFakeJoomla();
  t = await createTestApp({ cms: { site: { url: joomla.url, token: joomla.token }, journal: null }, appUrl: 'https://lk.example.ru' });
  operator = await t.loginAs(await t.createUser({ role: 1 }));
  // The site's ids of the type, subtype and profiles (spec 02 §3: joomla_category_id, joomla_tag_id).
  await t.database.db.execute(sql`update dict_service_types set joomla_category_id = 8 where id = 2`);
  await t.database.db.execute(sql`update dict_service_subtypes set joomla_category_id = 9, joomla_tag_id = 2 where id = 7`);
  await t.database.db.execute(sql`update dict_profiles set joomla_tag_id = 3 where id = 1`);
  off = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await off.close();
  await joomla.close();
});
beforeEach(() => {
  joomla.mode = 'ok';
  joomla.loseCreateAnswers = 0;
  joomla.requests.length = 0;
});

const body = (over: Record<string, unknown> = {}) => ({
  title: 'Вебинар для сайта',
  description: '<p>Полное описание</p>',
  joomla_intro_html: '<p>Анонс</p>',
  joomla_additional_html: '<p>Дополнительно</p>',
  joomla_video_iframe: '<iframe src="https://rutube.ru/play/embed/1"></iframe>',
  price: 900,
  points: 4,
  dict_type_id: 2,
  dict_subtype_id: 7,
  participation_type: 1,
  date_type: 1,
  begda: '2030-04-01 10:00:00',
  endda: '2030-04-01 12:00:00',
  profiles: [1, 2],
  ...over,
});

const jobsOf = (id: number) =>
  rows<{ done_at: Date | null; attempts: number; last_error: string | null; run_at: Date }>(
    t.database.db,
    sql`select done_at, attempts, last_error, run_at from jobs where name = 'cms-publish-service' and unique_key = ${String(id)} order by id`,
  );
const publish = (id: number, app = t) => app.inject({ method: 'POST', url: `/api/service/save-to-joomla/${id}`, headers: operator });

describe('publishing a service to the Joomla site', () => {
  it('queues the publication with the save; the job creates the article with category, tags, texts, fields and Joomla headers', async () => {
    const res = await t.inject({ method: 'POST', url: '/api/service', headers: operator, payload: body() });
    expect(res.statusCode).toBe(201);
    const service = res.json().data;
    expect(service.joomla_status).toBe('pending');
    expect(await jobsOf(service.id)).toHaveLength(1);
    expect(joomla.requests).toHaveLength(0);

    await t.app.jobs.runDue();
    // The site's categories first (all pages), then one article.
    expect(joomla.requests.map((r) => `${r.method} ${r.path.replace(/^.*\/v1/, '')}`)).toEqual([
      'GET /content/categories',
      'GET /content/categories',
      'POST /content/articles',
    ]);
    const call = joomla.requests[2];
    expect(call.method).toBe('POST');
    expect(call.path).toBe('/api/index.php/v1/content/articles');
    expect(call.headers.accept).toBe('application/vnd.api+json');
    expect(call.headers['x-joomla-token']).toBe(joomla.token);
    expect(call.headers['content-type']).toBe('application/json');
    const sent = call.body as Record<string, unknown>;
    // A plain JSON body, not a JSON:API document; language always sent; custom fields at the top level.
    expect(sent.data).toBeUndefined();
    expect(sent).toMatchObject({
      title: 'Вебинар для сайта',
      catid: 9,
      language: '*',
      state: 1,
      alias: `service-${service.id}`,
      price: 900,
      points: 4,
      'service-id': service.id,
    });
    expect(sent.tags).toEqual([2, 3]);
    expect(sent.articletext).toBe(
      '<p>Анонс</p><hr id="system-readmore"><p>Полное описание</p>\n<p>Дополнительно</p>\n<iframe src="https://rutube.ru/play/embed/1"></iframe>',
    );
    expect(sent.video).toBe('<iframe src="https://rutube.ru/play/embed/1"></iframe>');
    expect(sent.dates).toBe('01.04.2030 10:00–12:00');
    expect(sent.publish_up).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const article = [...joomla.articles.values()].find((a) => a.alias === `service-${service.id}`)!;
    expect(article.com_fields).toMatchObject({ price: 900, 'cabinet-url': `https://lk.example.ru/user/service/${service.id}` });
    const after = (await t.inject({ method: 'GET', url: `/api/service/${service.id}`, headers: operator })).json().data;
    expect(after).toMatchObject({ joomla_status: 'published', joomla_article_id: article.id, joomla_error: null });
    expect(after.site_url).toBe(`${joomla.url}/index.php?option=com_content&view=article&id=${article.id}&catid=9`);
    expect((await jobsOf(service.id))[0].done_at).not.toBeNull();
  });

  it('sends the description cleaned: saved through the form, and one stored before descriptions were cleaned', async () => {
    const dirty = '<p>Описание<script>alert(1)</script><img src=x onerror=alert(1)></p>';
    const res = await t.inject({
      method: 'POST',
      url: '/api/service',
      headers: operator,
      payload: body({ title: 'Вебинар с чистым описанием', description: dirty, joomla_intro_html: null }),
    });
    expect(res.statusCode).toBe(201);
    await t.app.jobs.runDue();
    const sent = joomla.requests.at(-1)!.body as Record<string, unknown>;
    expect(sent.articletext).toMatch(/^<p>Описание<\/p>/);
    expect(JSON.stringify(sent)).not.toMatch(/script|onerror|<img/i);

    // A description stored as it was typed, before the save cleaned it: cleaned on the way to the site.
    const id = res.json().data.id as number;
    await t.database.db.execute(sql`update services set description = ${dirty}, joomla_intro_html = '<p>Анонс</p>' where id = ${id}`);
    expect((await publish(id)).statusCode).toBe(200);
    const again = joomla.requests.at(-1)!.body as Record<string, unknown>;
    expect(again.articletext).toBe(
      '<p>Анонс</p><hr id="system-readmore"><p>Описание</p>\n<p>Дополнительно</p>\n<iframe src="https://rutube.ru/play/embed/1"></iframe>',
    );
  });

  it("fills the service's article template (type 'Страница') with its macros for the article's full text", async () => {
    const content = '<h2>${service.title}</h2><p>Стоимость: ${service.price}</p><p>${service.hours}</p>';
    const [tpl] = await rows<{ id: number }>(
      t.database.db,
      sql`insert into templates (title, content, dict_type_id) values ('Статья о вебинаре', ${content}, 4) returning id`,
    );
    const res = await t.inject({
      method: 'POST',
      url: '/api/service',
      headers: operator,
      payload: body({ title: 'Вебинар <по шаблону>', joomla_article_template_id: tpl.id }),
    });
    expect(res.statusCode).toBe(201);
    await t.app.jobs.runDue();
    const sent = joomla.requests.at(-1)!.body as Record<string, unknown>;
    // Macros filled and escaped; a macro without data (hours of a webinar) leaves nothing on the public page.
    expect(sent.articletext).toBe(
      '<p>Анонс</p><hr id="system-readmore"><h2>Вебинар &lt;по шаблону&gt;</h2><p>Стоимость: 900</p><p></p>\n<p>Дополнительно</p>\n<iframe src="https://rutube.ru/play/embed/1"></iframe>',
    );
  });

  it('updates the same article with PATCH after a change, and sends the image by its public address', async () => {
    const service = (await t.inject({ method: 'POST', url: '/api/service', headers: operator, payload: body({ title: 'Первое название' }) })).json().data;
    await t.app.jobs.runDue();
    const count = joomla.articles.size;
    await t.inject({ method: 'PUT', url: `/api/service/${service.id}`, headers: operator, payload: body({ title: 'Второе название', is_visible: false }) });
    await t.app.jobs.runDue();
    expect(joomla.articles.size).toBe(count);
    const patch = joomla.requests.at(-1)!;
    expect(patch.method).toBe('PATCH');
    const id = (await t.inject({ method: 'GET', url: `/api/service/${service.id}`, headers: operator })).json().data.joomla_article_id;
    expect(patch.path).toBe(`/api/index.php/v1/content/articles/${id}`);
    expect(joomla.articles.get(id)).toMatchObject({ title: 'Второе название', state: 0 });

    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#aa3366' } })
      .png()
      .toBuffer();
    const boundary = '----edu-image';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await t.inject({
      method: 'POST',
      url: `/api/service/${service.id}/upload-image`,
      headers: { ...operator, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(uploaded.statusCode).toBe(200);
    await t.app.jobs.runDue();
    const image = `https://lk.example.ru${uploaded.json().data.image}`;
    expect(joomla.articles.get(id)?.images).toMatchObject({ image_intro: image, image_fulltext: image });
  });

  it('never fails a save when the site is down: the job keeps retrying and the operator reads the Joomla error', async () => {
    joomla.mode = 'down';
    const res = await t.inject({ method: 'POST', url: '/api/service', headers: operator, payload: body({ title: 'Пока сайт лежит' }) });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id;

    const pressed = await publish(id);
    expect(pressed.statusCode).toBe(502);
    expect(pressed.json().message).toBe(ServiceFormMessages.joomlaError('Service Unavailable'));
    expect(pressed.json().message).toBe('Ошибка сохранения в Joomla! Service Unavailable...');
    const [job] = await jobsOf(id);
    expect(job.done_at).toBeNull();
    expect(job.last_error).toBe('Service Unavailable');
    expect(new Date(job.run_at).getTime()).toBeGreaterThan(Date.now());
    const state = (await t.inject({ method: 'GET', url: `/api/service/${id}`, headers: operator })).json().data;
    expect(state).toMatchObject({ joomla_status: 'error', joomla_error: 'Service Unavailable', title: 'Пока сайт лежит' });

    // A Joomla error body: its title reaches the operator.
    joomla.mode = 'error';
    expect((await publish(id)).json().message).toBe('Ошибка сохранения в Joomla! Database connection error...');

    joomla.mode = 'ok';
    const again = await publish(id);
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toBe(ServiceFormMessages.published);
    expect(again.json().data.joomla_status).toBe('published');
    expect([...joomla.articles.values()].filter((a) => a.alias === `service-${id}`)).toHaveLength(1);
    expect((await jobsOf(id)).every((j) => j.done_at !== null)).toBe(true);
  });

  it('answers by the outcome when the background runner holds the job at that moment (no "queued" for a job finishing now)', async () => {
    const id = (await t.inject({ method: 'POST', url: '/api/service', headers: operator, payload: body({ title: 'Вебинар в гонке с фоном' }) })).json().data
      .id as number;
    // Another worker takes the job the save queued, as the runner does every 2 s.
    const [held] = await rows<{ id: number }>(
      t.database.db,
      sql`update jobs set locked_until = now() + interval '2 minutes', attempts = attempts + 1
          where name = 'cms-publish-service' and unique_key = ${String(id)} and done_at is null returning id`,
    );
    expect(held).toBeDefined();
    const pressed = publish(id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await publishService(t.app, id);
    await t.database.db.execute(sql`update jobs set done_at = now(), locked_until = null where id = ${held.id}`);
    const answer = await pressed;
    expect(answer.statusCode).toBe(200);
    expect(answer.json().message).toBe(ServiceFormMessages.published);
    expect(answer.json().data.joomla_status).toBe('published');
    expect([...joomla.articles.values()].filter((a) => a.alias === `service-${id}`)).toHaveLength(1);
  });

  it("creates the article again when it was deleted on the site (Joomla's PATCH answers 400 'Check-out failed'), while other 400s stay final", async () => {
    const service = (await t.inject({ method: 'POST', url: '/api/service', headers: operator, payload: body({ title: 'Статья удалена' }) })).json().data;
    await publish(service.id);
    const first = (await t.inject({ method: 'GET', url: `/api/service/${service.id}`, headers: operator })).json().data.joomla_article_id;
    joomla.articles.delete(first);
    joomla.requests.length = 0;
    const again = await publish(service.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().message).toBe(ServiceFormMessages.published);
    const second = again.json().data.joomla_article_id;
    expect(second).not.toBe(first);
    expect(joomla.articles.get(second)).toMatchObject({ title: 'Статья удалена', alias: `service-${service.id}`, catid: 9 });
    // The PATCH was refused as Joomla refuses it, the GET confirmed the article is gone, then a POST made it again.
    const calls = joomla.requests.filter((r) => r.path.includes('/content/articles'));
    expect(calls.map((r) => `${r.method} ${r.path.replace(/^.*\/v1/, '')}`)).toEqual([
      `PATCH /content/articles/${first}`,
      `GET /content/articles/${first}`,
      'POST /content/articles',
    ]);

    // An editor holds the article open on the site: the same 400 "Check-out failed", but the article exists.
    joomla.articles.get(second)!.checked_out = 7;
    joomla.requests.length = 0;
    await t.inject({ method: 'PUT', url: `/api/service/${service.id}`, headers: operator, payload: body({ title: 'Статья удалена, снова' }) });
    const held = await publish(service.id);
    expect(held.statusCode).toBe(502);
    expect(held.json().message).toBe(
      ServiceFormMessages.joomlaError('Check-out failed with the following error: The user checking out does not match the user who checked out the item.'),
    );
    expect(held.json().data).toMatchObject({ joomla_status: 'error', joomla_article_id: second });
    expect(joomla.requests.some((r) => r.method === 'POST')).toBe(false);
    expect([...joomla.articles.values()].filter((a) => a.alias === `service-${service.id}`)).toHaveLength(1);
    expect((await jobsOf(service.id)).every((j) => j.done_at !== null)).toBe(true);
    joomla.articles.get(second)!.checked_out = 0;
    expect((await publish(service.id)).statusCode).toBe(200);
    expect(joomla.articles.get(second)?.title).toBe('Статья удалена, снова');
  });

  it('adopts the article a lost answer left on the site: the retry finds it by alias and category, never a duplicate', async () => {
    const service = (await t.inject({ method: 'POST', url: '/api/service', headers: operator, payload: body({ title: 'Ответ потерян' }) })).json().data;
    joomla.loseCreateAnswers = 1;
    const lost = await publish(service.id);
    expect(lost.statusCode).toBe(502);
    expect(lost.json().data).toMatchObject({ joomla_status: 'error', joomla_article_id: null });
    expect(lost.json().message).toMatch(/^Ошибка сохранения в Joomla! Сайт недоступен/);
    const made = [...joomla.articles.values()].filter((a) => a.alias === `service-${service.id}`);
    expect(made).toHaveLength(1);
    // The job is retried with back-off (a network failure), not given up.
    expect((await jobsOf(service.id)).some((j) => j.done_at === null)).toBe(true);

    joomla.requests.length = 0;
    const again = await publish(service.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ joomla_status: 'published', joomla_article_id: made[0].id });
    expect([...joomla.articles.values()].filter((a) => a.alias === `service-${service.id}`)).toHaveLength(1);
    const search = joomla.requests.find((r) => r.method === 'GET' && r.path.endsWith('/content/articles'))!;
    const q = new URLSearchParams(search.query);
    expect(q.get('filter[search]')).toBe(`service-${service.id}`);
    expect(q.get('filter[category]')).toBe('9');
    expect(joomla.requests.at(-1)).toMatchObject({ method: 'PATCH', path: `/api/index.php/v1/content/articles/${made[0].id}` });
  });

  it('refuses a category the site does not have, naming the subtype or type to fix (Joomla would make a category called "777")', async () => {
    // What Joomla does with an unknown catid, shown on the client directly: a new category titled with the number.
    const direct = new JoomlaClient({ url: joomla.url, token: joomla.token });
    const junk = await direct.createArticle({ title: 'Проба', alias: 'probe-777', catid: 777, introtext: '', fulltext: '', state: 0 });
    expect(junk.catid).not.toBe(777);
    expect(joomla.categories.find((c) => c.id === junk.catid)?.title).toBe('777');
    joomla.categories.pop();
    joomla.articles.delete(junk.id);

    await t.database.db.execute(sql`update dict_service_subtypes set joomla_category_id = 777 where id = 7`);
    try {
      const service = (await t.inject({ method: 'POST', url: '/api/service', headers: operator, payload: body({ title: 'Неизвестная категория' }) })).json()
        .data;
      const categories = joomla.categories.length;
      joomla.requests.length = 0;
      const res = await publish(service.id);
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toBe(
        ServiceFormMessages.joomlaError(
          'На сайте нет категории 777, указанной у подтипа услуги «Вебинар-практикум»: выберите в справочнике существующую категорию сайта',
        ),
      );
      expect(res.json().message).not.toBe(ServiceFormMessages.published);
      expect(res.json().data).toMatchObject({ joomla_status: 'error', joomla_article_id: null });
      expect(joomla.requests.every((r) => r.method === 'GET')).toBe(true);
      expect(joomla.categories).toHaveLength(categories);
      expect([...joomla.articles.values()].some((a) => a.alias === `service-${service.id}`)).toBe(false);

      // A type's category (the subtype has none) is named by the type.
      await t.database.db.execute(sql`update dict_service_types set joomla_category_id = 555 where id = 6`);
      const seminar = (
        await t.inject({
          method: 'POST',
          url: '/api/service',
          headers: operator,
          payload: body({ dict_type_id: 6, dict_subtype_id: 14, title: 'Семинар без категории' }),
        })
      ).json().data;
      expect((await publish(seminar.id)).json().message).toBe(
        ServiceFormMessages.joomlaError('На сайте нет категории 555, указанной у типа услуги «Семинары»: выберите в справочнике существующую категорию сайта'),
      );
    } finally {
      await t.database.db.execute(sql`update dict_service_subtypes set joomla_category_id = 9 where id = 7`);
      await t.database.db.execute(sql`update dict_service_types set joomla_category_id = null where id = 6`);
    }
  });

  it("sends publish_up as the site's local time, so the site stores the service's creation moment", async () => {
    const service = (await t.inject({ method: 'POST', url: '/api/service', headers: operator, payload: body({ title: 'Время публикации' }) })).json().data;
    await publish(service.id);
    const [{ created_at }] = await rows<{ created_at: Date }>(t.database.db, sql`select created_at from services where id = ${service.id}`);
    const utc = new Date(created_at).toISOString().slice(0, 19).replace('T', ' ');
    const moscow = new Date(new Date(created_at).getTime() + 3 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
    const sent = joomla.requests.find((r) => r.method === 'POST')!.body as Record<string, unknown>;
    expect(sent.publish_up).toBe(moscow);
    const article = [...joomla.articles.values()].find((a) => a.alias === `service-${service.id}`)!;
    expect(article.publish_up).toBe(utc);

    // Another zone, set for the site (CMS_TIMEZONE): Yekaterinburg is UTC+5.
    const ekb = await startFakeJoomla({ timeZone: 'Asia/Yekaterinburg' });
    try {
      const client = new JoomlaClient({ url: ekb.url, token: ekb.token, timeZone: 'Asia/Yekaterinburg' });
      const at = new Date('2030-01-15T07:30:00Z');
      await client.createArticle({ title: 'Урал', alias: 'ural', catid: 1, introtext: '', fulltext: '', state: 1, publish_up: at });
      expect((ekb.requests[0].body as Record<string, unknown>).publish_up).toBe('2030-01-15 12:30:00');
      expect([...ekb.articles.values()][0].publish_up).toBe('2030-01-15 07:30:00');
    } finally {
      await ekb.close();
    }
  });

  it('clears a custom field on the site by sending an empty value (Joomla keeps the old value for a null)', async () => {
    const service = (await t.inject({ method: 'POST', url: '/api/service', headers: operator, payload: body({ title: 'Видео уберут' }) })).json().data;
    await publish(service.id);
    const id = (await t.inject({ method: 'GET', url: `/api/service/${service.id}`, headers: operator })).json().data.joomla_article_id;
    expect(joomla.articles.get(id)?.com_fields).toMatchObject({
      video: '<iframe src="https://rutube.ru/play/embed/1"></iframe>',
      dates: '01.04.2030 10:00–12:00',
    });
    await t.inject({
      method: 'PUT',
      url: `/api/service/${service.id}`,
      headers: operator,
      payload: body({ title: 'Видео уберут', joomla_video_iframe: null, date_type: 2, begda: null, endda: null }),
    });
    expect((await publish(service.id)).statusCode).toBe(200);
    const sent = joomla.requests.at(-1)!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ video: '', dates: '' });
    expect(joomla.articles.get(id)?.com_fields).toMatchObject({ video: '', dates: '' });
  });

  it('makes one article when the operator presses publish twice at once', async () => {
    const service = (await t.inject({ method: 'POST', url: '/api/service', headers: operator, payload: body({ title: 'Двойное нажатие' }) })).json().data;
    const both = await Promise.all([publish(service.id), publish(service.id)]);
    expect(both.every((r) => r.statusCode === 200)).toBe(true);
    expect([...joomla.articles.values()].filter((a) => a.alias === `service-${service.id}`)).toHaveLength(1);
    expect(joomla.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('says what is missing when the type has no Joomla category', async () => {
    const service = (
      await t.inject({
        method: 'POST',
        url: '/api/service',
        headers: operator,
        payload: body({ dict_type_id: 6, dict_subtype_id: 14, title: 'Без категории' }),
      })
    ).json().data;
    const res = await publish(service.id);
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe(ServiceFormMessages.joomlaError('Не указана категория Joomla для типа или подтипа услуги'));
    expect(joomla.requests).toHaveLength(0);
  });

  it('unpublishes the article of a deleted service', async () => {
    const service = (await t.inject({ method: 'POST', url: '/api/service', headers: operator, payload: body({ title: 'Будет удалена' }) })).json().data;
    await t.app.jobs.runDue();
    const id = (await t.inject({ method: 'GET', url: `/api/service/${service.id}`, headers: operator })).json().data.joomla_article_id;
    expect(joomla.articles.get(id)?.state).toBe(1);
    await t.inject({ method: 'DELETE', url: `/api/service/${service.id}`, headers: operator });
    await t.app.jobs.runDue();
    expect(joomla.articles.get(id)?.state).toBe(0);
  });

  it('lists categories (all pages) and tags of the site; the journal without settings says so', async () => {
    const cats = await t.inject({ method: 'POST', url: '/api/joomla/categories', headers: operator, payload: { joomla_system: 'site' } });
    expect(cats.statusCode).toBe(200);
    expect(cats.json().data).toHaveLength(130);
    expect(cats.json().data[0]).toEqual({ id: 1, title: 'Категория 1' });
    const tags = await t.inject({ method: 'POST', url: '/api/joomla/tags', headers: operator, payload: {} });
    expect(tags.json().data).toEqual([
      { id: 2, title: 'Учителям' },
      { id: 3, title: 'Методистам' },
    ]);
    const journal = await t.inject({ method: 'POST', url: '/api/joomla/tags', headers: operator, payload: { joomla_system: 'journal' } });
    expect(journal.statusCode).toBe(422);
    expect(journal.json().message).toBe(ServiceFormMessages.cmsOff);
  });
});

describe('without a site configured', () => {
  it('saves without queuing anything and the publish call says the site is off', async () => {
    const op = await off.loginAs(await off.createUser({ role: 1 }));
    const res = await off.inject({ method: 'POST', url: '/api/service', headers: op, payload: body() });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.joomla_status).toBeNull();
    const [{ n }] = await rows<{ n: number }>(off.database.db, sql`select count(*)::int as n from jobs where name = 'cms-publish-service'`);
    expect(n).toBe(0);
    const pressed = await off.inject({ method: 'POST', url: `/api/service/save-to-joomla/${res.json().data.id}`, headers: op });
    expect(pressed.statusCode).toBe(422);
    expect(pressed.json().message).toBe(ServiceFormMessages.cmsOff);
  });
});

describe('the Joomla client', () => {
  it("reads the category from relationships.category (Joomla's view renders no catid attribute)", async () => {
    const client = new JoomlaClient({ url: joomla.url, token: joomla.token });
    const made = await client.createArticle({ title: 'Категория из связей', alias: 'rel-category', catid: 12, introtext: '', fulltext: '', state: 0 });
    expect(made.catid).toBe(12);
    const raw = (await (
      await fetch(`${joomla.url}/api/index.php/v1/content/articles/${made.id}`, {
        headers: { Accept: 'application/vnd.api+json', 'X-Joomla-Token': joomla.token },
      })
    ).json()) as {
      data: { attributes: Record<string, unknown>; relationships: { category: { data: { id: string } } } };
    };
    expect(raw.data.attributes.catid).toBeUndefined();
    expect(raw.data.relationships.category.data.id).toBe('12');
    expect((await client.getArticle(made.id))?.catid).toBe(12);
    expect(await client.getArticle(987654)).toBeNull();
    joomla.articles.delete(made.id);
  });

  it("cuts a title to the site's 255 characters with an ellipsis", () => {
    expect(siteTitle('Короткое')).toBe('Короткое');
    const long = `${'я'.repeat(300)}`;
    expect(Array.from(siteTitle(long))).toHaveLength(255);
    expect(siteTitle(long).endsWith('я…')).toBe(true);
    // Characters, not UTF-16 units: an emoji counts once, as MySQL counts it.
    const emoji = '😀'.repeat(255);
    expect(siteTitle(emoji)).toBe(emoji);
    expect(Array.from(siteTitle(`${emoji}!`))).toHaveLength(255);
    expect(siteTitle('a'.repeat(255))).toHaveLength(255);
  });

  it('takes the site time zone from CMS_TIMEZONE (default Europe/Moscow) and refuses an unknown one', () => {
    const env = { CMS_URL: 'https://site.example.ru', CMS_TOKEN: 'x', CMS_JOURNAL_URL: 'https://journal.example.ru', CMS_JOURNAL_TOKEN: 'y' };
    expect(loadConfig(env).cms.site?.timeZone).toBe('Europe/Moscow');
    expect(loadConfig({ ...env, CMS_TIMEZONE: 'Asia/Yekaterinburg' }).cms).toMatchObject({
      site: { timeZone: 'Asia/Yekaterinburg' },
      journal: { timeZone: 'Asia/Yekaterinburg' },
    });
    expect(loadConfig({ ...env, CMS_JOURNAL_TIMEZONE: 'Europe/Kaliningrad' }).cms).toMatchObject({
      site: { timeZone: 'Europe/Moscow' },
      journal: { timeZone: 'Europe/Kaliningrad' },
    });
    expect(() => loadConfig({ ...env, CMS_TIMEZONE: 'Moscow/Nowhere' })).toThrow(ConfigError);
    expect(wallClock(new Date('2030-07-01T21:00:00Z'), 'Europe/Moscow')).toBe('2030-07-02 00:00:00');
  });

  it("reads Joomla's error bodies, a wrong token and an unreachable site", async () => {
    const wrong = new JoomlaClient({ url: joomla.url, token: 'wrong' });
    await expect(wrong.tags()).rejects.toMatchObject({ message: 'Forbidden', status: 401 });
    const nowhere = new JoomlaClient({ url: 'http://127.0.0.1:9' } as never, { timeoutMs: 2000 });
    const err = await nowhere.categories().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JoomlaError);
    expect((err as JoomlaError).status).toBeNull();
    expect((err as JoomlaError).message).toMatch(/^Сайт недоступен/);
  });
});
