import { describe, expect, it } from 'vitest';
import { cutText, pointsText } from './text';

describe('card texts', () => {
  it('cuts a long title at a character, not inside a surrogate pair, with an ellipsis', () => {
    expect(cutText('Короткий', 20)).toBe('Короткий');
    expect(cutText('Публикация в сетевом издании', 10)).toBe('Публикация…');
    expect(cutText('Конкурс 🏆 года', 9)).toBe('Конкурс 🏆…');
  });

  it('says points in Russian', () => {
    expect([0, 1, 2, 5, 11, 21, 22, 112].map(pointsText)).toEqual([
      '0 баллов',
      '1 балл',
      '2 балла',
      '5 баллов',
      '11 баллов',
      '21 балл',
      '22 балла',
      '112 баллов',
    ]);
  });
});
