import { forwardRef, useCallback, useEffect, useImperativeHandle, useMemo, useRef } from 'react';
import { Linking, useColorScheme, type StyleProp, type ViewStyle } from 'react-native';
import { WebView, type WebViewMessageEvent, type WebViewProps } from 'react-native-webview';
import type { ParleyCommand, ParleyCommands, ThemeMode, ThemeSettings } from '../api.ts';
import {
  commandMessage,
  hostedChatUrl,
  initMessage,
  nativeDeliveryScript,
  nativeInitScript,
  originOf,
  parseBridgeMessage,
  type CommandMessage,
  type EventArgs,
} from './bridge.ts';

export interface ParleyChatProps {
  /** Where the Parley BFF answers, e.g. `https://chat.example.com`. The chat loads `<baseUrl>/chat`. */
  baseUrl: string;
  /** The site key (`pk_…`) for visitors. */
  siteKey?: string | undefined;
  /**
   * A verified customer's `wst_…` token, which your server got from `POST /v1/widget-sessions`
   * with its API key. It goes to the page over the bridge, never in the URL. A new token switches
   * the chat to that customer; taking it away (logging out) forgets the customer on this device.
   */
  sessionToken?: string | undefined;
  locale?: string | undefined;
  /** `auto` follows the device's setting (and its changes). */
  colorScheme?: ThemeMode | undefined;
  /** The main colour, as CSS hex (`#1f3a5f`). */
  color?: string | undefined;
  /** Every public event of the chat (`ready`, `message`, `unread`, `error`, …), by name with its payload. */
  onEvent?: ((...args: EventArgs) => void) | undefined;
  style?: StyleProp<ViewStyle> | undefined;
}

/** What a ref to `<ParleyChat>` gives: the same commands as the web widget's `Parley(...)`. */
export interface ParleyChatHandle {
  command<C extends ParleyCommand>(command: C, ...args: ParleyCommands[C]): void;
}

// The chat's links open in the device's browser, not in the chat's WebView.
const EXTERNAL_LINK = /^(https?:|mailto:|tel:)/i;

/**
 * The hosted Parley chat in a WebView, for React Native apps:
 *
 * @example
 * const chat = useRef<ParleyChatHandle>(null);
 * <ParleyChat ref={chat} baseUrl="https://chat.example.com" siteKey="pk_live_…" locale="de"
 *   onEvent={(event, payload) => { if (event === 'unread') setBadge(payload.count); }} />
 * chat.current?.command('setLocale', 'fr');
 */
export const ParleyChat = forwardRef<ParleyChatHandle, ParleyChatProps>(function ParleyChat(props, ref) {
  const { baseUrl, siteKey, sessionToken, locale, colorScheme = 'auto', color, onEvent, style } = props;
  const origin = originOf(baseUrl);
  if (origin === undefined)
    throw new TypeError(
      `ParleyChat: baseUrl must be an absolute http(s) URL like https://chat.example.com, not ${JSON.stringify(baseUrl)}.`,
    );

  const deviceScheme = useColorScheme();
  const mode: ThemeMode =
    colorScheme === 'auto'
      ? deviceScheme === 'dark' || deviceScheme === 'light'
        ? deviceScheme
        : 'auto'
      : colorScheme;
  const theme = useMemo<ThemeSettings>(() => (color === undefined ? { mode } : { mode, color }), [mode, color]);

  const webView = useRef<WebView>(null);
  // Commands wait until the page says `ready`; a reload of the page makes them wait again.
  const ready = useRef(false);
  const waiting = useRef<CommandMessage[]>([]);
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;

  const deliver = useCallback(
    (message: CommandMessage) => {
      if (ready.current && webView.current) webView.current.injectJavaScript(nativeDeliveryScript(message, origin));
      else waiting.current.push(message);
    },
    [origin],
  );

  useImperativeHandle(ref, () => ({ command: (command, ...args) => deliver(commandMessage(command, ...args)) }), [
    deliver,
  ]);

  // Settings the page was started with come in the init; later changes of the props become commands.
  const initScript = nativeInitScript(initMessage({ siteKey, token: sessionToken, locale, theme }), origin);
  const sent = useRef({ sessionToken, locale, theme });
  useEffect(() => {
    const before = sent.current;
    sent.current = { sessionToken, locale, theme };
    if (sessionToken !== before.sessionToken)
      deliver(
        sessionToken === undefined ? commandMessage('shutdown') : commandMessage('identify', { token: sessionToken }),
      );
    if (locale !== undefined && locale !== before.locale) deliver(commandMessage('setLocale', locale));
    if (theme !== before.theme) deliver(commandMessage('setTheme', theme));
  }, [sessionToken, locale, theme, deliver]);

  const onMessage = useCallback(
    (event: WebViewMessageEvent) => {
      // Only the chat page speaks for the chat.
      if (originOf(event.nativeEvent.url) !== origin) return;
      const parsed = parseBridgeMessage(event.nativeEvent.data);
      if (!parsed.ok || parsed.message.kind !== 'event') return;
      const { event: name, payload } = parsed.message;
      if (name === 'ready' && !ready.current) {
        ready.current = true;
        for (const message of waiting.current.splice(0)) deliver(message);
      }
      onEventRef.current?.(...([name, payload] as EventArgs));
    },
    [origin, deliver],
  );

  const openOutside = (url: string) => {
    if (EXTERNAL_LINK.test(url)) void Linking.openURL(url).catch(() => undefined);
  };
  const onShouldStartLoadWithRequest: WebViewProps['onShouldStartLoadWithRequest'] = (request) => {
    if (originOf(request.url) === origin || request.url === 'about:blank') return true;
    openOutside(request.url);
    return false;
  };

  return (
    <WebView
      ref={webView}
      style={style}
      source={{ uri: hostedChatUrl(baseUrl) }}
      injectedJavaScriptBeforeContentLoaded={initScript}
      onMessage={onMessage}
      onLoadStart={() => {
        ready.current = false;
      }}
      onShouldStartLoadWithRequest={onShouldStartLoadWithRequest}
      onOpenWindow={(event) => openOutside(event.nativeEvent.targetUrl)}
      onError={(event) =>
        onEventRef.current?.('error', {
          code: 'upstream_unavailable',
          message: `The chat could not be loaded: ${event.nativeEvent.description}`,
        })
      }
      onHttpError={(event) =>
        onEventRef.current?.('error', {
          code: 'upstream_unavailable',
          message: `The chat answered HTTP ${event.nativeEvent.statusCode}.`,
        })
      }
    />
  );
});
