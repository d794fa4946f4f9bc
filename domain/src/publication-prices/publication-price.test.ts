import { describe, expect, it } from 'vitest';
import { priceFor } from './publication-price.ts';

const prices = [
  { id: 1, dict_service_subtype_id: 4, authors_num: 1, price: 1500 },
  { id: 2, dict_service_subtype_id: 4, authors_num: 2, price: 2000 },
  { id: 3, dict_service_subtype_id: 4, authors_num: 4, price: 3000 },
  { id: 4, dict_service_subtype_id: 5, authors_num: 1, price: 700 },
];

describe('priceFor', () => {
  it('takes the row of exactly that many authors', () => {
    expect(priceFor(prices, 4, 2)?.price).toBe(2000);
    expect(priceFor(prices, 5, 1)?.id).toBe(4);
  });
  it('falls back to the largest count below, and is null when there is none', () => {
    expect(priceFor(prices, 4, 3)?.price).toBe(2000);
    expect(priceFor(prices, 4, 9)?.price).toBe(3000);
    expect(priceFor(prices, 4, 0)).toBeNull();
    expect(priceFor(prices, 6, 1)).toBeNull();
  });
});
