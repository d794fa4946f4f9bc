import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Queryable } from '../../platform/db.ts';

/** 12 random digits, not starting with 0: unguessable, so a number alone proves nothing about others. */
export function newCertificateNumber(): string {
  return String(randomInt(1, 10)) + Array.from({ length: 11 }, () => randomInt(0, 10)).join('');
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/**
 * The entry's certificate number, given once: the first print sets it (a conditional update, so two
 * prints at once agree on one number), later prints read it. Unique across entries.
 */
export async function ensureCertificateNumber(db: Queryable, entryId: number, known?: string | null): Promise<string> {
  // A number once given never changes by printing, so one read with the entry is enough.
  if (known) return known;
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      // One round trip: the current number, or the new one when this statement gave it.
      const [r] = await rows<{ given: string | null; current: string | null }>(
        db,
        sql`with cur as (select certificate_number from entries where id = ${entryId}),
                 upd as (update entries set certificate_number = ${newCertificateNumber()} where id = ${entryId} and certificate_number is null returning certificate_number)
            select (select certificate_number from upd) as given, (select certificate_number from cur) as current`,
      );
      const number = r?.given ?? r?.current;
      if (number) return number;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new Error('could not give a certificate number');
}

export { isUniqueViolation };
