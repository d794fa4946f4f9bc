import { siteLinksAnswer, siteLinksBody, siteLinksSavedAnswer, SiteLinkMessages, type SiteLinks } from '@edu/domain/settings/site-links';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { currentUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import { lockSetting, readSiteLinks, saveSiteLinks, SettingsLogId } from './site-links-repository.ts';

/** GET /api/site-links: the top bar's shortcuts and the footer's requisites page, read by every page. Public. */
export const siteLinkRoutes: RoutesPlugin = async (app) => {
  app.get(
    '/site-links',
    {
      config: { access: 'public' },
      schema: { tags: ['settings'], summary: 'Ссылки верхней панели и страница реквизитов', response: { 200: siteLinksAnswer } },
    },
    async () => ({
      data: await readSiteLinks(app.db),
    }),
  );
};

/** PUT /api/settings/site-links: operators set the links (registered in the operator scope, app.ts); each change is logged. */
export const siteLinkManagerRoutes: RoutesPlugin = async (app) => {
  app.put(
    '/settings/site-links',
    {
      schema: {
        tags: ['settings'],
        summary: 'Сохранить ссылки верхней панели и страницу реквизитов',
        body: siteLinksBody,
        response: { 200: siteLinksSavedAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const next: SiteLinks = { requisites_url: request.body.requisites_url || null, shortcuts: request.body.shortcuts };
      await app.db.transaction(async (tx) => {
        await lockSetting(tx, 'site_links');
        const before = await readSiteLinks(tx);
        await saveSiteLinks(tx, next);
        await logChange(tx, {
          type: 'settings',
          entityId: SettingsLogId.siteLinks,
          userId: me.id,
          before: { requisites_url: before.requisites_url, shortcuts: before.shortcuts },
          after: { requisites_url: next.requisites_url, shortcuts: next.shortcuts },
        });
      });
      return { data: await readSiteLinks(app.db), message: SiteLinkMessages.saved };
    },
  );
};
