import { z } from 'zod';

/** A statistic of the dashboard (spec 02 §3 Statistics): month label 'MM.YYYY' to a number, oldest first, 12 months. */
export const monthlyFiguresSchema = z.record(z.string(), z.number());
export type MonthlyFigures = z.output<typeof monthlyFiguresSchema>;

/** GET /api/publication/count-pending: publications awaiting a check (the sidebar badge). */
export const pendingCountAnswer = z.object({ count: z.number().int() });

/** The last month's figure and its growth against the month before, in percent (null when that was 0). */
export function lastMonthGrowth(figures: MonthlyFigures): { value: number; previous: number; growth: number | null } {
  const values = Object.values(figures);
  const value = values.at(-1) ?? 0;
  const previous = values.at(-2) ?? 0;
  const growth = previous === 0 ? null : Math.round(((value - previous) / previous) * 1000) / 10;
  return { value, previous, growth };
}

/** Income is shown in thousands with the unit 'тыс.' (spec 02 §2). */
export function thousands(rubles: number): string {
  return `${new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 1 }).format(rubles / 1000)} тыс.`;
}

const MONTHS = ['Янв', 'Фев', 'Мар', 'Апр', 'Май', 'Июн', 'Июл', 'Авг', 'Сен', 'Окт', 'Ноя', 'Дек'];

/** 'MM.YYYY' as 'Ноя 2026' for chart axes. */
export function monthLabel(key: string): string {
  const [m, y] = key.split('.');
  const i = Number(m) - 1;
  return MONTHS[i] ? `${MONTHS[i]} ${y}` : key;
}
