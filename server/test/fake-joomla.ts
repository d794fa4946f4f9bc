import http from 'node:http';

/**
 * A local stand-in of the Joomla 4/5 Web Services API on 127.0.0.1, answering in Joomla's shapes and
 * with Joomla's behaviour where the app depends on it (each point names the Joomla source it follows):
 * - JSON:API documents for success, {"errors":[{"title","code"}]} for failures, 406 without the
 *   JSON:API Accept, 401 without the right X-Joomla-Token;
 * - an article is rendered as api/components/com_content/src/View/Articles/JsonapiView.php does: no
 *   `catid` attribute, the category in `relationships.category.data`; custom fields as attributes;
 * - PATCH of a missing article answers 400 "Check-out failed with the following error: ..."
 *   (libraries/src/MVC/Controller/ApiController.php edit() -> FormModel::checkout() fails on
 *   Table::load (JLIB_APPLICATION_ERROR_NOT_EXIST) -> Exception\CheckinCheckout ->
 *   Error/JsonApi/CheckinCheckoutExceptionHandler, status 400); so does PATCH of an article checked
 *   out by another user (JLIB_APPLICATION_ERROR_CHECKOUT_USER_MISMATCH);
 * - GET of a missing article answers 404 "Item does not exist" (JsonApiView::displayItem);
 * - an unknown `catid` makes a new category titled with the number (administrator/components/
 *   com_content/src/Model/ArticleModel.php save(): validateCategoryId fails, canCreateCategory() for
 *   a Super User, CategoryModel::save with title = catid) and the article goes there;
 * - aliases unique per category, trashed articles included ("Another article from this category has
 *   the same alias (remember it may be a trashed item)", Table/Article store());
 * - `GET /content/articles` filters as ArticlesController::displayList + ArticlesModel: filter[search]
 *   (title or alias containing it, "id:N"), filter[category], filter[state] (default: published and
 *   unpublished, not trashed), page[limit]/page[offset];
 * - `publish_up`/`publish_down` are read in the site's time zone and stored in UTC (forms/article.xml
 *   filter="user_utc", Form::filter -> Factory::getDate($value, $user->getTimezone())->toSql());
 * - top-level custom fields go to com_fields only when isset() (ArticlesController::preprocessSaveData):
 *   a null is dropped and the stored value stays; an empty string clears it;
 * - `title` is varchar(255): a longer one fails the save (MySQL strict mode, "Data too long").
 */
export interface FakeArticle {
  id: number;
  title: string;
  alias: string;
  catid: number;
  articletext: string;
  state: number;
  language: string;
  tags: number[];
  images: Record<string, string> | null;
  /** Stored as Joomla stores it: UTC 'YYYY-MM-DD HH:mm:ss'. */
  publish_up: string | null;
  publish_down: string | null;
  com_fields: Record<string, unknown>;
  /** The user holding the article checked out (0: nobody), as #__content.checked_out. */
  checked_out: number;
}

export interface FakeJoomla {
  url: string;
  token: string;
  articles: Map<number, FakeArticle>;
  requests: Array<{ method: string; path: string; query: string; headers: http.IncomingHttpHeaders; body: unknown }>;
  categories: Array<{ id: number; title: string }>;
  tags: Array<{ id: number; title: string }>;
  /** 'down': every call answers 503; 'error': 500 with a Joomla error body; 'ok' normal. */
  mode: 'ok' | 'down' | 'error';
  /** The site's time zone, in which it reads publish_up (default Europe/Moscow). */
  timeZone: string;
  /** The user of the API token (a Super User). */
  apiUserId: number;
  /** Creates this many articles and then drops the connection instead of answering (a lost answer). */
  loseCreateAnswers: number;
  close(): Promise<void>;
}

const FIELD_NAMES = ['service-id', 'price', 'points', 'dates', 'video', 'cabinet-url'];
const KNOWN = new Set([
  'title',
  'alias',
  'catid',
  'articletext',
  'introtext',
  'fulltext',
  'state',
  'language',
  'tags',
  'images',
  'publish_up',
  'publish_down',
  'metadesc',
  'featured',
  'access',
]);

/** Joomla's `title` column: varchar(255), counted in characters (code points). */
const TITLE_MAX = 255;

/** The UTC moment of a wall-clock 'YYYY-MM-DD HH:mm:ss' in a time zone, as Joomla's "user_utc" filter computes it; '' / null stay empty. */
function userUtc(value: unknown, zone: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(String(value));
  if (!m) return null;
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  const offsetAt = (t: number) => {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      })
        .formatToParts(new Date(t))
        .map((x) => [x.type, Number(x.value)]),
    );
    // A missing part gives NaN, as Date.UTC does with undefined.
    const part = (type: string) => p[type] ?? NaN;
    return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - t;
  };
  let t = asUtc - offsetAt(asUtc);
  t = asUtc - offsetAt(t);
  return new Date(t).toISOString().slice(0, 19).replace('T', ' ');
}

export async function startFakeJoomla(
  opts: {
    token?: string;
    categories?: Array<{ id: number; title: string }>;
    tags?: Array<{ id: number; title: string }>;
    port?: number;
    host?: string;
    timeZone?: string;
  } = {},
): Promise<FakeJoomla> {
  const state: Omit<FakeJoomla, 'url' | 'close'> = {
    token: opts.token ?? 'joomla-test-token',
    articles: new Map(),
    requests: [],
    categories: opts.categories ?? Array.from({ length: 130 }, (_, i) => ({ id: i + 1, title: `Категория ${i + 1}` })),
    tags: opts.tags ?? [
      { id: 2, title: 'Учителям' },
      { id: 3, title: 'Методистам' },
    ],
    mode: 'ok',
    timeZone: opts.timeZone ?? 'Europe/Moscow',
    apiUserId: 42,
    loseCreateAnswers: 0,
  };
  let nextId = 100;

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/vnd.api+json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, title: string) => send(res, status, { errors: [{ title, code: status }] });
  // View/Articles/JsonapiView.php: fieldsToRenderItem has 'category' (a relationship), never 'catid'; custom fields by name.
  const resource = (a: FakeArticle) => ({
    type: 'articles',
    id: String(a.id),
    attributes: {
      id: a.id,
      title: a.title,
      alias: a.alias,
      state: a.state,
      language: a.language,
      text: a.articletext,
      images: a.images ?? {},
      publish_up: a.publish_up,
      publish_down: a.publish_down,
      tags: Object.fromEntries(a.tags.map((t) => [String(t), state.tags.find((x) => x.id === t)?.title ?? String(t)])),
      ...a.com_fields,
    },
    relationships: {
      category: { data: { type: 'categories', id: String(a.catid) } },
      created_by: { data: { type: 'users', id: String(state.apiUserId) } },
      tags: { data: a.tags.map((t) => ({ type: 'tags', id: String(t) })) },
    },
  });
  const articleDoc = (a: FakeArticle) => ({ links: { self: `http://127.0.0.1/api/index.php/v1/content/articles/${a.id}` }, data: resource(a) });
  const page = <T>(items: T[], url: URL) => {
    const limit = Number(url.searchParams.get('page[limit]') ?? 20);
    const offset = Number(url.searchParams.get('page[offset]') ?? 0);
    return { slice: items.slice(offset, offset + limit), meta: { 'total-pages': Math.max(1, Math.ceil(items.length / limit)) } };
  };
  const listDoc = (type: string, items: Array<{ id: number; title: string }>, url: URL) => {
    const { slice, meta } = page(items, url);
    return { links: { self: url.toString() }, data: slice.map((i) => ({ type, id: String(i.id), attributes: { id: i.id, title: i.title } })), meta };
  };
  // administrator/components/com_content/src/Model/ArticlesModel.php getListQuery(), fed by ArticlesController::displayList.
  const articleList = (url: URL) => {
    const search = (url.searchParams.get('filter[search]') ?? '').trim().toLowerCase();
    const category = url.searchParams.get('filter[category]');
    const stateFilter = url.searchParams.get('filter[state]');
    const found = [...state.articles.values()].filter((a) => {
      if (stateFilter !== null && stateFilter !== '' ? a.state !== Number(stateFilter) : ![0, 1].includes(a.state)) return false;
      if (category !== null && a.catid !== Number(category)) return false;
      if (!search) return true;
      if (search.startsWith('id:')) return a.id === Number(search.slice(3));
      const like = new RegExp(
        search
          .split(/\s+/)
          .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*'),
      );
      return like.test(a.title.toLowerCase()) || like.test(a.alias.toLowerCase());
    });
    const { slice, meta } = page(found, url);
    return { links: { self: url.toString() }, data: slice.map(resource), meta };
  };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let body: unknown = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      state.requests.push({ method: req.method ?? '', path: url.pathname, query: url.search, headers: req.headers, body });
      if (state.mode === 'down') return error(res, 503, 'Service Unavailable');
      if (state.mode === 'error') return error(res, 500, 'Database connection error');
      const accept = String(req.headers.accept ?? '');
      if (!accept.includes('application/vnd.api+json') && !accept.includes('*/*') && !accept.includes('application/json'))
        return error(res, 406, 'Not Acceptable');
      if (req.headers['x-joomla-token'] !== state.token) return error(res, 401, 'Forbidden');
      const path = url.pathname.replace(/^\/api\/index\.php\/v1/, '');

      if (req.method === 'GET' && path === '/content/categories') return send(res, 200, listDoc('categories', state.categories, url));
      if (req.method === 'GET' && path === '/tags') return send(res, 200, listDoc('tags', state.tags, url));
      if (req.method === 'GET' && path === '/content/articles') return send(res, 200, articleList(url));
      const m = /^\/content\/articles\/(\d+)$/.exec(path);
      if (m && req.method === 'GET') {
        const a = state.articles.get(Number(m[1]));
        return a ? send(res, 200, articleDoc(a)) : error(res, 404, 'Item does not exist');
      }

      const data = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
      // ArticlesController::preprocessSaveData: `if (isset($data[$field->name]))` – a null never reaches com_fields.
      const fieldsOf = () => Object.fromEntries(Object.entries(data).filter(([k, v]) => FIELD_NAMES.includes(k) && v !== null && v !== undefined));
      const unknown = Object.keys(data).filter((k) => !KNOWN.has(k) && !FIELD_NAMES.includes(k));
      // ArticleModel::save: a catid that is not a com_content category becomes a new category titled with it (Super User).
      const categoryFor = (catid: number): number => {
        if (state.categories.some((c) => c.id === catid)) return catid;
        const id = Math.max(0, ...state.categories.map((c) => c.id)) + 1;
        state.categories.push({ id, title: String(catid) });
        return id;
      };
      const check = (a: Partial<FakeArticle>, selfId: number | null): string | null => {
        if (!a.title) return 'Field required: Title';
        if (Array.from(a.title).length > TITLE_MAX) return "Save failed with the following error: Data too long for column 'title' at row 1";
        if (!a.catid) return 'Field required: Category';
        if (!a.language) return 'Field required: Language';
        for (const other of state.articles.values()) {
          if (other.id !== selfId && other.catid === a.catid && other.alias === a.alias) {
            return 'Save failed with the following error: Another article from this category has the same alias (remember it may be a trashed item).';
          }
        }
        return null;
      };

      if (req.method === 'POST' && path === '/content/articles') {
        if (unknown.length) return error(res, 400, `Unknown field: ${unknown[0]}`);
        const a: FakeArticle = {
          id: 0,
          title: String(data.title ?? ''),
          alias: String(data.alias ?? String(data.title ?? '').toLowerCase()),
          catid: Number(data.catid),
          articletext: String(data.articletext ?? ''),
          state: Number(data.state ?? 0),
          language: String(data.language ?? ''),
          tags: (data.tags as number[]) ?? [],
          images: (data.images as Record<string, string>) ?? null,
          publish_up: userUtc(data.publish_up, state.timeZone),
          publish_down: userUtc(data.publish_down, state.timeZone),
          com_fields: fieldsOf(),
          checked_out: 0,
        };
        const problem = check(a, null);
        if (problem) return error(res, 400, problem);
        a.catid = categoryFor(a.catid);
        a.id = nextId++;
        state.articles.set(a.id, a);
        if (state.loseCreateAnswers > 0) {
          state.loseCreateAnswers--;
          req.socket.destroy();
          return;
        }
        return send(res, 200, articleDoc(a));
      }
      if (m && req.method === 'PATCH') {
        const existing = state.articles.get(Number(m[1]));
        // ApiController::edit -> FormModel::checkout: Table::load fails -> JLIB_APPLICATION_ERROR_NOT_EXIST -> CheckinCheckout (400).
        if (!existing) return error(res, 400, 'Check-out failed with the following error: Record does not exist.');
        if (existing.checked_out && existing.checked_out !== state.apiUserId) {
          return error(res, 400, 'Check-out failed with the following error: The user checking out does not match the user who checked out the item.');
        }
        // ApiController::save for PATCH: fields not sent keep the stored values.
        const next: FakeArticle = {
          ...existing,
          ...(Object.fromEntries(Object.entries(data).filter(([k]) => KNOWN.has(k))) as Partial<FakeArticle>),
          id: existing.id,
          catid: data.catid === undefined ? existing.catid : Number(data.catid),
          publish_up: data.publish_up === undefined ? existing.publish_up : userUtc(data.publish_up, state.timeZone),
          publish_down: data.publish_down === undefined ? existing.publish_down : userUtc(data.publish_down, state.timeZone),
          com_fields: { ...existing.com_fields, ...fieldsOf() },
          checked_out: 0,
        };
        const problem = check(next, existing.id);
        if (problem) return error(res, 400, problem);
        next.catid = categoryFor(next.catid);
        state.articles.set(existing.id, next);
        return send(res, 200, articleDoc(next));
      }
      return error(res, 404, 'Resource not found');
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const fake = state as FakeJoomla;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
