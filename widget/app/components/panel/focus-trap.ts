/**
 * Keeps Tab inside the open chat, a dialog (WAI-ARIA APG, dialog pattern): past the last control
 * focus goes back to the first (the header's), and Shift+Tab from the first (or from the heading,
 * which takes focus from code) to the last. The browser moves focus everywhere in between.
 */
export function trapTab(event: KeyboardEvent, dialog: HTMLElement, heading: HTMLElement | null): void {
  const controls = [...dialog.querySelectorAll<HTMLElement>('button,textarea,input,a[href]')].filter(
    (control) => !control.matches(':disabled,[tabindex="-1"]'),
  );
  const [first, last] = [controls[0], controls.at(-1)];
  const active = (dialog.getRootNode() as ShadowRoot).activeElement;
  if (event.shiftKey ? active === first || active === heading : active === last) {
    event.preventDefault();
    (event.shiftKey ? last : first)?.focus();
  }
}
