import { z } from 'zod';

const count = z.number().int().min(0);

/**
 * GET /api/manager/todo: what needs a person today, one count per kind of work (issue 30). Each
 * count matches the filtered list the dashboard links to (todoLinks), so the number and the list agree.
 */
export const todoAnswer = z.object({
  /** Publications waiting for moderation (status 1), and how many of them are not paid yet. */
  publications_pending: count,
  publications_pending_unpaid: count,
  /** Pending contracts with a signed scan uploaded: an operator should check them. */
  contracts_to_review: count,
  /** Pending contracts still without a scan: the client's move, shown apart. */
  contracts_waiting_scan: count,
  /** Live unpaid entries of services with dates whose start has passed. */
  entries_overdue: count,
  /** Double payments not yet refunded, and payments whose refund is pending or was refused. */
  payments_attention: count,
  /** Mass-mailing letters that failed for good. */
  mailing_failed: count,
  /** Services whose last publishing to the site failed. */
  services_publish_failed: count,
  /** Service types without a default certificate template. */
  templates_missing: count,
  /** Requisites needed for documents and invoices that are not filled in. */
  requisites_missing: count,
});
export type Todo = z.output<typeof todoAnswer>;

/** The requisites every invoice and contract needs (the others print as blanks to fill by hand). */
export const REQUIRED_REQUISITES = ['full_name', 'inn', 'bank', 'bik', 'account'] as const;

/** Where each to-do count leads: the list with the same filter applied. */
export const todoLinks = {
  publications_pending: '/manager/publication?status=1',
  publications_pending_unpaid: '/manager/publication?status=1&isPaid=0',
  contracts_to_review: '/manager/contract?column=review',
  contracts_waiting_scan: '/manager/contract?column=waiting',
  entries_overdue: '/manager/entry?overdue=1',
  payments_attention: '/manager/payments?state=attention',
  mailing_failed: '/manager/mailing',
  services_publish_failed: '/manager/all-services?site=error',
  templates_missing: '/manager/templates',
  requisites_missing: '/manager/macroses?tab=requisites',
} as const satisfies Record<keyof Todo, string>;
