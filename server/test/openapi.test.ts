import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from './helper.ts';

// Routes declare their answers (platform/responses.ts), so the OpenAPI document describes answers
// too: every operation has a described 2xx answer (issue 21 asked for at least 95 %).

/** Every operation: a new route declares its answer like the others. */
const MIN_SHARE = 1;

const t = await createTestApp();
afterAll(() => t.close());

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

describe('the OpenAPI document', () => {
  it('describes the answer of (nearly) every operation', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<string, Record<string, Operation>>;
    const operations = Object.entries(paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );
    // A 2xx answer with its content, or a declared body-less one (204, a redirect): the generator
    // itself adds only a contentless "200 Default Response".
    const undescribed = operations.filter(
      ({ op }) => !Object.entries(op.responses ?? {}).some(([code, r]) => (/^2/.test(code) && r.content) || code === '204' || /^3/.test(code)),
    );
    const share = 1 - undescribed.length / operations.length;
    expect(operations.length).toBeGreaterThan(150);
    expect(share, `operations without a described answer:\n${undescribed.map((u) => u.key).join('\n')}`).toBeGreaterThanOrEqual(MIN_SHARE);
  });
});
