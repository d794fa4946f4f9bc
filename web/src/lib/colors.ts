import { DEFAULT_THEME } from '@mantine/core';

const ALIASES: Record<string, string> = { purple: 'grape' };

/**
 * A colour name from the server (packages, types, profiles) as a Mantine palette key; names that are
 * not in the theme (e.g. the spec's default 'purple') map to the nearest one.
 */
export function paletteColor(name: string | null | undefined, fallback = 'indigo'): string {
  if (!name) return fallback;
  const key = ALIASES[name] ?? name;
  return key in DEFAULT_THEME.colors ? key : fallback;
}
