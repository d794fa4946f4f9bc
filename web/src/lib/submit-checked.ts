import type { z } from 'zod';
import { fieldErrorsFromZod, headlineOf } from '@edu/domain/common/validation';
import { errorMessage, isApiError } from './api-client';
import { firstErrors } from './field-errors';
import { focusFirstInvalid } from './focus-invalid';
import { notifyError, notifySuccess } from './notify';

/**
 * Checks a form with the save's schema from domain/ first (the rules the server applies), then
 * saves; field errors of a 422 go under their inputs. Either way the first invalid field is brought
 * into view and focused. Resolves true when saved.
 */
export async function submitChecked(
  setErrors: (errors: Record<string, string>) => void,
  schema: z.ZodType,
  body: Record<string, unknown>,
  save: () => Promise<{ message: string }>,
): Promise<boolean> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const errors = fieldErrorsFromZod(parsed.error);
    setErrors(firstErrors(errors));
    focusFirstInvalid();
    notifyError(headlineOf(errors));
    return false;
  }
  try {
    notifySuccess((await save()).message);
    return true;
  } catch (error) {
    if (isApiError(error) && error.status === 422) {
      setErrors(firstErrors(error.errors));
      focusFirstInvalid();
    }
    notifyError(errorMessage(error));
    return false;
  }
}
