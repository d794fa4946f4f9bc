import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { firstInvalid, revealAndFocus } from './focus-invalid';

// jsdom lays nothing out: every element counts as shown, and scrolling is recorded.
beforeEach(() => {
  vi.spyOn(Element.prototype, 'getClientRects').mockReturnValue([{}] as unknown as DOMRectList);
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('the first invalid field', () => {
  it('is the first input marked invalid, in document order', () => {
    document.body.innerHTML = `<form><input id="a"><input id="b" aria-invalid="true"><input id="c" aria-invalid="true"></form>`;
    expect(firstInvalid(document.body)?.id).toBe('b');
  });

  it('is the control of a wrapper whose error is shown (a radio group, a custom field)', () => {
    document.body.innerHTML = `<div data-field="sections"><p data-field-error>Выберите секцию!</p><input type="radio" id="s1"><input type="radio" id="s2"></div>`;
    expect(firstInvalid(document.body)?.id).toBe('s1');
  });

  it('is nothing on a valid form', () => {
    document.body.innerHTML = `<form><input id="a"></form>`;
    expect(firstInvalid(document.body)).toBeNull();
  });

  it('is scrolled to when out of view and focused', () => {
    document.body.innerHTML = `<input id="far" aria-invalid="true">`;
    const el = document.getElementById('far')!;
    vi.spyOn(el, 'getBoundingClientRect').mockReturnValue({ top: 5000, bottom: 5040, left: 0, right: 100 } as DOMRect);
    revealAndFocus(el);
    expect(el.scrollIntoView).toHaveBeenCalledWith({ block: 'center', inline: 'nearest' });
    expect(document.activeElement).toBe(el);
  });
});
