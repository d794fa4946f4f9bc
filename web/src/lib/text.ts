/** Cuts a card title to `max` characters, adding an ellipsis when it was longer (spec 01 §9). */
export function cutText(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
}

/** Russian plural: plural(5, ['балл', 'балла', 'баллов']) is 'баллов'. */
export function plural(n: number, forms: readonly [string, string, string]): string {
  const abs = Math.abs(n) % 100;
  const last = abs % 10;
  if (abs > 10 && abs < 20) return forms[2];
  if (last > 1 && last < 5) return forms[1];
  if (last === 1) return forms[0];
  return forms[2];
}

/** '10 баллов', '1 балл'. */
export function pointsText(n: number): string {
  return `${n} ${plural(n, ['балл', 'балла', 'баллов'])}`;
}
