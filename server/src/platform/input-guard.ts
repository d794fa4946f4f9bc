import fp from 'fastify-plugin';
import { BoundMessages, hasNul } from '@edu/domain/common/bounds';
import { Messages } from '@edu/domain/common/messages';
import { validationError } from './errors.ts';

/** The first field (path) whose string or key holds a NUL character, searching at most `depth` levels. */
export function fieldWithNul(value: unknown, path = '_', depth = 6): string | null {
  if (typeof value === 'string') return hasNul(value) ? path : null;
  if (depth === 0 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = fieldWithNul(item, path, depth - 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (hasNul(key)) return path;
    const found = fieldWithNul(item, key, depth - 1);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold NUL: any string with one, in the path, the query or a JSON body, is
 * a 422 before a handler sees it (multipart fields are checked by their routes).
 */
export const inputGuardPlugin = fp(async (app) => {
  // A callback hook, not an async one: no promise per request.
  app.addHook('preValidation', (request, _reply, done) => {
    const field = fieldWithNul(request.params) ?? fieldWithNul(request.query) ?? (request.isMultipart() ? null : fieldWithNul(request.body));
    done(field ? validationError({ [field]: [BoundMessages.nul] }, Messages.required) : undefined);
  });
});
