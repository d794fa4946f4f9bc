import { z } from 'zod';
import { Messages } from './messages.ts';
import { plural } from './plural.ts';

// The Russian error map of every zod schema without its own message: body fields, query and path
// parameters alike. Installed once by the server (buildApp) and the web app (main.tsx).

const ruLocale = z.locales.ru().localeError;

const num = (v: unknown) => (typeof v === 'bigint' || typeof v === 'number' ? Number(v).toLocaleString('ru-RU') : String(v));

type Issue = Parameters<NonNullable<z.core.$ZodConfig['localeError']>>[0];

export function russianError(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return Messages.fieldRequired;
      if (issue.expected === 'number' || issue.expected === 'int' || issue.expected === 'bigint') return 'Введите число';
      if (issue.expected === 'string') return 'Ожидается текст';
      if (issue.expected === 'boolean') return 'Ожидается да или нет';
      if (issue.expected === 'array') return 'Ожидается список';
      if (issue.expected === 'object') return 'Ожидается объект';
      if (issue.expected === 'date') return 'Некорректная дата';
      return 'Некорректное значение';
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return Messages.maxLength(max);
      if (issue.origin === 'array' || issue.origin === 'set') return `Не больше ${num(max)} ${plural(max, 'значения', 'значений', 'значений')}`;
      if (issue.origin === 'date') return 'Слишком поздняя дата';
      return issue.inclusive ? `Значение не больше ${num(issue.maximum)}` : `Значение меньше ${num(issue.maximum)}`;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? Messages.fieldRequired : `Минимальная длина: ${min} ${plural(min, 'символ', 'символа', 'символов')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return min <= 1 ? 'Выберите хотя бы одно значение' : `Не меньше ${num(min)} значений`;
      if (issue.origin === 'date') return 'Слишком ранняя дата';
      return issue.inclusive ? `Значение не меньше ${num(issue.minimum)}` : `Значение больше ${num(issue.minimum)}`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return Messages.invalidEmail;
      if (issue.format === 'url') return 'Некорректный адрес';
      if (issue.format === 'uuid') return 'Некорректный идентификатор';
      if (issue.format === 'regex') return 'Некорректный формат';
      return 'Некорректный формат';
    case 'invalid_value':
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
      return 'Недопустимое значение';
    case 'unrecognized_keys':
      return 'Лишние поля: ' + issue.keys.join(', ');
    case 'not_multiple_of':
      return `Значение должно быть кратно ${num(issue.divisor)}`;
    case 'custom':
      return 'Некорректное значение';
    default: {
      const fallback = ruLocale(issue);
      return typeof fallback === 'string' ? fallback : (fallback?.message ?? 'Некорректное значение');
    }
  }
}

let installed = false;

/** Makes zod answer in Russian everywhere (idempotent). */
export function installRussianErrors(): void {
  if (installed) return;
  installed = true;
  z.config({ localeError: russianError });
}
