import { describe, expect, it } from 'vitest';
import { LOGGED_TEXT_HEAD, LOGGED_TEXT_MAX } from '@edu/domain/logs/log';
import { diffOf, SECRET_MARK } from './change-log.ts';

describe('change-log diff', () => {
  it('keeps only changed fields and ignores id, user_id and timestamps', () => {
    expect(
      diffOf(
        { id: 1, user_id: 2, email: 'a@example.com', role: 2, updated_at: new Date(0) },
        { id: 9, user_id: 3, email: 'b@example.com', role: 2, updated_at: new Date(1) },
      ),
    ).toEqual({ email: { old: 'a@example.com', new: 'b@example.com' } });
  });

  it('records that a password changed, never its value', () => {
    expect(diffOf({ password: 'hash-1' }, { password: 'hash-2' })).toEqual({ password: { old: SECRET_MARK, new: SECRET_MARK } });
    expect(diffOf(null, { password: 'hash' })).toEqual({ password: { old: null, new: SECRET_MARK } });
    expect(diffOf({ password: 'same' }, { password: 'same' })).toEqual({});
  });

  it('compares dates and lists by value', () => {
    expect(diffOf({ deleted_at: new Date(5), profiles: [1, 2] }, { deleted_at: new Date(5), profiles: [1, 2] })).toEqual({});
    expect(diffOf({ deleted_at: null }, { deleted_at: new Date(0) })).toEqual({ deleted_at: { old: null, new: '1970-01-01T00:00:00.000Z' } });
  });

  it('keeps a long text by its beginning and length, and compares it whole (issue 29)', () => {
    const long = 'Слово '.repeat(80_000); // 480 000 characters
    const edited = `${long}и ещё одно`;
    const { text } = diffOf({ text: long, title: 'Статья' }, { text: edited, title: 'Статья' });
    expect(text.old).toBe(`${long.slice(0, LOGGED_TEXT_HEAD)}… [всего символов: 480\u00a0000]`);
    expect(text.new).toBe(`${edited.slice(0, LOGGED_TEXT_HEAD)}… [всего символов: 480\u00a0010]`);
    // A change past the kept beginning is still a change; the same long text is none.
    expect(diffOf({ text: long }, { text: long })).toEqual({});
    // Up to the limit a text is kept as it is.
    const short = 'я'.repeat(LOGGED_TEXT_MAX);
    expect(diffOf({ text: null }, { text: short })).toEqual({ text: { old: null, new: short } });
  });
});
