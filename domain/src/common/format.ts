import { moscowClock } from './moscow-time.ts';

// One formatter for the process: making an Intl.NumberFormat costs far more than formatting with one.
const RUBLES = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 });

/**
 * Prices as `1 500 ₽` (ru-RU), kopecks when there are any (`2 499,99 ₽`). The digit groups and the
 * sign are joined by no-break spaces, so a price never wraps inside («4 500 / ₽»).
 */
export function formatRub(amount: number): string {
  return `${RUBLES.format(amount)}\u00a0₽`;
}

/** A service's or an entry's price as clients read it: 'Бесплатно' for a free one. */
export function formatPrice(amount: number): string {
  return Number(amount) === 0 ? 'Бесплатно' : formatRub(amount);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** dd.mm.yyyy in Moscow time. */
export function formatDate(value: Date | string): string {
  const d = moscowClock(value);
  return `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}`;
}

/** dd.mm.yyyy HH:MM in Moscow time. */
export function formatDateTime(value: Date | string): string {
  const d = moscowClock(value);
  return `${formatDate(value)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}
