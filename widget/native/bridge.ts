import {
  COMMANDS,
  EVENTS,
  type BridgeMessage,
  type ParleyCommand,
  type ParleyCommands,
  type ParleyEvent,
  type ParleyEvents,
  type ThemeSettings,
} from '../api.ts';
import type { ErrorCode } from '../../shared/errors.ts';

/**
 * The messages of the hosted chat's bridge (`/chat` in a React Native WebView, an iframe or a
 * window another page opened), built and checked in one place for both ends: the page
 * (`widget/hosted`) and the `<ParleyChat>` component. Everything that arrives is untrusted
 * (OWASP HTML5 cheat sheet, postMessage: "validate the shape of event.data"): a parsed message is
 * rebuilt from the fields that passed, so nothing unchecked goes through.
 *
 * No DOM and no React Native here: plain functions that run anywhere.
 */

export type CommandMessage = {
  [C in ParleyCommand]: { parley: 1; kind: 'command'; command: C; args: ParleyCommands[C] };
}[ParleyCommand];
export type EventMessage = {
  [E in ParleyEvent]: { parley: 1; kind: 'event'; event: E; payload: ParleyEvents[E] };
}[ParleyEvent];
export type InitMessage = Extract<BridgeMessage, { kind: 'init' }>;
/** A message that passed `parseBridgeMessage`: the typed form of `BridgeMessage`. */
export type ParsedBridgeMessage = CommandMessage | EventMessage | InitMessage;

/** An event's name with its payload, as a tuple, so that a listener's two parameters narrow together. */
export type EventArgs = { [E in ParleyEvent]: [event: E, payload: ParleyEvents[E]] }[ParleyEvent];

export type BridgeParse =
  | { ok: true; message: ParsedBridgeMessage }
  /** `foreign`: not a Parley message at all (no `parley: 1`), e.g. another script's postMessage. */
  | { ok: false; foreign: boolean; reason: string };

/** The largest message the bridge reads, as JSON text. A chat message's text is far smaller. */
export const MAX_MESSAGE_CHARS = 64 * 1024;

export interface InitOptions {
  siteKey?: string | undefined;
  /** A verified customer's `wst_…` token, from your server (POST /v1/widget-sessions with your API key). */
  token?: string | undefined;
  locale?: string | undefined;
  theme?: ThemeSettings | undefined;
}

/** `{parley: 1, kind: 'init', …}` with only the settings given. */
export function initMessage(options: InitOptions): InitMessage {
  const message: InitMessage = { parley: 1, kind: 'init' };
  if (options.siteKey !== undefined) message.siteKey = options.siteKey;
  if (options.token !== undefined) message.token = options.token;
  if (options.locale !== undefined) message.locale = options.locale;
  if (options.theme !== undefined) message.theme = options.theme;
  return message;
}

/** @example commandMessage('setLocale', 'de') */
export function commandMessage<C extends ParleyCommand>(command: C, ...args: ParleyCommands[C]): CommandMessage {
  return { parley: 1, kind: 'command', command, args } as CommandMessage;
}

/** @example eventMessage('unread', { count: 2 }) */
export function eventMessage<E extends ParleyEvent>(event: E, payload: ParleyEvents[E]): EventMessage {
  return { parley: 1, kind: 'event', event, payload } as EventMessage;
}

/** The `error` event the bridge answers a message it refuses with. */
export function refusal(reason: string, code: ErrorCode = 'invalid_request'): EventMessage {
  return eventMessage('error', { code, message: reason });
}

/**
 * Checks anything that came over the bridge: an object, or its JSON text (what
 * `ReactNativeWebView.postMessage` and the WebView's `onMessage` carry).
 */
export function parseBridgeMessage(data: unknown): BridgeParse {
  let value = data;
  if (typeof data === 'string') {
    if (data.length > MAX_MESSAGE_CHARS)
      return refused(`a message is at most ${MAX_MESSAGE_CHARS} characters; this one has ${data.length}`, true);
    try {
      value = JSON.parse(data);
    } catch {
      return refused('the message is not JSON', true);
    }
  }
  if (!isRecord(value) || value['parley'] !== 1)
    return refused('the message is not a Parley bridge message ({parley: 1, kind, …})', true);
  try {
    switch (value['kind']) {
      case 'init':
        return accepted(parseInit(value));
      case 'command':
        return accepted(parseCommand(value));
      case 'event':
        return accepted(parseEvent(value));
      default:
        return refused(`kind must be 'init', 'command' or 'event', not ${describe(value['kind'])}`);
    }
  } catch (error) {
    if (error instanceof BridgeShapeError) return refused(error.message);
    throw error;
  }
}

/** Whether a string can be a site key (`pk_test_…`, `pk_live_…`); the BFF decides whether it is one. */
export const isSiteKey = (value: unknown): value is string =>
  typeof value === 'string' && /^pk_[A-Za-z0-9_-]{1,200}$/.test(value);

/**
 * Whether a string can be a widget session token. Only `wst_` tokens are taken: an API key
 * (`service_…`) handed to the bridge by mistake is refused instead of being sent from a device.
 */
export const isSessionToken = (value: unknown): value is string =>
  typeof value === 'string' && /^wst_[A-Za-z0-9_.-]{1,4000}$/.test(value);

/** A BCP 47-like language tag (`de`, `pt-BR`, `zh-Hant-TW`; `de_DE` too, as the web widget takes it). */
export const isLocaleTag = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,4}$/.test(value);

class BridgeShapeError extends Error {}

const accepted = (message: ParsedBridgeMessage): BridgeParse => ({ ok: true, message });
const refused = (reason: string, foreign = false): BridgeParse => ({ ok: false, foreign, reason });

function fail(reason: string): never {
  throw new BridgeShapeError(reason);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value);
}

function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.length > max)
    fail(`${field} must be a string of at most ${max} characters, not ${describe(value)}`);
  return value;
}

function parseTheme(value: unknown, field: string): ThemeSettings {
  if (!isRecord(value)) fail(`${field} must be an object {color?, position?, mode?}, not ${describe(value)}`);
  const theme: ThemeSettings = {};
  const { color, position, mode } = value;
  if (color !== undefined) {
    if (typeof color !== 'string' || !/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(color))
      fail(`${field}.color must be a hex colour like #1f3a5f, not ${describe(color)}`);
    theme.color = color;
  }
  if (position !== undefined) {
    if (position !== 'left' && position !== 'right')
      fail(`${field}.position must be 'left' or 'right', not ${describe(position)}`);
    theme.position = position;
  }
  if (mode !== undefined) {
    if (mode !== 'light' && mode !== 'dark' && mode !== 'auto')
      fail(`${field}.mode must be 'light', 'dark' or 'auto', not ${describe(mode)}`);
    theme.mode = mode;
  }
  return theme;
}

function parseInit(value: Record<string, unknown>): InitMessage {
  const { siteKey, token, locale, theme } = value;
  if (siteKey !== undefined && !isSiteKey(siteKey)) fail(`siteKey must be a site key (pk_…), not ${describe(siteKey)}`);
  // The token itself is never echoed back in a reason.
  if (token !== undefined && !isSessionToken(token))
    fail('token must be a widget session token (wst_…) from your server');
  if (locale !== undefined && !isLocaleTag(locale))
    fail(`locale must be a language tag like de or pt-BR, not ${describe(locale)}`);
  return initMessage({ siteKey, token, locale, theme: theme === undefined ? undefined : parseTheme(theme, 'theme') });
}

function parseCommand(value: Record<string, unknown>): CommandMessage {
  const { command, args } = value;
  if (!(COMMANDS as readonly unknown[]).includes(command))
    fail(`command must be one of ${COMMANDS.join(', ')}, not ${describe(command)}`);
  if (!Array.isArray(args)) fail(`args must be an array, not ${describe(args)}`);
  const name = command as ParleyCommand;
  const arity = name === 'identify' || name === 'setLocale' || name === 'setTheme' || name === 'consent' ? 1 : 0;
  if (args.length !== arity) fail(`${name} takes ${arity} argument${arity === 1 ? '' : 's'}, not ${args.length}`);
  switch (name) {
    case 'open':
    case 'close':
    case 'toggle':
    case 'shutdown':
      return commandMessage(name);
    case 'identify': {
      const [identity] = args as unknown[];
      if (!isRecord(identity) || !isSessionToken(identity['token']))
        fail('identify takes {token} with a widget session token (wst_…) from your server');
      return commandMessage('identify', { token: identity['token'] });
    }
    case 'setLocale': {
      const [locale] = args as unknown[];
      if (!isLocaleTag(locale)) fail(`setLocale takes a language tag like de or pt-BR, not ${describe(locale)}`);
      return commandMessage('setLocale', locale);
    }
    case 'setTheme':
      return commandMessage('setTheme', parseTheme(args[0], "setTheme's argument"));
    case 'consent':
      if (typeof args[0] !== 'boolean') fail(`consent takes true or false, not ${describe(args[0])}`);
      return commandMessage('consent', args[0]);
  }
}

function parseEvent(value: Record<string, unknown>): EventMessage {
  const { event, payload } = value;
  if (!(EVENTS as readonly unknown[]).includes(event))
    fail(`event must be one of ${EVENTS.join(', ')}, not ${describe(event)}`);
  const name = event as ParleyEvent;
  switch (name) {
    case 'ready':
    case 'open':
    case 'close':
      // JSON drops `payload: undefined`; null is taken as its JSON spelling.
      if (payload !== undefined && payload !== null) fail(`the ${name} event carries no payload`);
      return eventMessage(name, undefined);
    case 'message': {
      if (!isRecord(payload))
        fail(`the message event carries {conversation_id, author, text}, not ${describe(payload)}`);
      const { author } = payload;
      if (author !== 'ai' && author !== 'human' && author !== 'system')
        fail(`author must be 'ai', 'human' or 'system', not ${describe(author)}`);
      return eventMessage('message', {
        conversation_id: text(payload['conversation_id'], 'conversation_id', 200),
        author,
        text: text(payload['text'], 'text', MAX_MESSAGE_CHARS),
      });
    }
    case 'unread': {
      const count = isRecord(payload) ? payload['count'] : undefined;
      if (!Number.isSafeInteger(count) || (count as number) < 0)
        fail(`the unread event carries {count} with a whole number ≥ 0, not ${describe(count)}`);
      return eventMessage('unread', { count: count as number });
    }
    case 'error': {
      if (!isRecord(payload)) fail(`the error event carries {code, message}, not ${describe(payload)}`);
      return eventMessage('error', {
        code: text(payload['code'], 'code', 100),
        message: text(payload['message'], 'message', 2000),
      });
    }
  }
}

/**
 * JSON that is also safe inside JavaScript source handed to a WebView: `<`, `>`, `&` and the two
 * line separators are escaped, so no value can end a script element or break the literal.
 */
export function scriptLiteral(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The script the WebView runs before `/chat` loads (`injectedJavaScriptBeforeContentLoaded`): it
 * hands over the init message, but only to a page on `origin`, so that a page the WebView ends up
 * on by other means never sees the token.
 */
export function nativeInitScript(init: InitMessage, origin: string): string {
  return `(function(){if(location.origin!==${scriptLiteral(origin)})return;window.ParleyNative={init:${scriptLiteral(init)}};})();true;`;
}

/** The script that delivers a later message to the page (`injectJavaScript`), on `origin` only. */
export function nativeDeliveryScript(message: CommandMessage | InitMessage, origin: string): string {
  return `(function(){if(location.origin!==${scriptLiteral(origin)}||!window.ParleyBridge)return;window.ParleyBridge.receive(${scriptLiteral(message)});})();true;`;
}

/**
 * The origin of an absolute http(s) URL, spelled as `location.origin` spells it (lower case,
 * default port left out), or undefined. By hand: React Native's `URL` does not implement `origin`.
 */
export function originOf(url: string): string | undefined {
  const match = /^(https?):\/\/([^/?#@\s]+)(?=$|[/?#])/i.exec(url);
  if (!match) return undefined;
  const scheme = match[1]!.toLowerCase();
  const hostAndPort = match[2]!.toLowerCase();
  const defaultPort = scheme === 'https' ? ':443' : ':80';
  return `${scheme}://${hostAndPort.endsWith(defaultPort) ? hostAndPort.slice(0, -defaultPort.length) : hostAndPort}`;
}

/** The hosted chat's address for a BFF base URL (`https://chat.example.com` → `https://chat.example.com/chat`). Never with a token. */
export function hostedChatUrl(baseUrl: string): string {
  return `${baseUrl.replace(/[?#].*$/s, '').replace(/\/+$/, '')}/chat`;
}
