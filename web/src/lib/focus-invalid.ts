/**
 * After a failed submit: brings the first invalid field of the form into view and focuses it, so the
 * error is never off-screen (issue 22). Works on what the form renders, whatever keeps its state
 * (Mantine useForm, useState): an input with aria-invalid (every Mantine input with an error), or an
 * error message of a wrapper (Radio.Group, a custom field marked with data-field-error), whose
 * first control takes the focus.
 */

const INVALID = '[aria-invalid="true"], .mantine-InputWrapper-error, [data-field-error]';
const FOCUSABLE =
  'input:not([type="hidden"]):not([disabled]), textarea:not([disabled]), select:not([disabled]), [contenteditable="true"], button:not([disabled]), [tabindex]:not([tabindex="-1"])';
/** Frames to wait for the errors to render (React commits them after the state update). */
const MAX_FRAMES = 30;

/** The open dialog on top, or the page. */
function defaultRoot(): ParentNode {
  const dialogs = Array.from(document.querySelectorAll<HTMLElement>('[role="dialog"]')).filter((d) => d.getClientRects().length > 0);
  return dialogs.at(-1) ?? document.body;
}

function visible(el: Element): boolean {
  return el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
}

/** The first invalid field's control (or its message when it has none), in document order. */
export function firstInvalid(root: ParentNode): HTMLElement | null {
  const found = Array.from(root.querySelectorAll<HTMLElement>(INVALID)).find(visible);
  if (!found) return null;
  if (found.matches('[aria-invalid="true"]')) return found;
  const field = found.closest<HTMLElement>('[data-field], .mantine-InputWrapper-root') ?? found.parentElement;
  const control = Array.from(field?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []).find(visible);
  return control ?? found;
}

/** Scrolls the element to the middle of its scrolling boxes unless it is fully in view, then focuses it. */
export function revealAndFocus(el: HTMLElement): void {
  const r = el.getBoundingClientRect();
  const inView = r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
  // The label sits above the control: centring shows both, and stays clear of sticky bars.
  if (!inView) el.scrollIntoView({ block: 'center', inline: 'nearest' });
  if (!el.hasAttribute('tabindex') && !el.matches(FOCUSABLE)) el.setAttribute('tabindex', '-1');
  el.focus({ preventScroll: true });
}

/**
 * Call right after setting the errors of a failed submit: waits for them to render, then reveals
 * and focuses the first invalid field inside `root` (default: the open dialog on top, or the page).
 */
export function focusFirstInvalid(root?: ParentNode | null): void {
  if (typeof window === 'undefined') return;
  let frames = 0;
  const attempt = () => {
    const el = firstInvalid(root ?? defaultRoot());
    if (el) revealAndFocus(el);
    else if (++frames < MAX_FRAMES) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}
