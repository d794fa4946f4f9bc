import type { FieldErrors } from '@edu/domain/common/validation';

/** The first message of each field: the form shows one error per input (spec 01 §2). */
export function firstErrors(errors: FieldErrors | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, messages] of Object.entries(errors ?? {})) {
    if (Array.isArray(messages) && messages.length > 0) out[field] = String(messages[0]);
    else if (typeof messages === 'string') out[field] = messages;
  }
  return out;
}

/** The server says the account already exists (spec 01 §4, Registration). */
export function isDuplicateMessage(message: string): boolean {
  return /существует|дубл|duplicate|already exists/i.test(message);
}
