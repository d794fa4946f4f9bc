import { moscowClock } from './moscow-time.ts';

// One formatter for the process: making an Intl.NumberFormat costs far more than formatting with one.
const RUBLES = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 });

/** Prices as `1 500 ₽` (ru-RU). Amounts are whole rubles. */
export function formatRub(amount: number): string {
  return `${RUBLES.format(amount)} ₽`;
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
