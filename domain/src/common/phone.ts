// Russian phone numbers, stored and shown as +7 (999) 999-99-99 (spec 01 §5).

export const PHONE_MASK = '+7 (000) 000-00-00';
const PHONE_RE = /^\+7 \(\d{3}\) \d{3}-\d{2}-\d{2}$/;

export function isPhone(value: string): boolean {
  return PHONE_RE.test(value);
}

/**
 * Brings a typed phone to the stored form. Accepts the masked form, 11 digits starting with 7 or 8,
 * or 10 digits; returns null when it is not a Russian phone number.
 */
export function normalizePhone(value: string): string | null {
  const digits = value.replace(/\D/g, '');
  let ten: string;
  if (digits.length === 11 && (digits[0] === '7' || digits[0] === '8')) ten = digits.slice(1);
  else if (digits.length === 10) ten = digits;
  else return null;
  return `+7 (${ten.slice(0, 3)}) ${ten.slice(3, 6)}-${ten.slice(6, 8)}-${ten.slice(8, 10)}`;
}

export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}
