import type { IncomingMessage } from 'node:http';

const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);

/**
 * `POST …?_method=PUT` is routed as PUT (spec: multipart updates are sent as POST with
 * _method=PUT; browsers send multipart forms only by POST). Runs before routing (Fastify's
 * rewriteUrl), so only the query form can be honoured: a `_method` field inside a multipart body
 * is read after the route is chosen (docs/decisions/007-cabinet-choices.md).
 */
export function overrideMethod(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (req.method !== 'POST' || !url.includes('_method=')) return url;
  const [path, query = ''] = url.split('?', 2);
  const params = new URLSearchParams(query);
  const wanted = (params.get('_method') ?? '').toUpperCase();
  if (!OVERRIDABLE.has(wanted)) return url;
  req.method = wanted;
  params.delete('_method');
  const rest = params.toString();
  return rest ? `${path}?${rest}` : path;
}
