// Client of the Joomla 4/5 Web Services API (com_content), as Joomla's own source defines it:
// - endpoints under {site}/api/index.php/v1, e.g. /content/articles, /content/categories, /tags;
// - `Accept: application/vnd.api+json` (anything else answers 406), token in `X-Joomla-Token`;
// - request bodies are plain JSON objects (not JSON:API documents); answers are JSON:API documents
//   ({data: {type, id, attributes}} or {data: [...], meta: {'total-pages'}});
// - custom fields go at the top level by field name (ArticlesController::preprocessSaveData moves
//   them into com_fields); `language` must be sent ('*' = all languages); PATCH updates an article;
// - failures answer {"errors": [{"title": "...", "code": N}]};
// - an article's category is not an attribute: the JSON:API view (View/Articles/JsonapiView.php)
//   renders it as `relationships.category.data.id`;
// - PATCH of an article that no longer exists answers 400 "Check-out failed with the following error:
//   ..." (ApiController::edit -> FormModel::checkout -> CheckinCheckoutExceptionHandler), not 404; a GET
//   of it answers 404 (JsonApiView::displayItem, "Item does not exist");
// - an unknown `catid` is not refused: ArticleModel::save creates a category titled with the number
//   (for a Super User), so the caller checks the category against categories() first;
// - `publish_up`/`publish_down` have filter="user_utc" (administrator/components/com_content/forms/
//   article.xml): Joomla reads them in the site's (the API user's) time zone and stores UTC;
// - a custom field sent as null is dropped (ArticlesController::preprocessSaveData uses isset()) and
//   the old value stays; an empty string clears it;
// - `title` is varchar(255) in #__content.
//
// Publishing goes through saveArticle(): update the known article, create it again when it is gone,
// and adopt the article the site made when a create's answer was lost (the retry is refused for the
// fixed alias; the article is found with filter[search] and filter[category], as
// ArticlesController::displayList supports).

export interface JoomlaSiteConfig {
  /** The site's address, e.g. https://example.ru (the API lives under /api/index.php/v1). */
  url: string;
  /** An API token of a Super User (X-Joomla-Token). */
  token: string;
  /** The site's time zone (IANA; the API user's, else the site's `offset` setting): Joomla reads dates in it. Default Europe/Moscow. */
  timeZone?: string;
}

/** The time zone a site is assumed to be in when none is configured. */
export const DEFAULT_SITE_TIME_ZONE = 'Europe/Moscow';

/** Joomla's `title` column is varchar(255) (characters). */
export const JOOMLA_TITLE_MAX = 255;

/** A title the site can store: at most 255 characters, cut with an ellipsis (characters are code points, as MySQL counts them). */
export function siteTitle(title: string): string {
  const chars = Array.from(title.trim());
  if (chars.length <= JOOMLA_TITLE_MAX) return chars.join('');
  return `${chars
    .slice(0, JOOMLA_TITLE_MAX - 1)
    .join('')
    .trimEnd()}…`;
}

/** Whether a name is a time zone this runtime knows (e.g. Europe/Moscow). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** 'YYYY-MM-DD HH:mm:ss' of a moment in a time zone (the wall clock of the site). */
export function wallClock(moment: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(moment)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** The two Joomla sites of the centre: the main site (services) and the journal (publications). */
export type JoomlaSystem = 'site' | 'journal';

export class JoomlaError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export interface JoomlaArticleInput {
  title: string;
  alias?: string;
  catid: number;
  /** Intro and full text; Joomla splits articletext at the read-more line. */
  introtext: string;
  fulltext: string;
  /** 1 published, 0 unpublished, -2 trashed. */
  state: 0 | 1 | -2;
  tags?: number[];
  images?: { image_intro?: string; image_intro_alt?: string; image_fulltext?: string; image_fulltext_alt?: string };
  /** Moments; sent as the site's wall clock ('YYYY-MM-DD HH:mm:ss' in its time zone), as Joomla reads them. */
  publish_up?: Date | null;
  publish_down?: Date | null;
  metadesc?: string;
  /** Custom fields of com_content.article by name (sent at the top level); null is sent as '' so the site clears the field. */
  fields?: Record<string, string | number | null>;
}

export interface JoomlaArticle {
  id: number;
  title: string;
  alias: string | null;
  catid: number | null;
  state: number | null;
}

/** How saveArticle() got the article onto the site. */
export type JoomlaSaveOutcome = 'updated' | 'created' | 'recreated' | 'adopted';

export interface JoomlaOption {
  id: number;
  title: string;
}

interface Resource {
  type?: string;
  id?: string | number;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: { type?: string; id?: string | number } | Array<{ type?: string; id?: string | number }> | null }>;
}

const READ_MORE = '<hr id="system-readmore">';
const MAX_PAGES = 50;

export class JoomlaClient {
  constructor(
    readonly site: JoomlaSiteConfig,
    private readonly opts: { timeoutMs?: number } = {},
  ) {}

  private api(path: string): string {
    return `${this.site.url.replace(/\/+$/, '')}/api/index.php/v1${path}`;
  }

  /** The public address of an article (Joomla's non-SEF route; the site redirects to its SEF url). */
  articleUrl(a: { id: number; catid: number | null }): string {
    const cat = a.catid ? `&catid=${a.catid}` : '';
    return `${this.site.url.replace(/\/+$/, '')}/index.php?option=com_content&view=article&id=${a.id}${cat}`;
  }

  private async request(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body?: unknown,
  ): Promise<{ data?: Resource | Resource[]; meta?: Record<string, unknown> }> {
    let res: Response;
    try {
      res = await fetch(this.api(path), {
        method,
        headers: {
          Accept: 'application/vnd.api+json',
          'X-Joomla-Token': this.site.token,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000),
      });
    } catch (err) {
      const e = err as Error;
      if (e.name === 'TimeoutError') throw new JoomlaError('Сайт не ответил вовремя', null);
      throw new JoomlaError(`Сайт недоступен (${(e.cause as Error | undefined)?.message ?? e.message})`, null);
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!res.ok) {
      const errors = (json as { errors?: Array<{ title?: string; detail?: string }> } | null)?.errors;
      const title = errors
        ?.map((e) => e.title || e.detail)
        .filter(Boolean)
        .join('; ');
      throw new JoomlaError(title || `HTTP ${res.status}`, res.status);
    }
    if (json === null || typeof json !== 'object') throw new JoomlaError('Сайт ответил не в формате JSON:API', res.status);
    return json as { data?: Resource | Resource[]; meta?: Record<string, unknown> };
  }

  private get timeZone(): string {
    return this.site.timeZone || DEFAULT_SITE_TIME_ZONE;
  }

  private body(a: JoomlaArticleInput): Record<string, unknown> {
    const when = (d: Date | null) => (d === null ? null : wallClock(d, this.timeZone));
    const body: Record<string, unknown> = {
      title: siteTitle(a.title),
      catid: a.catid,
      articletext: a.fulltext ? `${a.introtext}${READ_MORE}${a.fulltext}` : a.introtext,
      state: a.state,
      // Joomla requires the language; '*' is "all languages".
      language: '*',
      tags: a.tags ?? [],
    };
    if (a.alias) body.alias = a.alias;
    if (a.images) body.images = a.images;
    if (a.publish_up !== undefined) body.publish_up = when(a.publish_up);
    if (a.publish_down !== undefined) body.publish_down = when(a.publish_down);
    if (a.metadesc !== undefined) body.metadesc = a.metadesc;
    for (const [name, value] of Object.entries(a.fields ?? {})) {
      // Joomla drops a null field and keeps the old value: an empty value clears it.
      if (!(name in body)) body[name] = value ?? '';
    }
    return body;
  }

  private static article(doc: { data?: Resource | Resource[] }): JoomlaArticle {
    const r = Array.isArray(doc.data) ? doc.data[0] : doc.data;
    return JoomlaClient.articleOf(r);
  }

  private static articleOf(r: Resource | undefined): JoomlaArticle {
    const id = Number(r?.id ?? r?.attributes?.id);
    if (!Number.isInteger(id) || id <= 0) throw new JoomlaError('Сайт не вернул номер статьи', null);
    const at = r?.attributes ?? {};
    return {
      id,
      title: String(at.title ?? ''),
      alias: typeof at.alias === 'string' ? at.alias : null,
      catid: JoomlaClient.categoryOf(r),
      state: at.state === undefined || at.state === null ? null : Number(at.state),
    };
  }

  /** The article's category: `relationships.category.data.id` (the view renders no `catid` attribute). */
  private static categoryOf(r: Resource | undefined): number | null {
    const rel = r?.relationships?.category?.data;
    const id = Number(rel && !Array.isArray(rel) ? rel.id : NaN);
    return Number.isInteger(id) && id > 0 ? id : null;
  }

  /** POST /content/articles. */
  async createArticle(a: JoomlaArticleInput): Promise<JoomlaArticle> {
    return JoomlaClient.article(await this.request('POST', '/content/articles', this.body(a)));
  }

  /** PATCH /content/articles/{id}. */
  async updateArticle(id: number, a: JoomlaArticleInput): Promise<JoomlaArticle> {
    return JoomlaClient.article(await this.request('PATCH', `/content/articles/${id}`, this.body(a)));
  }

  /** GET /content/articles/{id}; null when the site answers 404 (the article is gone). */
  async getArticle(id: number): Promise<JoomlaArticle | null> {
    try {
      return JoomlaClient.article(await this.request('GET', `/content/articles/${id}`));
    } catch (err) {
      if (err instanceof JoomlaError && err.status === 404) return null;
      throw err;
    }
  }

  /**
   * The article with exactly this alias in the category (GET /content/articles with filter[search]
   * and filter[category]); trashed ones too, since Joomla keeps their alias taken.
   */
  async findArticle(alias: string, catid: number): Promise<JoomlaArticle | null> {
    // Without filter[state] the list holds published and unpublished articles; trashed ones need -2.
    for (const state of [null, -2]) {
      const q = new URLSearchParams({ 'filter[search]': alias, 'filter[category]': String(catid), 'page[limit]': '100' });
      if (state !== null) q.set('filter[state]', String(state));
      const doc = await this.request('GET', `/content/articles?${q.toString()}`);
      for (const r of Array.isArray(doc.data) ? doc.data : []) {
        // filter[search] matches parts of titles and aliases: only the exact alias is ours.
        if (r.attributes?.alias === alias) return JoomlaClient.articleOf(r);
      }
    }
    return null;
  }

  /** Whether the site has a category with this id (Joomla would otherwise make a new category titled with the number). */
  async hasCategory(id: number): Promise<boolean> {
    return (await this.categories()).some((c) => c.id === id);
  }

  /**
   * Puts the article on the site: PATCH of the known article; when the site no longer has it (its
   * 400 check-out failure, or a 404, confirmed by a GET answering 404) it is created again. A create
   * the site refuses while an article with our alias already sits in the category (the answer of an
   * earlier create was lost) adopts that article and updates it. Any other refusal is thrown.
   */
  async saveArticle(a: JoomlaArticleInput, knownId: number | null): Promise<{ article: JoomlaArticle; outcome: JoomlaSaveOutcome }> {
    if (knownId) {
      try {
        return { article: await this.updateArticle(knownId, a), outcome: 'updated' };
      } catch (err) {
        if (!(err instanceof JoomlaError && (err.status === 400 || err.status === 404))) throw err;
        if ((await this.getArticle(knownId)) !== null) throw err;
      }
    }
    try {
      return { article: await this.createArticle(a), outcome: knownId ? 'recreated' : 'created' };
    } catch (err) {
      if (!(err instanceof JoomlaError && err.status === 400 && a.alias)) throw err;
      const existing = await this.findArticle(a.alias, a.catid);
      if (!existing) throw err;
      return { article: await this.updateArticle(existing.id, a), outcome: 'adopted' };
    }
  }

  private async list(path: string): Promise<JoomlaOption[]> {
    const out: JoomlaOption[] = [];
    const limit = 100;
    for (let page = 0; page < MAX_PAGES; page++) {
      const doc = await this.request('GET', `${path}?page[limit]=${limit}&page[offset]=${page * limit}`);
      const data = Array.isArray(doc.data) ? doc.data : [];
      for (const r of data) {
        const id = Number(r.id ?? r.attributes?.id);
        if (Number.isInteger(id)) out.push({ id, title: String(r.attributes?.title ?? id) });
      }
      const totalPages = Number(doc.meta?.['total-pages'] ?? 1);
      if (data.length < limit || page + 1 >= totalPages) break;
    }
    return out;
  }

  /** GET /content/categories (all pages). */
  categories(): Promise<JoomlaOption[]> {
    return this.list('/content/categories');
  }

  /** GET /tags (all pages). */
  tags(): Promise<JoomlaOption[]> {
    return this.list('/tags');
  }
}

/** The configured sites; a system without settings is off. */
export class Cms {
  private clients: Partial<Record<JoomlaSystem, JoomlaClient>> = {};

  constructor(config: Partial<Record<JoomlaSystem, JoomlaSiteConfig | null>>, opts: { timeoutMs?: number } = {}) {
    for (const system of ['site', 'journal'] as const) {
      const c = config[system];
      if (c?.url && c.token) this.clients[system] = new JoomlaClient(c, opts);
    }
  }

  client(system: JoomlaSystem): JoomlaClient | null {
    return this.clients[system] ?? null;
  }
}
