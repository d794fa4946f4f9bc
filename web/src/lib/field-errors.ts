import type { FieldErrors } from '@edu/domain/common/validation';
import { isApiError } from './api-client';

/** The first message of each field: a form shows one error per input. */
export function firstErrors(errors: FieldErrors | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, messages] of Object.entries(errors ?? {})) {
    if (Array.isArray(messages) && messages.length > 0) out[field] = String(messages[0]);
    else if (typeof messages === 'string') out[field] = messages;
  }
  return out;
}

/** Field errors of a 422 answer, or an empty map for any other failure. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  return isApiError(error) && error.status === 422 ? firstErrors(error.errors) : {};
}
