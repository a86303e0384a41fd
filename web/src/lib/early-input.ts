import { EARLY_INPUT_GLOBAL } from '@shared/early-input.ts';

// What a member typed or clicked on a server-rendered page before it hydrated (src/shared/early-input.ts
// says why it would be lost), handed to React once the page has hydrated (lib/page-hydrated.ts).

interface EarlyInput {
  stop(): { type: string; target: Element } | null;
}

/** Sets `value` past React's own setter: React's tracker keeps the value it last saw. */
function setNativeValue(field: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const proto =
    field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, value);
}

const NOT_TYPED = new Set(['checkbox', 'radio', 'file', 'submit', 'button', 'reset', 'image', 'hidden']);

/**
 * React keeps a hydrating field's value as the browser has it and sets its `defaultValue` to the value it
 * rendered: a field whose value differs was typed into before hydration. Each such field gets the input
 * event it would have had (React's tracker first told the rendered value, so it sees a change and calls
 * the component's onChange); a box or radio ticked before hydration is ticked again by a click.
 */
function replayTyped(root: HTMLElement): void {
  for (const field of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')) {
    if (field.disabled || field.readOnly) continue;
    if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
      if (field.checked === field.defaultChecked || (field.type === 'radio' && !field.checked)) continue;
      field.checked = field.defaultChecked;
      field.click();
      continue;
    }
    if (field instanceof HTMLInputElement && NOT_TYPED.has(field.type)) continue;
    if (field.value === field.defaultValue) continue;
    const typed = field.value;
    field.value = field.defaultValue;
    setNativeValue(field, typed);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
  for (const select of root.querySelectorAll('select')) {
    if ([...select.options].some((option) => option.selected !== option.defaultSelected))
      select.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

/**
 * Once the page has hydrated: the early-input script stops holding clicks, React gets what was typed,
 * then the last click held (on a button still in the page and enabled, now that the form knows what was
 * typed) or form submission is replayed. Nothing when the page had no such script (rendered by the browser).
 */
export function replayEarlyInput(): void {
  const early = (window as unknown as Record<string, EarlyInput | undefined>)[EARLY_INPUT_GLOBAL];
  if (!early) return;
  const last = early.stop();
  const root = document.getElementById('root');
  if (!root) return;
  replayTyped(root);
  if (!last || !last.target.isConnected) return;
  if (last.type === 'submit' && last.target instanceof HTMLFormElement) last.target.requestSubmit();
  else if (last.target instanceof HTMLElement && !(last.target as HTMLButtonElement).disabled)
    last.target.click();
}
