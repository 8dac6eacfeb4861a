/**
 * Component stylesheets, appended to APP_CSS (styles.ts) after the design tokens and base rules.
 * To add one: export a CSS string from a file next to the component (for example
 * `components/message-list/message-list.css.ts` exporting `MESSAGE_LIST_CSS`) and add ONE line
 * below re-exporting it. Every export of this module is included, in the order of the names.
 * Only CSS needed to read and send belongs here; the rest goes into a lazy chunk's own `CSS`.
 */
export const NONE_CSS = '';
export { MESSAGE_LIST_CSS } from './components/message-list/message-list.css.ts';
