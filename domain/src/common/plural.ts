const RUSSIAN = new Intl.PluralRules('ru');

/** The Russian plural form for a count: 1 публикация, 2 публикации, 5 публикаций, 11 публикаций (CLDR's rules for ru). */
export function plural(n: number, one: string, few: string, many: string): string {
  const form = RUSSIAN.select(n);
  return form === 'one' ? one : form === 'few' ? few : many;
}
