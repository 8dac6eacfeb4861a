/**
 * The attachments chunk: the tray where a picked, pasted or dropped file waits to be sent (with
 * its upload), and the files in the message list, with their styles. It loads the first time a
 * customer attaches something or a message with a file is shown, which keeps the first download
 * inside its budget (the first download carries only the attach button).
 */
export { AttachTray as Tray } from './components/attach-tray/attach-tray.tsx';
export { AttachmentList as Files } from './components/attachment-list/attachment-list.tsx';

export const CSS = `
.tray{display:flex;flex-direction:column;gap:8px;padding:10px;border-top:1px solid var(--p-border)}
.tray-file{display:flex;align-items:center;gap:10px;min-width:0}
.tray-thumb{width:56px;height:56px;object-fit:cover;border-radius:8px}
.tray-kind{display:inline-grid;place-items:center;min-width:40px;height:40px;border-radius:8px;background:var(--p-bubble);color:var(--p-text);font-size:12px;font-weight:700}
.tray-name{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.tray-size{color:var(--p-muted);font-size:13px}
.tray progress{width:100%}
.tray .error{border-radius:8px}
.tray-actions{display:flex;justify-content:flex-end;align-items:center;gap:12px}
.files{display:flex;flex-direction:column;gap:6px;margin-bottom:4px}
.thumb,.thumb img,.thumb-wait{display:block;border-radius:8px}
.thumb-wait{background:rgba(127,127,127,.2)}
.chip{display:inline-flex;align-items:center;gap:8px;max-width:240px;padding:4px 10px 4px 4px;border:1px solid currentColor;border-radius:20px;color:inherit;text-decoration:none}
.chip [dir]{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.player{display:block;max-width:240px;border-radius:8px}
`;
