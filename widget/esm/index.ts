import type {
  Locale,
  ParleyCommand,
  ParleyCommands,
  ParleyEvent,
  ParleyEvents,
  ParleyFunction,
  ThemeSettings,
} from '../api.ts';

export type {
  Locale,
  ParleyCommand,
  ParleyCommands,
  ParleyEvent,
  ParleyEvents,
  ParleyFunction,
  ThemeSettings,
} from '../api.ts';

export interface LoadOptions {
  /** Where your Parley BFF answers, e.g. `https://chat.example.com`. */
  baseUrl: string;
  siteKey?: string;
  /** A verified customer's session token from your server (never put it in a URL). */
  sessionToken?: string;
  locale?: Locale;
  theme?: ThemeSettings;
  /** The page's CSP nonce: set on the script tag this adds, for a `script-src 'nonce-…'` policy. */
  nonce?: string;
  /**
   * `false` until your consent manager says yes: the widget then keeps everything in memory and stores
   * nothing on the device; call `command('consent', true)` when the visitor agrees.
   */
  consent?: boolean;
}

export interface Parley {
  command<C extends ParleyCommand>(command: C, ...args: ParleyCommands[C]): void;
  on<E extends ParleyEvent>(event: E, listener: (payload: ParleyEvents[E]) => void): () => void;
  /** Resolves when the chat app has loaded. */
  ready: Promise<void>;
}

/**
 * The typed entry for bundlers: adds the loader's script tag once and gives the same API as
 * `window.Parley`. Calls made before the loader ran are queued, as with the snippet.
 *
 * @example const parley = loadParley({ baseUrl: 'https://chat.example.com', siteKey: 'pk_live_…' }); parley.command('open');
 */
export function loadParley(options: LoadOptions): Parley {
  const page = window as unknown as { Parley?: ParleyFunction & { q?: unknown[][] } };
  if (!page.Parley) {
    const stub = ((...args: unknown[]) => void (stub.q ??= []).push(args)) as unknown as ParleyFunction & {
      q?: unknown[][];
    };
    page.Parley = stub;
    // First in the queue, so that the app knows before it could store anything.
    if (options.consent !== undefined) stub('consent', options.consent);
    const script = document.createElement('script');
    if (options.nonce) script.nonce = options.nonce;
    script.async = true;
    script.src = `${options.baseUrl.replace(/\/$/, '')}/widget.js`;
    if (options.siteKey) script.dataset['siteKey'] = options.siteKey;
    if (options.sessionToken) script.dataset['sessionToken'] = options.sessionToken;
    if (options.locale) script.dataset['locale'] = options.locale;
    if (options.theme?.color) script.dataset['color'] = options.theme.color;
    if (options.theme?.position) script.dataset['position'] = options.theme.position;
    if (options.theme?.mode) script.dataset['mode'] = options.theme.mode;
    document.head.append(script);
  }
  const call = (...args: unknown[]) => (page.Parley as unknown as (...all: unknown[]) => unknown)(...args);
  const ready = new Promise<void>((resolve) => {
    const check = () => (page.Parley?.ready ? void page.Parley.ready.then(resolve) : setTimeout(check, 50));
    check();
  });
  return {
    command: (command, ...args) => void call(command, ...args),
    on(event, listener) {
      // Before the loader ran, the call waits in the snippet's queue and the loader registers it
      // first thing, before the app can fire anything; the flag makes the unsubscribe work either way.
      let active = true;
      const result = call('on', event, (payload: never) => {
        if (active) listener(payload);
      });
      return () => {
        active = false;
        if (typeof result === 'function') result();
      };
    },
    ready,
  };
}
