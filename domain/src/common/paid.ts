import { EntryStatus } from './codes.ts';

// Which entry statuses count as paid (spec 03 §4, the pay filter: 2 paid, 3 completed). Every other
// status (1 not paid, and any later one such as a refunded entry) is unpaid. The server's SQL, the
// publication answers and the screens all ask this one rule.

export const PAID_ENTRY_STATUSES: readonly number[] = [EntryStatus.paid, EntryStatus.done];

/** Whether an entry in this status is paid. */
export const isPaidEntryStatus = (status: number): boolean => PAID_ENTRY_STATUSES.includes(status);
