import { useMediaQuery } from '@mantine/hooks';

/** Lists are tables above 1199 px and cards at 1199 px or less (spec 01 §9). */
export const NARROW_QUERY = '(max-width: 1199px)';

export function useNarrow(): boolean {
  return useMediaQuery(NARROW_QUERY, false, { getInitialValueInEffect: false }) ?? false;
}
