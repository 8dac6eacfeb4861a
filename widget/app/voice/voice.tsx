/**
 * The voice chunk: the voice-note recorder and its styles. It loads when the customer presses the
 * microphone, never with the first download.
 */
import { render } from 'preact';
import type { Chat } from '../chat/chat.ts';
import { Recorder } from './recorder.tsx';

export const CSS = `
.composer.recording>:not(.voice){display:none}
.voice{flex:1}
.recorder{display:flex;align-items:center;gap:var(--s2);justify-content:flex-end}
.recorder [role=timer]{flex:1;font-variant-numeric:tabular-nums}
.recorder .error{flex:1;margin:0;border-radius:8px}
.rec-dot{width:10px;height:10px;border-radius:50%;background:#d93025}
`;

let styled = false;

/** The recorder's styles, once, in the widget's shadow root. */
function adoptStyles(root: Node): void {
  if (styled || !(root instanceof ShadowRoot)) return;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  styled = true;
}

/**
 * Records a voice note in the composer of `button` (the microphone): the recorder takes the
 * composer's place (its other controls hide) until the note is sent into the conversation with one
 * press (uploaded to `chat`'s target) or cancelled; then the microphone has the focus again. A note
 * the upload could not send goes to `onFiles` (the attach tray: it says why, and sends it again).
 * The customer's language is the widget's (its root's `lang`). Rendered on its own, after the
 * composer's own controls, so that the first download carries only the button.
 */
export function record(
  button: HTMLButtonElement,
  chat: Pick<Chat, 'target' | 'took'>,
  onFiles: (files: File[]) => void,
): void {
  const form = button.form;
  if (!form || form.classList.contains('recording') || form.querySelector('textarea')?.disabled) return;
  adoptStyles(button.getRootNode());
  const place = document.createElement('div');
  place.className = 'voice';
  form.append(place);
  form.classList.add('recording');
  const close = () => {
    render(null, place);
    place.remove();
    form.classList.remove('recording');
    button.focus();
  };
  const locale = button.closest<HTMLElement>('[lang]')?.lang ?? 'en';
  render(<Recorder locale={locale} chat={chat} onUnsent={(file) => onFiles([file])} onClose={close} />, place);
}
