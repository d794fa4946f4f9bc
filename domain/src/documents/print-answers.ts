import { z } from 'zod';
import { dataAnswer, isoTimestamp, listAnswer } from '../common/answers.ts';

// The answers of the print calls (spec 01 §4, spec 02 §4, spec 03 §4): links to printed documents,
// certificate numbers, and the runs that print every certificate of a service into one zip.

/**
 * GET /api/entry/{id}/print/{kind}, GET /api/user/{id}/consent/print: {url}, a signed link to the
 * document valid for a few minutes. GET /api/service/{id}/journal/print-excel: {url} of the journal,
 * fetched with the session.
 */
export const printLinkAnswer = z.object({ url: z.string() });
export type PrintLinkAnswer = z.output<typeof printLinkAnswer>;

/** PUT /api/entry/{id}/certificate-number: the number as set, and the notice. */
export const certificateNumberAnswer = dataAnswer(z.object({ id: z.number().int(), certificate_number: z.string() })).extend({ message: z.string() });

/** A run printing every certificate of a service into one zip; `url` of the zip once done, `error` when it failed. */
export const printBatchSchema = z.object({
  id: z.number().int(),
  service_id: z.number().int(),
  /** 1 queued, 2 running, 3 done, 4 failed (the server's BatchStatus). */
  status: z.number().int(),
  total: z.number().int(),
  done: z.number().int(),
  skipped: z.number().int(),
  error: z.string().nullable(),
  url: z.string().nullable(),
  created_at: isoTimestamp,
});
export type PrintBatch = z.output<typeof printBatchSchema>;

/** POST /api/service/{id}/print-certificates: 201 with the new run and the notice. */
export const printBatchStartedAnswer = dataAnswer(printBatchSchema).extend({ message: z.string() });
/** GET /api/print-batch/{id}: the run's progress. */
export const printBatchAnswer = dataAnswer(printBatchSchema);
/** GET /api/service/{id}/print-batches: the latest runs of a service, newest first. */
export const printBatchesAnswer = listAnswer(printBatchSchema);
