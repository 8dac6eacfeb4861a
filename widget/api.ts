/**
 * The public contract of the widget, the same for the script tag's `window.Parley`, the ESM entry,
 * the hosted chat page and the React Native bridge: one list of commands, one list of events.
 */
export type ThemeMode = 'light' | 'dark' | 'auto';
export type Position = 'right' | 'left';

export interface ThemeSettings {
  /** The main colour, as CSS hex (`#1f3a5f`). Text on it is chosen for contrast. */
  color?: string;
  position?: Position;
  mode?: ThemeMode;
}

export const LOCALES = ['en', 'de', 'fr', 'es', 'ar', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];

/** Commands, by name, with their arguments. */
export interface ParleyCommands {
  open: [];
  close: [];
  toggle: [];
  /** Switches to a verified customer's session (a token your server got from POST /v1/widget-sessions with its API key). */
  identify: [{ token: string }];
  /** Forgets the visitor on this device: ends the session and clears what the widget stored. */
  shutdown: [];
  setLocale: [Locale | string];
  setTheme: [ThemeSettings];
  /** `false`: the widget keeps everything in memory and stores nothing on the device until `true` (issue 35). */
  consent: [boolean];
}

export type ParleyCommand = keyof ParleyCommands;

/** Events, by name, with what their listeners receive. */
export interface ParleyEvents {
  ready: undefined;
  open: undefined;
  close: undefined;
  /** A new message from the AI or a person. */
  message: { conversation_id: string; author: 'ai' | 'human' | 'system'; text: string };
  /** The number of messages the customer has not seen yet. */
  unread: { count: number };
  error: { code: string; message: string };
}

export type ParleyEvent = keyof ParleyEvents;

export const COMMANDS: readonly ParleyCommand[] = [
  'open',
  'close',
  'toggle',
  'identify',
  'shutdown',
  'setLocale',
  'setTheme',
  'consent',
];
export const EVENTS: readonly ParleyEvent[] = ['ready', 'open', 'close', 'message', 'unread', 'error'];

/** `window.Parley` once the loader ran: call it with a command, or `on` to listen. */
export interface ParleyFunction {
  <C extends ParleyCommand>(command: C, ...args: ParleyCommands[C]): void;
  <E extends ParleyEvent>(command: 'on', event: E, listener: (payload: ParleyEvents[E]) => void): () => void;
  /** Resolves when the chat app has loaded and is ready for commands. */
  ready: Promise<void>;
}

/** What goes over the hosted page's bridge (postMessage or the React Native WebView), both ways. */
export type BridgeMessage =
  | { parley: 1; kind: 'command'; command: ParleyCommand; args: unknown[] }
  | { parley: 1; kind: 'event'; event: ParleyEvent; payload: unknown }
  | { parley: 1; kind: 'init'; siteKey?: string; token?: string; locale?: string; theme?: ThemeSettings };
