import { sql } from 'drizzle-orm';
import type { SiteLinks } from '@edu/domain/settings/site-links';
import { rows, type Queryable } from '../../platform/db.ts';

const KEY = 'site_links';

/** The change-log ids of the settings (type 'settings'): one row kind per setting. */
export const SettingsLogId = { requisites: 1, siteLinks: 2 } as const;

/** The top bar's shortcuts and the footer's requisites page; none until an operator sets them. */
export async function readSiteLinks(db: Queryable): Promise<SiteLinks> {
  const [row] = await rows<{ value: string }>(db, sql`select value from app_settings where key = ${KEY}`);
  const empty: SiteLinks = { requisites_url: null, shortcuts: [] };
  if (!row) return empty;
  try {
    const parsed = JSON.parse(row.value) as Partial<SiteLinks>;
    return {
      requisites_url: typeof parsed.requisites_url === 'string' && parsed.requisites_url ? parsed.requisites_url : null,
      shortcuts: Array.isArray(parsed.shortcuts)
        ? parsed.shortcuts.filter((s): s is SiteLinks['shortcuts'][number] => typeof s?.label === 'string' && typeof s?.href === 'string')
        : [],
    };
  } catch {
    return empty;
  }
}

/** Stores the links (already validated); the row is locked so two saves log their diffs in order. */
export async function saveSiteLinks(db: Queryable, links: SiteLinks): Promise<void> {
  await db.execute(
    sql`insert into app_settings (key, value, updated_at) values (${KEY}, ${JSON.stringify(links)}, now())
        on conflict (key) do update set value = excluded.value, updated_at = now()`,
  );
}

/** Takes the row lock of a setting for the rest of the transaction (read, change and log in order). */
export async function lockSetting(db: Queryable, key: string): Promise<void> {
  await db.execute(sql`insert into app_settings (key, value) values (${key}, '{}') on conflict (key) do nothing`);
  await db.execute(sql`select 1 from app_settings where key = ${key} for update`);
}
