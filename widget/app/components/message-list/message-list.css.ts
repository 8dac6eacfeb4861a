/**
 * The log's own rules, after the base ones (component-css.ts): who wrote a group (a robot and an
 * "AI" badge for the AI, a person's initials on another colour, nothing beside the customer's
 * own) and the day separators.
 */
export const MESSAGE_LIST_CSS = `
.meta{display:flex;align-items:center;gap:6px}
.avatar{margin:0}
.human .avatar{background:var(--p-muted);color:var(--p-bg)}
.author{font-weight:600}
.badge{padding:0 4px;border:1px solid;border-radius:4px;font-size:10px;font-weight:700}
.day{align-self:center;margin:12px 0 0;font-size:12px;font-weight:600}
`;
