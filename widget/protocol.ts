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
