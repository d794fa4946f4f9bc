import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DateType, TemplateType } from '@edu/domain/common/codes';
import { services } from '../../db/schema/index.ts';
import { JoomlaError, type JoomlaArticle, type JoomlaArticleInput, type JoomlaClient } from '../../platform/cms/joomla-client.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { scheduleJob, type JobRunner } from '../../platform/jobs.ts';
import { formatInterval } from '@edu/domain/common/moscow-time';
import { sanitizeRichHtml } from '../../platform/rich-html.ts';
import { macroValues } from '../macros/macro-values.ts';
import { renderMacros } from '../macros/render-macros.ts';
import type { ServiceRow } from './services-repository.ts';

/** The durable job that sends a service to the site (one unfinished job per service). */
export const PUBLISH_SERVICE_JOB = 'cms-publish-service';

/** Marks the service as waiting for the site and queues the job, in the caller's transaction. */
export async function requestPublication(tx: Queryable, serviceId: number): Promise<void> {
  await tx
    .update(services)
    .set({ joomla_status: 'pending' })
    .where(sql`id = ${serviceId}`);
  await scheduleJob(tx, PUBLISH_SERVICE_JOB, { serviceId }, { uniqueKey: String(serviceId) });
}

/** The service's own columns an article needs (as the services list selects them), with its CMS categories and tags. */
interface PublishRow extends Pick<
  ServiceRow,
  | 'id'
  | 'title'
  | 'description'
  | 'price'
  | 'points'
  | 'is_visible'
  | 'date_type'
  | 'begda'
  | 'endda'
  | 'joomla_intro_html'
  | 'joomla_additional_html'
  | 'joomla_video_iframe'
  | 'joomla_article_id'
  | 'image_key'
> {
  /** The service's article template (type 'Страница') filled with its macros, when it has one. */
  article_html?: string | null;
  created_at: Date | string;
  stamp: string;
  deleted_at: Date | string | null;
  type_category: number | null;
  subtype_category: number | null;
  /** The names of the type and subtype, to say whose category to fix. */
  type_name?: string;
  subtype_name?: string | null;
  subtype_tag: number | null;
  profile_tags: number[] | null;
}

/** The article of a service: category and tags from its type, subtype and profiles; intro and full HTML; image; video; dates. */
export function articleOf(s: PublishRow, appUrl: string): JoomlaArticleInput | { problem: string } {
  const catid = s.subtype_category ?? s.type_category;
  if (!catid) return { problem: 'Не указана категория Joomla для типа или подтипа услуги' };
  // Cleaned again on the way out: a description saved before it was cleaned on saving never reaches the site as it was.
  const description = s.description ? sanitizeRichHtml(s.description) : '';
  const intro = s.joomla_intro_html?.trim() || description;
  // The article template, when the service has one, replaces the description in the full text.
  const body = s.article_html?.trim() ? s.article_html : s.joomla_intro_html?.trim() ? description : null;
  const full = [body, s.joomla_additional_html, s.joomla_video_iframe].filter((p): p is string => Boolean(p?.trim())).join('\n');
  const image = s.image_key ? `${appUrl}/api/service-image/${s.image_key}` : undefined;
  const tags = [s.subtype_tag, ...(s.profile_tags ?? [])].filter((t): t is number => Number.isInteger(t));
  return {
    title: s.title,
    // A fixed alias: Joomla refuses a second article with it in the category, so a lost answer can never make a duplicate.
    alias: `service-${s.id}`,
    catid,
    introtext: intro,
    fulltext: full,
    state: s.is_visible && !s.deleted_at ? 1 : 0,
    tags: [...new Set(tags)],
    images: image ? { image_intro: image, image_intro_alt: s.title, image_fulltext: image, image_fulltext_alt: s.title } : undefined,
    // The client sends it as the site's wall clock (Joomla reads publish_up in the site's time zone).
    publish_up: new Date(s.created_at),
    publish_down: null,
    fields: {
      'service-id': s.id,
      price: Number(s.price),
      points: s.points,
      // A field the service no longer has is null here; the client sends it as an empty value, which clears it on the site.
      dates: s.date_type === DateType.specific ? formatInterval(s.begda, s.endda) : null,
      video: s.joomla_video_iframe?.trim() || null,
      'cabinet-url': `${appUrl}/user/service/${s.id}`,
    },
  };
}

async function loadForPublishing(db: Queryable, id: number): Promise<PublishRow | undefined> {
  const [row] = await rows<PublishRow & { article_template: string | null }>(
    db,
    sql`select s.id, s.title, s.description, s.price, s.points, s.is_visible, s.date_type, s.begda, s.endda,
          s.joomla_intro_html, s.joomla_additional_html, s.joomla_video_iframe, s.joomla_article_id,
          (select tp.content from templates tp where tp.id = s.joomla_article_template_id and tp.dict_type_id = ${TemplateType.page} and tp.deleted_at is null) as article_template,
          (select f.storage_key from files f where f.id = s.image_id) as image_key, s.created_at, (extract(epoch from s.updated_at) * 1000000)::bigint::text as stamp, s.deleted_at,
          t.joomla_category_id as type_category, st.joomla_category_id as subtype_category, st.joomla_tag_id as subtype_tag,
          t.fdv as type_name, st.fdv as subtype_name,
          (select json_agg(p.joomla_tag_id order by p.id) from service_profiles sp join dict_profiles p on p.id = sp.dict_profile_id
            where sp.service_id = s.id and p.joomla_tag_id is not null) as profile_tags
        from services s join dict_service_types t on t.id = s.dict_type_id
        left join dict_service_subtypes st on st.id = s.dict_subtype_id
        where s.id = ${id}`,
  );
  if (!row) return undefined;
  const { article_template: template, ...service } = row;
  if (!template?.trim()) return service;
  const values = await macroValues(db, { serviceId: id });
  return { ...service, article_html: renderMacros(template, values, { escape: 'html', missing: 'empty' }) };
}

/**
 * The refusal when the category the article would go to is not one of the site's: Joomla would make a
 * new category titled with the number (ArticleModel::save), so the article is not sent at all.
 */
export function unknownCategoryProblem(s: Pick<PublishRow, 'subtype_category' | 'type_name' | 'subtype_name'>, catid: number): string {
  const whose = s.subtype_category ? `подтипа услуги «${s.subtype_name ?? ''}»` : `типа услуги «${s.type_name ?? ''}»`;
  return `На сайте нет категории ${catid}, указанной у ${whose}: выберите в справочнике существующую категорию сайта`;
}

/** A refusal of the site that a retry cannot fix (validation, rights); the rest (down, 5xx, timeouts) is retried. */
const permanent = (e: JoomlaError) => e.status !== null && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429;

async function markError(db: Queryable, id: number, message: string): Promise<void> {
  await db
    .update(services)
    .set({ joomla_status: 'error', joomla_error: message.slice(0, 2000) })
    .where(sql`id = ${id}`);
}

/**
 * The job: checks the category against the site's, then creates the article, or updates the same
 * article (PATCH) once it exists; an article removed on the site is created again, one created by a
 * request whose answer was lost is adopted. A service changed while it was being sent is sent again.
 */
export async function publishService(app: FastifyInstance, serviceId: number): Promise<void | { retryInSeconds: number }> {
  const client: JoomlaClient | null = app.cms.client('site');
  if (!client) return;
  const s = await loadForPublishing(app.db, serviceId);
  if (!s) return;
  if (s.deleted_at && !s.joomla_article_id) {
    await app.db
      .update(services)
      .set({ joomla_status: null, joomla_error: null })
      .where(sql`id = ${serviceId}`);
    return;
  }
  const article = articleOf(s, app.config.appUrl);
  if ('problem' in article) {
    await markError(app.db, serviceId, article.problem);
    return;
  }
  let saved: JoomlaArticle;
  try {
    if (!(await client.hasCategory(article.catid))) {
      await markError(app.db, serviceId, unknownCategoryProblem(s, article.catid));
      return;
    }
    // Updates the known article; creates it again when it was deleted on the site; adopts the one a lost answer left there.
    saved = (await client.saveArticle(article, s.joomla_article_id)).article;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await markError(app.db, serviceId, message);
    if (err instanceof JoomlaError && permanent(err)) return;
    throw err;
  }
  // Keep the article id whatever happens next, so the next run updates it instead of creating another.
  await app.db
    .update(services)
    .set({ joomla_article_id: saved.id, joomla_catid: saved.catid ?? article.catid })
    .where(sql`id = ${serviceId}`);
  const done = await rows<{ id: number }>(
    app.db,
    sql`update services set joomla_status = 'published', joomla_error = null, joomla_published_at = now()
        where id = ${serviceId} and (extract(epoch from updated_at) * 1000000)::bigint = ${s.stamp}::bigint returning id`,
  );
  if (done.length === 0) return { retryInSeconds: 1 };
}

export function registerServiceJobs(jobs: JobRunner): void {
  jobs.register(PUBLISH_SERVICE_JOB, (app, { serviceId }) => publishService(app, serviceId));
}
