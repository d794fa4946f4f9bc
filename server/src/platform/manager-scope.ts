import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';

// The operator area's access rule (spec 02 §2, §6): every manager endpoint answers 401 without a
// session and 403 to users and guests. The guard is declared once, on the scope the manager routes
// are registered in (app.ts), never per handler. Which URLs belong to the manager area is said here;
// a route matching these patterns but registered outside the scope stops the app from starting, and
// server/test/manager-access.test.ts calls every route of the scope without a session and as a user.

export interface ManagerRoutePattern {
  /** Methods the pattern covers; all when absent. */
  methods?: string[];
  path: RegExp;
}

/** The manager area's endpoints, by URL (as registered, with :params). Add the paths of new operator calls here. */
export const MANAGER_ROUTES: ManagerRoutePattern[] = [
  // Operator-only resources without a path in the spec.
  { path: /^\/api\/manager(\/|$)/ },
  // Dashboard statistics (spec 02 §7).
  { methods: ['GET'], path: /^\/api\/[a-z-]+\/statistics$/ },
  { methods: ['GET'], path: /^\/api\/publication\/count-pending$/ },
  // Users: the lookup by full name (guests) and the statistics.
  { methods: ['POST'], path: /^\/api\/user\/get-by-fio$/ },
  // Dictionaries: everyone reads, operators save (spec 02 §7).
  { methods: ['POST', 'PUT', 'DELETE'], path: /^\/api\/dictionaries(\/|$)/ },
  // Leading persons: everyone reads (catalogue filter), operators save.
  { methods: ['POST', 'PUT', 'DELETE'], path: /^\/api\/leading(\/|$)/ },
  // Change log and request log.
  { path: /^\/api\/log(\/|$)/ },
  { path: /^\/api\/telescope(\/|$)/ },
  // Card-provider transactions (spec 03 §2, /manager/yookassa).
  { methods: ['GET'], path: /^\/api\/yookassa$/ },
  // The payments and entries lists' exports (issue 22).
  { methods: ['GET'], path: /^\/api\/payment\/excel$/ },
  { methods: ['GET'], path: /^\/api\/entry\/excel$/ },
  // Contract review: accept, reject, registration numbers, the board's Excel (spec 02 §4, §7).
  { methods: ['POST'], path: /^\/api\/contract\/:id\/(accept|reject)$/ },
  { methods: ['GET'], path: /^\/api\/contract\/(print-excel|excel)$/ },
  { methods: ['POST'], path: /^\/api\/entry\/:id\/set-registration-number$/ },
  // Site CMS lookups (spec 02 §7).
  { path: /^\/api\/joomla(\/|$)/ },
  // Services: create, update, delete, image, publishing to the site (the list and search are everyone's).
  { methods: ['POST'], path: /^\/api\/service$/ },
  { methods: ['GET'], path: /^\/api\/service\/(form-options|overview)$/ },
  { methods: ['PUT', 'DELETE'], path: /^\/api\/service\/:id$/ },
  { methods: ['POST'], path: /^\/api\/service\/(:id\/upload-image|save-to-joomla\/:id)$/ },
  // Entries: complete, restore, history, competition member; guests and guest entries.
  { methods: ['POST'], path: /^\/api\/entry\/:id\/(complete|restore)$/ },
  { methods: ['GET'], path: /^\/api\/entry\/:id\/history$/ },
  { path: /^\/api\/competition-member$/ },
  { path: /^\/api\/guest$/ },
  { methods: ['POST'], path: /^\/api\/entry\/guest$/ },
  // Service packages: create, update, delete (users read and enrol).
  { methods: ['POST'], path: /^\/api\/service-package$/ },
  { methods: ['PUT', 'DELETE'], path: /^\/api\/service-package\/:id$/ },
  // Templates, the macro catalogue, the centre's requisites and the stored name forms (spec 02 §2, §7).
  { path: /^\/api\/template(\/|$)/ },
  { path: /^\/api\/macros(\/|$)/ },
  { path: /^\/api\/settings\/requisites$/ },
  { path: /^\/api\/user\/:id\/name-forms$/ },
  // Events (their notification templates) and the mass mailing (spec 03 §2, §7).
  { path: /^\/api\/dictionaries\/dict_events\/notification-templates$/ },
  { path: /^\/api\/mail\/(send-all|mailings|audience-count|preview|send-test)(\/|$)/ },
  // Printing: certificate numbers, all certificates of a service as one zip.
  { methods: ['PUT'], path: /^\/api\/entry\/:id\/certificate-number$/ },
  { methods: ['POST'], path: /^\/api\/service\/:id\/print-certificates$/ },
  { methods: ['GET'], path: /^\/api\/service\/:id\/print-batches$/ },
  // The journal of a service as Excel (spec 01 §6, 02 §6).
  { methods: ['GET'], path: /^\/api\/service\/:id\/journal\/(print-excel|excel)$/ },
  { path: /^\/api\/print-batch(\/|$)/ },
  // Releases, publication prices, reviews (spec 03 §2, §7): signed-in users read the release and price lists.
  { methods: ['POST'], path: /^\/api\/publication-release$/ },
  { path: /^\/api\/publication-release\/:id(\/(hide|publish|unpublish))?$/ },
  { methods: ['POST'], path: /^\/api\/publication-price$/ },
  { path: /^\/api\/publication-price\/:id$/ },
  { methods: ['GET'], path: /^\/api\/review$/ },
  { path: /^\/api\/review\/:id(\/accept)?$/ },
  // Publication moderation (spec 03 §4, §7).
  { methods: ['POST'], path: /^\/api\/publication\/:id\/(accept|decline|reject|send-to-journal|check-uniqueness|add-author\/:authorId)$/ },
  { methods: ['POST'], path: /^\/api\/publication\/(publish-accepted|add-to-release)$/ },
];

export function isManagerRoute(method: string, url: string): boolean {
  return MANAGER_ROUTES.some((p) => (!p.methods || p.methods.includes(method)) && p.path.test(url));
}

export interface RouteTableRow {
  method: string;
  url: string;
  /** Registered inside the operator scope (so the operator guard runs first). */
  operatorScope: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    operatorScope?: boolean;
  }
  interface FastifyInstance {
    /** Every route of the app, as registered (the access test walks it). */
    routeTable: () => RouteTableRow[];
  }
}

/** Records every route; on ready, a manager-area route outside the operator scope is an error. */
export const routeTablePlugin = fp(async (app) => {
  const recorded: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    recorded.push(route);
  });
  const table = (): RouteTableRow[] =>
    recorded.flatMap((r) =>
      (Array.isArray(r.method) ? r.method : [r.method])
        .filter((m) => m !== 'HEAD')
        .map((method) => ({ method, url: r.url, operatorScope: r.config?.operatorScope === true })),
    );
  app.decorate('routeTable', table);
  app.addHook('onReady', async () => {
    const outside = table().filter((r) => isManagerRoute(r.method, r.url) && !r.operatorScope);
    if (outside.length) {
      throw new Error(`Manager routes registered outside the operator scope: ${outside.map((r) => `${r.method} ${r.url}`).join(', ')}`);
    }
  });
});

/**
 * The operator scope: every route registered through `register` (at any depth) gets the
 * operator guard before anything else of it runs.
 */
export function operatorScope(register: (scope: FastifyInstance) => Promise<void>): FastifyPluginAsync {
  return async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), operatorScope: true } as typeof route.config;
    });
    scope.addHook('onRequest', scope.requireOperator);
    await register(scope);
  };
}
