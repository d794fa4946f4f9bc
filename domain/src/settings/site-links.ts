import { z } from 'zod';
import { hasNul } from '../common/bounds.ts';

/**
 * The links of the top bar ('Полезные ссылки') and the footer ('Реквизиты'): set by operators in
 * the settings, read by every page at run time. A fresh install has none until they are set.
 */
export const SiteLinkMessages = {
  urlFormat: 'Ссылка должна начинаться с http:// или https://',
  urlTooLong: 'Ссылка не длиннее 500 символов',
  labelRequired: 'Укажите название ссылки',
  labelTooLong: 'Название не длиннее 60 символов',
  tooMany: 'Не больше 8 ссылок',
  saved: 'Ссылки сохранены',
  emptyShortcuts: 'Ссылки ещё не заданы. Оператор задаёт их в разделе «Макросы → Реквизиты центра».',
} as const;

export const MAX_SHORTCUTS = 8;

const url = z
  .string({ error: SiteLinkMessages.urlFormat })
  .trim()
  .max(500, { error: SiteLinkMessages.urlTooLong })
  .refine((v) => !hasNul(v) && /^https?:\/\/[^\s/]+[^\s]*$/i.test(v), { error: SiteLinkMessages.urlFormat });

export const shortcutSchema = z.object({
  label: z
    .string({ error: SiteLinkMessages.labelRequired })
    .trim()
    .min(1, { error: SiteLinkMessages.labelRequired })
    .max(60, { error: SiteLinkMessages.labelTooLong })
    .refine((v) => !hasNul(v), { error: SiteLinkMessages.labelRequired }),
  href: url,
});
export type Shortcut = z.output<typeof shortcutSchema>;

/** PUT /api/settings/site-links: the requisites page (empty = no link) and up to 8 shortcuts. */
export const siteLinksBody = z.object({
  requisites_url: z.union([z.literal(''), url]).nullish(),
  shortcuts: z.array(shortcutSchema).max(MAX_SHORTCUTS, { error: SiteLinkMessages.tooMany }),
});

export const siteLinksSchema = z.object({
  requisites_url: z.string().nullable(),
  shortcuts: z.array(z.object({ label: z.string(), href: z.string() })),
});
export type SiteLinks = z.output<typeof siteLinksSchema>;

/** GET /api/site-links (public). */
export const siteLinksAnswer = z.object({ data: siteLinksSchema });
/** PUT /api/settings/site-links. */
export const siteLinksSavedAnswer = z.object({ data: siteLinksSchema, message: z.string() });
