import { Fragment, useMemo } from 'react';
import { Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { UNIQUENESS_THRESHOLD, uniquenessStateLabels, type Publication, type UniquenessState } from '../api/types';
import type { PublicationMatchSource } from '@edu/domain/publications/publication';
import { plainText } from './text-stats';

/** Pieces of a text with the borrowed character spans marked. */
function pieces(text: string, spans: Array<[number, number]>): Array<{ text: string; marked: boolean }> {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const out: Array<{ text: string; marked: boolean }> = [];
  let at = 0;
  for (const [from, to] of sorted) {
    const start = Math.max(from, at);
    if (to <= start) continue;
    if (start > at) out.push({ text: text.slice(at, start), marked: false });
    out.push({ text: text.slice(start, to), marked: true });
    at = to;
  }
  if (at < text.length) out.push({ text: text.slice(at), marked: false });
  return out;
}

/** Spans of the highlighted words (word indexes of the plain text) when no character spans came. */
function wordSpans(text: string, indexes: number[]): Array<[number, number]> {
  const wanted = new Set(indexes);
  const spans: Array<[number, number]> = [];
  let i = 0;
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (wanted.has(i)) spans.push([m.index, m.index + m[0].length]);
    i++;
  }
  return spans;
}

/** The source url shown from character 8 for 20 characters (spec 03 §9: after 'https://'). */
export const shortSourceUrl = (url: string) => (/^https:\/\//.test(url) ? url.slice(8, 28) : url.replace(/^[a-z]+:\/\//i, '').slice(0, 20));

/** 'Публикация № 2611-0004 «Название», Иванова Анна Петровна' (the entry number when it has one). */
export function sourceLabel(s: PublicationMatchSource): string {
  return `Публикация ${s.number ? `№ ${s.number} ` : ''}«${s.title}»${s.author ? `, ${s.author}` : ''}`;
}

/** A check not finished yet: «в очереди» or «проверяется» instead of an empty or stale percent. */
export function UniquenessStateBadge({ state }: { state: UniquenessState }) {
  return (
    <Badge color={state === 'running' ? 'blue' : 'gray'} variant="light" data-testid="uniqueness-state">
      {uniquenessStateLabels[state]}
    </Badge>
  );
}

/**
 * The uniqueness check result (spec 03 §4): the percent (green above 70, red otherwise), the
 * matching sources with their percents, and the checked text with the borrowed parts highlighted.
 */
export function UniquenessBlock({ publication, onOpenSource }: { publication: Publication; onOpenSource?: (publicationId: number) => void }) {
  const text = useMemo(() => plainText(publication.text), [publication.text]);
  const spans = useMemo(
    () => (publication.spans?.length ? publication.spans : wordSpans(text, publication.highlight ?? [])),
    [publication.spans, publication.highlight, text],
  );
  if (publication.uniqueness_state) {
    return (
      <Paper withBorder p="sm" radius="md" data-testid="publication-uniqueness">
        <Group gap="xs">
          <Text size="sm" fw={600}>
            Уникальность:
          </Text>
          <UniquenessStateBadge state={publication.uniqueness_state} />
        </Group>
      </Paper>
    );
  }
  if (publication.uniqueness === null || publication.uniqueness === undefined) return null;
  const ok = publication.uniqueness > UNIQUENESS_THRESHOLD;
  return (
    <Paper withBorder p="sm" radius="md" data-testid="publication-uniqueness">
      <Stack gap="xs">
        <Group gap="xs">
          <Text size="sm" fw={600}>
            Уникальность:
          </Text>
          <Badge color={ok ? 'teal' : 'red'} variant="filled" data-testid="uniqueness-percent">
            {publication.uniqueness}%
          </Badge>
        </Group>
        {publication.matches.length > 0 && (
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              Совпадения:
            </Text>
            {publication.matches.map((m, i) => (
              <Group key={`${m.url}-${i}`} gap="xs" wrap="nowrap" data-testid="uniqueness-match">
                {m.source && onOpenSource ? (
                  // The publication in the cabinet the text was copied from: number, title, author; opens it.
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    ta="left"
                    onClick={() => onOpenSource(m.source!.id)}
                    data-testid="uniqueness-source"
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    {sourceLabel(m.source)}
                  </Anchor>
                ) : m.source ? (
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {sourceLabel(m.source)}
                  </Text>
                ) : m.url ? (
                  <Anchor href={m.url} target="_blank" rel="noreferrer" size="sm" title={m.url}>
                    {shortSourceUrl(m.url)}
                  </Anchor>
                ) : (
                  // Another client's text stored in the cabinet: whose it is stays with the operators.
                  <Text size="sm">Другая публикация в кабинете</Text>
                )}
                {m.source && m.url && (
                  <Anchor href={m.url} target="_blank" rel="noreferrer" size="xs" title={m.url}>
                    {shortSourceUrl(m.url)}
                  </Anchor>
                )}
                <Text size="sm" c="dimmed">
                  {m.percent}%
                </Text>
              </Group>
            ))}
          </Stack>
        )}
        {spans.length > 0 && text && (
          <Paper bg="gray.0" p="sm" radius="sm" mah={320} style={{ overflowY: 'auto' }}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="uniqueness-text">
              {pieces(text, spans).map((p, i) =>
                p.marked ? (
                  <mark key={i} style={{ background: 'var(--mantine-color-red-2)' }}>
                    {p.text}
                  </mark>
                ) : (
                  <Fragment key={i}>{p.text}</Fragment>
                ),
              )}
            </Text>
          </Paper>
        )}
      </Stack>
    </Paper>
  );
}
