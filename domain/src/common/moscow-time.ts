// The centre works in Moscow time (UTC+3, no daylight saving since 2014): the one home of that
// fact. Service dates travel as 'YYYY-MM-DD HH:mm:ss' in that zone (spec 01 §3).

/** Moscow's offset from UTC. */
export const MOSCOW_OFFSET_MS = 3 * 3600 * 1000;
const OFFSET_MS = MOSCOW_OFFSET_MS;
const pad = (n: number) => String(n).padStart(2, '0');

/** A Date whose UTC fields (getUTCFullYear, getUTCHours, ...) read as Moscow time at `value`. */
export function moscowClock(value: Date | string | number): Date {
  return new Date(new Date(value).getTime() + OFFSET_MS);
}

/** The calendar year in Moscow at `now`. */
export function moscowYear(now: Date | number = Date.now()): number {
  return moscowClock(now).getUTCFullYear();
}

/** 'YYMM' of `now` in Moscow (entry numbers begin with it). */
export function moscowYymm(now: Date | number = Date.now()): string {
  const d = moscowClock(now);
  return `${String(d.getUTCFullYear()).slice(2)}${pad(d.getUTCMonth() + 1)}`;
}

/** The next `hour`:00 in Moscow after `now` (nightly jobs). */
export function nextMoscowHour(hour: number, now: Date = new Date()): Date {
  const at = new Date(now);
  at.setUTCHours((hour - 3 + 24) % 24, 0, 0, 0);
  if (at.getTime() <= now.getTime()) at.setUTCDate(at.getUTCDate() + 1);
  return at;
}

/** A date column ('1990-05-01') as noon of that day in Moscow, never shifted to a neighbouring day. */
export function moscowNoonOf(day: string | Date): Date {
  const text = typeof day === 'string' ? day.slice(0, 10) : day.toISOString().slice(0, 10);
  return new Date(`${text}T12:00:00+03:00`);
}

function parts(value: Date) {
  const d = moscowClock(value);
  return {
    y: d.getUTCFullYear(),
    m: pad(d.getUTCMonth() + 1),
    d: pad(d.getUTCDate()),
    hh: pad(d.getUTCHours()),
    mm: pad(d.getUTCMinutes()),
    ss: pad(d.getUTCSeconds()),
  };
}

export function toMoscowString(value: Date | string | null): string | null {
  if (!value) return null;
  const p = parts(new Date(value));
  return `${p.y}-${p.m}-${p.d} ${p.hh}:${p.mm}:${p.ss}`;
}

export function fromMoscowString(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m) return null;
  const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)) - OFFSET_MS;
  return new Date(utc);
}

/** '22.11.2026 10:00–12:00' on one day, '22.11.2026 – 25.11.2026' otherwise. */
export function formatInterval(begda: Date | string | null, endda: Date | string | null): string | null {
  if (!begda) return null;
  const b = parts(new Date(begda));
  const day = `${b.d}.${b.m}.${b.y}`;
  if (!endda) return `${day} ${b.hh}:${b.mm}`;
  const e = parts(new Date(endda));
  if (b.y === e.y && b.m === e.m && b.d === e.d) return `${day} ${b.hh}:${b.mm}–${e.hh}:${e.mm}`;
  return `${day} – ${e.d}.${e.m}.${e.y}`;
}

/** The start of a Moscow day given as dd.mm.yyyy, as a timestamptz literal for SQL ('2026-11-23 00:00:00+03'). */
export function moscowDayStart(ruDate: string): string {
  const [d, m, y] = ruDate.split('.');
  return `${y}-${m}-${d} 00:00:00+03`;
}
