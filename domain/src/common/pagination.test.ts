import { describe, expect, it } from 'vitest';
import { COUNT_CAP, totalLabel } from './pagination.ts';

describe('totalLabel', () => {
  it('shows an exact total with grouped digits', () => {
    expect(totalLabel(0)).toBe('0');
    expect(totalLabel(15)).toBe('15');
    expect(totalLabel(COUNT_CAP)).toBe('1 000');
  });

  it('shows a capped total as more than the cap', () => {
    expect(totalLabel(COUNT_CAP + 1)).toBe('более 1 000');
    expect(totalLabel(10_001, 10_000)).toBe('более 10 000');
    expect(totalLabel(5_000, 10_000)).toBe('5 000');
  });
});
