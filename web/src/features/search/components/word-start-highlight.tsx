import { Fragment } from 'react';
import { Mark, Text, type TextProps } from '@mantine/core';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Splits a title into plain and matched parts: a search word matches where a word of the title
 * starts ('курс' marks 'Курсы', not the inside of 'конкурс'), case-insensitively.
 */
export function wordStartParts(text: string, words: string[]): Array<{ text: string; match: boolean }> {
  const wanted = words
    .map((w) => w.trim())
    .filter(Boolean)
    .sort((a, b) => b.length - a.length);
  if (wanted.length === 0) return [{ text, match: false }];
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${wanted.map(escape).join('|')})`, 'giu');
  const parts: Array<{ text: string; match: boolean }> = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index), match: false });
    parts.push({ text: m[0], match: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), match: false });
  return parts;
}

export function WordStartHighlight({ text, words, ...props }: { text: string; words: string[] } & TextProps) {
  return <Text {...props}>{wordStartParts(text, words).map((p, i) => (p.match ? <Mark key={i}>{p.text}</Mark> : <Fragment key={i}>{p.text}</Fragment>))}</Text>;
}
