/** A day ahead of today (UTC) as YYYY-MM-DD and as dd.mm.yyyy. */
export function dayAhead(days: number): { iso: string; ru: string } {
  const iso = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  return { iso, ru: `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}` };
}
