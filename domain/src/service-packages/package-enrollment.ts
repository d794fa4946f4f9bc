import { z } from 'zod';
import { dataAnswer } from '../common/answers.ts';
import { entrySchema } from '../entries/entry.ts';

// Apart from service-package.ts: the entry's schema needs that module (the package's pay window),
// so the answer that carries entries lives here.

/**
 * POST /api/service-package/{id}/enroll (201): the package's new entries (null for one no longer
 * there to read), the package's price, and the notice.
 */
export const packageEnrolledAnswer = dataAnswer(z.object({ entries: z.array(entrySchema.nullable()), price: z.number() })).extend({ message: z.string() });
