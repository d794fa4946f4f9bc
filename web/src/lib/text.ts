import { plural } from '@edu/domain/common/plural';

/** Cuts a card title to `max` characters, adding an ellipsis when it was longer (spec 01 §9). */
export function cutText(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
}

/** '10 баллов', '1 балл'. */
export function pointsText(n: number): string {
  return `${n} ${plural(n, 'балл', 'балла', 'баллов')}`;
}
