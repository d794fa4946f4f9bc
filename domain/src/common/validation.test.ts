import { describe, expect, it } from 'vitest';
import { Messages } from './messages.ts';
import { headlineOf, isEmptyFieldMessage } from './validation.ts';

describe('the headline of a failed form', () => {
  it('asks to fill the required fields only when one is empty', () => {
    expect(headlineOf({ title: [Messages.fieldRequired], email: ['Введите корректный email'] })).toBe(Messages.required);
    expect(headlineOf({ password: ['Введите пароль'] })).toBe(Messages.required);
    expect(headlineOf({ section_id: ['Выберите секцию!'] })).toBe(Messages.required);
    expect(headlineOf({})).toBe(Messages.required);
  });

  it('otherwise says what is wrong with the first field', () => {
    expect(headlineOf({ email: ['Введите корректный email'] })).toBe('Введите корректный email');
    expect(headlineOf({ title: ['Не больше 255 символов'], price: ['Введите число'] })).toBe('Не больше 255 символов');
    expect(headlineOf({ color: 'Выберите цвет из палитры' })).toBe('Выберите цвет из палитры');
  });

  it('tells an empty field from a format or range complaint', () => {
    for (const m of ['Обязательное поле', 'Введите ФИО', 'Укажите причину отклонения!', 'Заполните профили!', 'Выберите услугу'])
      expect(isEmptyFieldMessage(m), m).toBe(true);
    for (const m of [
      'Введите число',
      'Введите целое число',
      'Введите число больше 0',
      'Введите корректную дату',
      'Выберите автора из выпадающего списка!',
      'Минимальная длина: 3 символа',
    ]) {
      expect(isEmptyFieldMessage(m), m).toBe(false);
    }
  });
});
