import { describe, expect, it } from 'vitest';
import { isPaidEntryStatus } from './paid.ts';

describe('isPaidEntryStatus', () => {
  it('counts only paid (2) and completed (3) as paid; not paid, unknown and later states (a refund) are unpaid', () => {
    expect([1, 2, 3, 4, 0, 99].map(isPaidEntryStatus)).toEqual([false, true, true, false, false, false]);
  });
});
