import { describe, expect, it } from 'vitest';
import { isPhone, normalizePhone } from './phone.ts';
import { parseLogin } from '../auth/login.ts';
import { registerAttributes, registrationPasswordReady } from '../auth/register.ts';
import { formatDate, formatRub } from './format.ts';

describe('phones', () => {
  it('brings any Russian spelling to +7 (999) 999-99-99', () => {
    expect(normalizePhone('89123456789')).toBe('+7 (912) 345-67-89');
    expect(normalizePhone('+7 912 345 67 89')).toBe('+7 (912) 345-67-89');
    expect(normalizePhone('9123456789')).toBe('+7 (912) 345-67-89');
    expect(normalizePhone('+7 (912) 345-67-89')).toBe('+7 (912) 345-67-89');
    expect(normalizePhone('12345')).toBeNull();
    expect(normalizePhone('+1 (912) 345-67-89')).toBeNull();
    expect(isPhone('+7 (912) 345-67-89')).toBe(true);
    expect(isPhone('89123456789')).toBe(false);
  });

  it('tells a phone login from an e-mail login', () => {
    expect(parseLogin(' User@Mail.RU ')).toEqual({ email: 'user@mail.ru' });
    expect(parseLogin('8 (912) 345-67-89')).toEqual({ phone: '+7 (912) 345-67-89' });
  });
});

describe('registration rules', () => {
  it('needs a password of 4 and an equal confirmation', () => {
    expect(registrationPasswordReady('abc', 'abc')).toBe(false);
    expect(registrationPasswordReady('abcd', 'abce')).toBe(false);
    expect(registrationPasswordReady('abcd', 'abcd')).toBe(true);
  });

  it('normalises e-mail and phone', () => {
    const r = registerAttributes.parse({
      last_name: ' Иванов ',
      first_name: 'Иван',
      middle_name: 'Иванович',
      phone: '89001234567',
      email: 'IVAN@Example.com',
      organization: 'Школа',
      job_title: 'Учитель',
      password: 'abcd',
      password_confirmation: 'abcd',
    });
    expect(r.phone).toBe('+7 (900) 123-45-67');
    expect(r.email).toBe('ivan@example.com');
    expect(r.last_name).toBe('Иванов');
  });
});

describe('formats', () => {
  it('prints rubles and Moscow dates', () => {
    // No-break spaces inside: a price never wraps («4 500 / ₽»).
    expect(formatRub(1500)).toBe('1\u00a0500\u00a0₽');
    expect(formatRub(0)).toBe('0\u00a0₽');
    expect(formatRub(2499.99)).toBe('2\u00a0499,99\u00a0₽');
    expect(formatDate('2026-11-22T22:30:00Z')).toBe('23.11.2026');
  });
});
