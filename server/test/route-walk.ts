import type { FastifyInstance } from 'fastify';
import type { RouteTableRow } from '../src/platform/access.ts';

// Helpers shared by the security and property tests: which routes of the app's own route table
// they walk, and the field names each route's zod schemas declare.

const AUTH_PATHS = new Set(['/login', '/register', '/logout', '/password-forgot', '/password-reset']);

/** The app's API routes (static web files left out): every route a client can call. */
export function apiRoutes(app: FastifyInstance): RouteTableRow[] {
  const seen = new Set<string>();
  return app.routeTable().filter((r) => {
    const key = `${r.method} ${r.url}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return r.url.startsWith('/api/') || r.url.startsWith('/sandbox/') || AUTH_PATHS.has(r.url);
  });
}

export const routeKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

/** `:name` parameters of a route url, in order. */
export const pathParams = (url: string) => [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);

/** Fills a route url's parameters. */
export function fillPath(url: string, values: Record<string, string>): string {
  return url.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(values[name] ?? '1'));
}

interface ZodLike {
  shape?: Record<string, unknown>;
  _zod?: { def?: { type?: string; innerType?: unknown; in?: unknown; out?: unknown; options?: unknown[]; element?: unknown } };
}

/** The object shape behind optional/nullable/default/pipe/union wrappers, if any. */
export function objectShape(schema: unknown, depth = 0): Record<string, unknown> | null {
  const s = schema as ZodLike | undefined;
  if (!s || depth > 6) return null;
  if (s.shape && typeof s.shape === 'object') return s.shape;
  const def = s._zod?.def;
  if (!def) return null;
  for (const inner of [def.innerType, def.in, def.out, ...(def.options ?? [])]) {
    const found = objectShape(inner, depth + 1);
    if (found) return found;
  }
  return null;
}
