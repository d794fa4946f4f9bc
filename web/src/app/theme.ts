import { createTheme, DEFAULT_THEME, luminance, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

const font = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif';

/** WCAG 2.1 AA for ordinary text. */
const AA = 4.5;

const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

/** A hex colour darkened towards black by the factor (hue kept). */
const scaled = (color: string, k: number) =>
  `#${[1, 3, 5]
    .map((i) =>
      Math.round(parseInt(color.slice(i, i + 2), 16) * k)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** The colour darkened in small steps until it reads on every background given. */
function readableOn(color: string, backgrounds: string[]): string {
  for (let k = 1; k > 0; k -= 0.01) {
    const hex = scaled(color, k);
    if (backgrounds.every((bg) => contrast(hex, bg) >= AA)) return hex;
  }
  return '#000000';
}

/**
 * Mantine's palettes with shades 6–9 darkened just enough for AA contrast (4.5:1): as text on white,
 * light grey and tinted rows (dimmed text, links, `c="red.7"`), as a filled background under white text
 * (buttons, badges), and shade 9 on shade 1 (the light variant of badges and alerts). Shades 0–5
 * (backgrounds, borders) stay as they are.
 */
export function accessibleColors(colors: Record<string, MantineColorsTuple>): Record<string, MantineColorsTuple> {
  // What text sits on: white, grey panels (gray.1) and tinted rows (shade 0 of any colour).
  const surfaces = [
    '#ffffff',
    colors.gray?.[1] ?? '#f1f3f5',
    ...Object.values(colors)
      .map((shades) => shades[0])
      .filter((c) => luminance(c) > 0.8),
  ];
  return Object.fromEntries(
    Object.entries(colors).map(([name, shades]) => {
      const next: string[] = [...shades];
      for (let i = 6; i <= 9; i += 1) {
        const backgrounds = i === 9 ? [...surfaces, shades[1]] : surfaces;
        // Each shade visibly darker than the one before it (hover states stay distinct).
        const own = shades[i] as string;
        const before = next[i - 1] as string;
        const start = i > 6 && luminance(own) > luminance(before) * 0.8 ? scaled(before, 0.9) : own;
        next[i] = readableOn(start, backgrounds);
      }
      return [name, next as unknown as MantineColorsTuple];
    }),
  );
}

/** One calm theme for the whole cabinet. */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 6, dark: 5 },
  colors: accessibleColors(DEFAULT_THEME.colors),
  defaultRadius: 'md',
  fontFamily: font,
  headings: { fontFamily: font, fontWeight: '650' },
  cursorType: 'pointer',
  components: {
    Paper: { defaultProps: { withBorder: true } },
    Card: { defaultProps: { withBorder: true, radius: 'md' } },
    // Windows' crosses have a name.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Закрыть окно' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Закрыть окно' } } },
    // So do the notices' crosses (a popup of a new notification stays a while: axe saw it unnamed).
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Закрыть уведомление' } } },
    // The arrows say where they lead to a screen reader.
    Pagination: {
      defaultProps: {
        getControlProps: (control: 'first' | 'previous' | 'last' | 'next') =>
          ({
            first: { 'aria-label': 'Первая страница' },
            previous: { 'aria-label': 'Предыдущая страница' },
            next: { 'aria-label': 'Следующая страница' },
            last: { 'aria-label': 'Последняя страница' },
          })[control],
      },
    },
  },
});

/** Placeholders read as well as dimmed text (4.5:1), not Mantine's pale gray.5. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-placeholder': 'var(--mantine-color-gray-6)' },
  dark: {},
});
