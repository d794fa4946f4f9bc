import { createTheme } from '@mantine/core';

const font = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif';

/** One calm theme for the whole cabinet. */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 6, dark: 5 },
  defaultRadius: 'md',
  fontFamily: font,
  headings: { fontFamily: font, fontWeight: '650' },
  cursorType: 'pointer',
  components: {
    Paper: { defaultProps: { withBorder: true } },
    Card: { defaultProps: { withBorder: true, radius: 'md' } },
  },
});
