import type { Locale, ParleyCommand, ParleyEvent, ParleyEvents, ThemeSettings } from './api.ts';

/**
 * The contract between the loader (`widget.js`, on the host page) and the app chunk it loads:
 * the loader owns the host element, the launcher, the command queue and the event listeners; the
 * app owns the chat.
 */
export interface WidgetSettings {
  /** Where the BFF answers, ending in `/` (taken from the loader's own URL). */
  baseUrl: string;
  siteKey: string | undefined;
  /** A verified customer's token handed over by the page (data-session-token, identify, or the bridge). */
  sessionToken?: string | undefined;
  locale?: Locale | string | undefined;
  theme?: ThemeSettings | undefined;
  /** The opening request the loader made before the app loaded (issue 34); the app takes its answer if it asks the same. */
  started?: StartRequest | undefined;
}

export interface MountContext {
  settings: WidgetSettings;
  /** The open shadow root that holds everything the widget draws. */
  root: ShadowRoot;
  /** The loader's launcher; absent on the hosted full-page chat. */
  launcher?: HTMLButtonElement | undefined;
  /** Fires a public event to the page's listeners. */
  emit<E extends ParleyEvent>(event: E, payload: ParleyEvents[E]): void;
}

export interface WidgetApp {
  command(command: ParleyCommand, args: unknown[]): void;
}

/** The app chunk's export, loaded by `import()` from the loader. */
export type MountWidget = (context: MountContext) => WidgetApp;

/** The file the loader imports, relative to the BFF's base URL. */
export const APP_PATH = 'widget/app.js';

/** The widget's opening request: the config, the conversations and one history in one answer (issue 34). */
export interface StartRequest {
  /** What it asked: the form sent. */
  form: string;
  answer: Promise<Response>;
}

/** The opening request's form: the session token, and the conversation this device shows, if any. */
export const startForm = (token: string, conversationId: string | null | undefined): URLSearchParams =>
  new URLSearchParams(conversationId ? { token, conversation_id: conversationId } : { token });

/**
 * Asks `POST v1/widget/start` with a form, which a browser sends without a CORS preflight: the
 * session token travels in the body, never in the URL. The loader calls it when it loads the app
 * on a device with a session, so the answer is on its way while the app's code loads.
 */
export function requestStart(baseUrl: string, form: URLSearchParams): StartRequest {
  return { form: `${form}`, answer: fetch(baseUrl + 'v1/widget/start', { method: 'POST', body: form }) };
}
