/**
 * The header's "More options" menu and the preview card of a new message above the launcher,
 * with their styles: they load the first time one is wanted, so the first download stays
 * inside its budget (DESIGN.md "Budgets"). Their words are in the first download's catalogues.
 */
export { OptionsMenu } from './components/options-menu/options-menu.tsx';
export { Peek } from './components/peek/peek.tsx';

export const CSS = `
.menu{position:absolute;top:calc(100% + var(--s1));inset-inline-end:0;min-width:220px;padding:var(--s1);display:flex;flex-direction:column;background:var(--p-bg);color:var(--p-text);border:1px solid var(--p-border);border-radius:var(--r-md);box-shadow:var(--e1)}
.menu button{padding:var(--s2) var(--s3);border:0;border-radius:var(--r-sm);background:none;color:inherit;text-align:start}
.menu button:hover,.menu button:focus{background:var(--p-bubble)}
.menu [aria-checked=true]::after{content:" ✓"}
.peek{position:fixed;bottom:88px;right:20px;z-index:2147483000;display:flex;align-items:flex-start;width:300px;max-width:calc(100vw - 40px);background:var(--p-bg);color:var(--p-text);border:1px solid var(--p-border);border-radius:var(--r-md);box-shadow:var(--e2);animation:pop var(--m) ease-out}
.left .peek{right:auto;left:20px}
.peek-open{flex:1;min-width:0;display:flex;flex-direction:column;padding:var(--s3);border:0;background:none;color:inherit;text-align:start}
.peek-open strong{font-size:var(--f-sm)}
.peek-open span{width:100%;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
`;
