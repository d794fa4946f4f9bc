import { describe, expect, it } from 'vitest';
import {
  canTransition,
  chooseSlot,
  internetTextProblem,
  PublicationMessages,
  type PublicationSlotLike,
  rejectBody,
  savePublicationBody,
  uniquenessColor,
  userMayDelete,
  userMayEdit,
} from './publication.ts';

describe('internet text limits', () => {
  it('counts plain characters for the minimum and the formatted HTML for the maximum', () => {
    expect(internetTextProblem(`<p>${'а'.repeat(3199)}</p>`)).toBe(PublicationMessages.internetTooShort);
    expect(internetTextProblem(`<p>${'а'.repeat(3200)}</p>`)).toBeNull();
    expect(internetTextProblem(`<p><b>${'а'.repeat(3100)}</b></p>`)).toBe(PublicationMessages.internetTooShort);
    expect(internetTextProblem(`<p>${'а'.repeat(32_494)}</p>`)).toBe(PublicationMessages.tooManyCharacters);
    expect(internetTextProblem(`<p>${'а'.repeat(32_493)}</p>`)).toBeNull();
  });
});

describe('transitions', () => {
  it('allows each action only from its statuses', () => {
    expect(canTransition('accept', 1)).toBe(true);
    expect(canTransition('accept', 2)).toBe(false);
    expect(canTransition('publish', 2)).toBe(true);
    expect(canTransition('publish', 1)).toBe(false);
    expect(canTransition('sendToJournal', 4)).toBe(false);
    expect([0, 1, 2, 3, 4, 5].filter(userMayEdit)).toEqual([1, 3]);
    expect([0, 1, 2, 3, 4, 5].filter(userMayDelete)).toEqual([0]);
  });
});

describe('bodies', () => {
  it('reject needs a comment unless silent', () => {
    const r = rejectBody.safeParse({ manager_comment: ' ' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(PublicationMessages.rejectReason);
    expect(rejectBody.safeParse({ is_silent: '1' }).success).toBe(true);
  });

  it('save reads multipart strings: authors as JSON, empty ids as absent', () => {
    const r = savePublicationBody.parse({ title: ' Статья ', release_id: '', authors_num: '2', authors: '[{"fio":"Иванова Мария"}]' });
    expect(r).toMatchObject({ title: 'Статья', release_id: undefined, authors_num: 2, authors: [{ fio: 'Иванова Мария' }] });
  });

  it('green above 70 percent', () => {
    expect(uniquenessColor(71)).toBe('green');
    expect(uniquenessColor(70)).toBe('red');
  });
});

describe('chooseSlot (issue 28)', () => {
  const slot = (o: Partial<PublicationSlotLike> & { id: number }): PublicationSlotLike => ({
    number: `2611-000${o.id}`,
    package_title: 'Пакет «Педагог-автор»',
    is_paid: true,
    authors_covered: 1,
    service: { id: 5, dict_subtype_id: 5 },
    ...o,
  });
  const internet = { id: 5, dict_subtype_id: 5 };

  it('takes the first fitting slot that covers the authors; another subtype does not fit', () => {
    const a = slot({ id: 1, service: { id: 9, dict_subtype_id: 4 } });
    const b = slot({ id: 2 });
    expect(chooseSlot([a, b], internet, 1)).toEqual({ use: b, tooSmall: null });
    expect(chooseSlot([a], internet, 1)).toEqual({ use: null, tooSmall: null });
  });

  it('more authors than covered: no slot, and the passed-over one to say why', () => {
    const b = slot({ id: 2 });
    expect(chooseSlot([b], internet, 2)).toEqual({ use: null, tooSmall: b });
    expect(PublicationMessages.slotTooFewAuthors(b, 2, false)).toBe(
      'Заявка № 2611-0002 (Пакет «Педагог-автор») включает публикацию 1 автора без доплаты, а авторов 2: поэтому будет создана новая заявка по цене для 2 авторов, её нужно будет оплатить',
    );
    // An entry of its own (no package) takes any number: its price follows the authors.
    const own = slot({ id: 3, package_title: null, is_paid: false, authors_covered: null });
    expect(chooseSlot([b, own], internet, 3).use).toBe(own);
  });
});
