import http from 'node:http';

/**
 * A local stand-in of the Joomla 4/5 Web Services API on 127.0.0.1, answering in Joomla's shapes:
 * JSON:API documents for success, {"errors":[{"title","code"}]} for failures, 406 without the
 * JSON:API Accept, 401 without the right X-Joomla-Token, article aliases unique per category, the
 * top-level custom fields kept apart as Joomla's controller does (com_fields).
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
  publish_up: string | null;
  publish_down: string | null;
  com_fields: Record<string, unknown>;
}

export interface FakeJoomla {
  url: string;
  token: string;
  articles: Map<number, FakeArticle>;
  requests: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders; body: unknown }>;
  categories: Array<{ id: number; title: string }>;
  tags: Array<{ id: number; title: string }>;
  /** 'down': every call answers 503; 'error': 500 with a Joomla error body; 'ok' normal. */
  mode: 'ok' | 'down' | 'error';
  close(): Promise<void>;
}

const FIELD_NAMES = ['service-id', 'price', 'points', 'dates', 'video', 'cabinet-url'];
const KNOWN = new Set(['title', 'alias', 'catid', 'articletext', 'introtext', 'fulltext', 'state', 'language', 'tags', 'images', 'publish_up', 'publish_down', 'metadesc', 'featured', 'access']);

export async function startFakeJoomla(
  opts: { token?: string; categories?: Array<{ id: number; title: string }>; tags?: Array<{ id: number; title: string }>; port?: number; host?: string } = {},
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
  };
  let nextId = 100;

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/vnd.api+json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, title: string) => send(res, status, { errors: [{ title, code: status }] });
  const articleDoc = (a: FakeArticle) => ({
    links: { self: `http://127.0.0.1/api/index.php/v1/content/articles/${a.id}` },
    data: { type: 'articles', id: String(a.id), attributes: { id: a.id, title: a.title, alias: a.alias, catid: a.catid, state: a.state, language: a.language, text: a.articletext } },
  });
  const listDoc = (type: string, items: Array<{ id: number; title: string }>, url: URL) => {
    const limit = Number(url.searchParams.get('page[limit]') ?? 20);
    const offset = Number(url.searchParams.get('page[offset]') ?? 0);
    return {
      links: { self: url.toString() },
      data: items.slice(offset, offset + limit).map((i) => ({ type, id: String(i.id), attributes: { id: i.id, title: i.title } })),
      meta: { 'total-pages': Math.ceil(items.length / limit) },
    };
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
      state.requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body });
      if (state.mode === 'down') return error(res, 503, 'Service Unavailable');
      if (state.mode === 'error') return error(res, 500, 'Database connection error');
      const accept = String(req.headers.accept ?? '');
      if (!accept.includes('application/vnd.api+json') && !accept.includes('*/*') && !accept.includes('application/json')) return error(res, 406, 'Not Acceptable');
      if (req.headers['x-joomla-token'] !== state.token) return error(res, 401, 'Forbidden');
      const path = url.pathname.replace(/^\/api\/index\.php\/v1/, '');

      if (req.method === 'GET' && path === '/content/categories') return send(res, 200, listDoc('categories', state.categories, url));
      if (req.method === 'GET' && path === '/tags') return send(res, 200, listDoc('tags', state.tags, url));
      if (req.method === 'GET' && path === '/content/articles') {
        const search = (url.searchParams.get('filter[search]') ?? '').toLowerCase();
        const found = [...state.articles.values()].filter((a) => !search || a.title.toLowerCase().includes(search));
        return send(res, 200, { links: { self: url.toString() }, data: found.map((a) => articleDoc(a).data), meta: { 'total-pages': 1 } });
      }

      const data = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
      const fieldsOf = () => Object.fromEntries(Object.entries(data).filter(([k]) => FIELD_NAMES.includes(k)));
      const unknown = Object.keys(data).filter((k) => !KNOWN.has(k) && !FIELD_NAMES.includes(k));
      const check = (a: Partial<FakeArticle>, selfId: number | null): string | null => {
        if (!a.title) return 'Field required: Title';
        if (!a.catid || !state.categories.some((c) => c.id === a.catid)) return 'Field required: Category';
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
          id: nextId++,
          title: String(data.title ?? ''),
          alias: String(data.alias ?? String(data.title ?? '').toLowerCase()),
          catid: Number(data.catid),
          articletext: String(data.articletext ?? ''),
          state: Number(data.state ?? 0),
          language: String(data.language ?? ''),
          tags: (data.tags as number[]) ?? [],
          images: (data.images as Record<string, string>) ?? null,
          publish_up: (data.publish_up as string) ?? null,
          publish_down: (data.publish_down as string) ?? null,
          com_fields: fieldsOf(),
        };
        const problem = check(a, null);
        if (problem) return error(res, 400, problem);
        state.articles.set(a.id, a);
        return send(res, 200, articleDoc(a));
      }
      const m = /^\/content\/articles\/(\d+)$/.exec(path);
      if (m && req.method === 'PATCH') {
        const existing = state.articles.get(Number(m[1]));
        if (!existing) return error(res, 404, 'Resource not found');
        const next: FakeArticle = {
          ...existing,
          ...(data as Partial<FakeArticle>),
          id: existing.id,
          catid: data.catid === undefined ? existing.catid : Number(data.catid),
          com_fields: { ...existing.com_fields, ...fieldsOf() },
        };
        const problem = check(next, existing.id);
        if (problem) return error(res, 400, problem);
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
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}
