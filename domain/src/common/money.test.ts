import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kopecksOf, moneyField, MoneyMessages, parseMoney, rublesText } from './money.ts';
import { publicPayBody, refundBody } from '../payments/payment.ts';

const field = moneyField({ min: { kopecks: 1, message: 'больше 0' }, max: { kopecks: 1_000_000_00, message: 'слишком много' } });

/** Kopecks written as a person would: "19.99", "19,9", "1 500", "2 499,99", "7". */
function written(k: number, style: { comma: boolean; groups: boolean; trailingZero: boolean }): string {
  const whole = String(Math.trunc(k / 100));
  const grouped = style.groups ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ') : whole;
  const cents = k % 100;
  if (cents === 0 && !style.trailingZero) return grouped;
  let frac = String(cents).padStart(2, '0');
  if (!style.trailingZero && frac.endsWith('0')) frac = frac.slice(0, 1);
  return `${grouped}${style.comma ? ',' : '.'}${frac}`;
}

describe('money from its decimal text', () => {
  it('takes every amount with at most two decimals from 0.01 to 1 000 000 exactly, as text and as a JSON number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000_00 }), fc.boolean(), fc.boolean(), fc.boolean(), (k, comma, groups, trailingZero) => {
        const text = written(k, { comma, groups, trailingZero });
        expect(field.parse(text)).toBe(k);
        // A client sending JSON numbers: 19.99 arrives as the double nearest 19.99, read through its shortest text.
        expect(field.parse(Number(rublesText(k)))).toBe(k);
        expect(rublesText(k)).toBe(`${Math.trunc(k / 100)}.${String(k % 100).padStart(2, '0')}`);
        expect(kopecksOf(rublesText(k))).toBe(k);
      }),
      { numRuns: 2000 },
    );
  });

  it('the amounts a float check refused are kopecks, exactly', () => {
    expect(field.parse('19.99')).toBe(1999);
    expect(field.parse('2499.99')).toBe(249999);
    expect(field.parse('1.1')).toBe(110);
    expect(field.parse(1.1)).toBe(110);
    expect(field.parse('2 499,99')).toBe(249999);
    expect(field.parse('1\u00a0500 ₽')).toBe(150000);
  });

  it('refuses hex, exponents, signs, three decimals and words with a Russian message', () => {
    for (const bad of ['0x10', '1e3', '1E2', '-5', '-0.01', '+5', '1.005', '12,345', 'Infinity', 'NaN', '1,2,3', '1 50', 'сто', '.5', Infinity, 1e21, 1e-7]) {
      const r = field.safeParse(bad);
      expect(r.success, String(bad)).toBe(false);
      expect(r.error?.issues[0]?.message, String(bad)).toMatch(/[А-Яа-яё]/);
    }
    expect(field.safeParse('1.005').error?.issues[0]?.message).toBe(MoneyMessages.twoDecimals);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999 }), fc.integer({ min: 0, max: 999 }), (whole, thousandths) => {
        const text = `${whole}.${String(thousandths).padStart(3, '0')}`;
        expect(parseMoney(text)).toEqual({ problem: MoneyMessages.twoDecimals });
      }),
    );
  });

  it('the refund and the public pay form read their sums into kopecks', () => {
    expect(refundBody.parse({ sum: '2499.99', reason: 'Отказ' }).sum).toBe(249999);
    expect(publicPayBody.parse({ fio: 'Иванов Иван', phone: '+7 (999) 123-45-67', sum: '19,99' }).sum).toBe(1999);
    expect(publicPayBody.safeParse({ fio: 'Иванов Иван', phone: '+7 (999) 123-45-67', sum: '0x10' }).success).toBe(false);
    expect(publicPayBody.safeParse({ fio: 'Иванов Иван', phone: '+7 (999) 123-45-67', sum: '0.99' }).error?.issues[0]?.message).toBe('Сумма от 1 ₽');
  });
});
