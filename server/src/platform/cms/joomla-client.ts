// Client of the Joomla 4/5 Web Services API (com_content), as Joomla's own source defines it:
// - endpoints under {site}/api/index.php/v1, e.g. /content/articles, /content/categories, /tags;
// - `Accept: application/vnd.api+json` (anything else answers 406), token in `X-Joomla-Token`;
// - request bodies are plain JSON objects (not JSON:API documents); answers are JSON:API documents
//   ({data: {type, id, attributes}} or {data: [...], meta: {'total-pages'}});
// - custom fields go at the top level by field name (ArticlesController::preprocessSaveData moves
//   them into com_fields); `language` must be sent ('*' = all languages); PATCH updates an article;
// - failures answer {"errors": [{"title": "...", "code": N}]}.

export interface JoomlaSiteConfig {
  /** The site's address, e.g. https://example.ru (the API lives under /api/index.php/v1). */
  url: string;
  /** An API token of a Super User (X-Joomla-Token). */
  token: string;
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
  /** 'YYYY-MM-DD HH:mm:ss' (UTC). */
  publish_up?: string | null;
  publish_down?: string | null;
  metadesc?: string;
  /** Custom fields of com_content.article by name (sent at the top level). */
  fields?: Record<string, string | number | null>;
}

export interface JoomlaArticle {
  id: number;
  title: string;
  alias: string | null;
  catid: number | null;
  state: number | null;
}

export interface JoomlaOption {
  id: number;
  title: string;
}

interface Resource {
  type?: string;
  id?: string | number;
  attributes?: Record<string, unknown>;
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

  private async request(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<{ data?: Resource | Resource[]; meta?: Record<string, unknown> }> {
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
      const title = errors?.map((e) => e.title || e.detail).filter(Boolean).join('; ');
      throw new JoomlaError(title || `HTTP ${res.status}`, res.status);
    }
    if (json === null || typeof json !== 'object') throw new JoomlaError('Сайт ответил не в формате JSON:API', res.status);
    return json as { data?: Resource | Resource[]; meta?: Record<string, unknown> };
  }

  private static body(a: JoomlaArticleInput): Record<string, unknown> {
    const body: Record<string, unknown> = {
      title: a.title,
      catid: a.catid,
      articletext: a.fulltext ? `${a.introtext}${READ_MORE}${a.fulltext}` : a.introtext,
      state: a.state,
      // Joomla requires the language; '*' is "all languages".
      language: '*',
      tags: a.tags ?? [],
    };
    if (a.alias) body.alias = a.alias;
    if (a.images) body.images = a.images;
    if (a.publish_up !== undefined) body.publish_up = a.publish_up;
    if (a.publish_down !== undefined) body.publish_down = a.publish_down;
    if (a.metadesc !== undefined) body.metadesc = a.metadesc;
    for (const [name, value] of Object.entries(a.fields ?? {})) {
      if (!(name in body)) body[name] = value;
    }
    return body;
  }

  private static article(doc: { data?: Resource | Resource[] }): JoomlaArticle {
    const r = Array.isArray(doc.data) ? doc.data[0] : doc.data;
    const id = Number(r?.id ?? r?.attributes?.id);
    if (!Number.isInteger(id) || id <= 0) throw new JoomlaError('Сайт не вернул номер статьи', null);
    const at = r?.attributes ?? {};
    return {
      id,
      title: String(at.title ?? ''),
      alias: typeof at.alias === 'string' ? at.alias : null,
      catid: at.catid === undefined || at.catid === null ? null : Number(at.catid),
      state: at.state === undefined || at.state === null ? null : Number(at.state),
    };
  }

  /** POST /content/articles. */
  async createArticle(a: JoomlaArticleInput): Promise<JoomlaArticle> {
    return JoomlaClient.article(await this.request('POST', '/content/articles', JoomlaClient.body(a)));
  }

  /** PATCH /content/articles/{id}. */
  async updateArticle(id: number, a: JoomlaArticleInput): Promise<JoomlaArticle> {
    return JoomlaClient.article(await this.request('PATCH', `/content/articles/${id}`, JoomlaClient.body(a)));
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
