import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { fieldErrorsOf, firstErrors } from './field-errors';

describe('field errors', () => {
  it('keeps the first message of each field', () => {
    expect(firstErrors({ email: ['Введите email', 'второе'], phone: [] })).toEqual({ email: 'Введите email' });
    expect(firstErrors(undefined)).toEqual({});
  });

  it('reads them from a 422 only', () => {
    expect(fieldErrorsOf(new ApiError(422, 'Ошибка', { fio: ['Введите ФИО'] }))).toEqual({ fio: 'Введите ФИО' });
    expect(fieldErrorsOf(new ApiError(500, 'Ошибка', { fio: ['Введите ФИО'] }))).toEqual({});
    expect(fieldErrorsOf(new Error('network'))).toEqual({});
  });
});
