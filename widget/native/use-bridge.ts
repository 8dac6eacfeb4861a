/** The app's side of the bridge to the hosted chat page: commands held until the page is ready, its events passed on, and prop changes sent as commands. */
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useColorScheme } from 'react-native';
import type { WebView, WebViewMessageEvent } from 'react-native-webview';
import type { ThemeMode, ThemeSettings } from '../api.ts';
import {
  commandMessage,
  nativeDeliveryScript,
  originOf,
  parseBridgeMessage,
  type CommandMessage,
  type EventArgs,
} from './bridge.ts';

/** The theme to ask for: `auto` follows the device's setting (and its changes). */
export function useTheme(colorScheme: ThemeMode, color: string | undefined): ThemeSettings {
  const deviceScheme = useColorScheme();
  const mode: ThemeMode =
    colorScheme === 'auto'
      ? deviceScheme === 'dark' || deviceScheme === 'light'
        ? deviceScheme
        : 'auto'
      : colorScheme;
  return useMemo<ThemeSettings>(() => (color === undefined ? { mode } : { mode, color }), [mode, color]);
}

/**
 * The WebView's end of the bridge for the chat page at `origin`: `deliver` sends a command, and
 * `onMessage` passes the page's events to the latest `onEvent`, from that page only.
 */
export function useBridge(origin: string, onEvent: ((...args: EventArgs) => void) | undefined) {
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

  return {
    webView,
    deliver,
    onMessage,
    /** The page (re)loads: commands wait for its `ready` again. */
    onLoadStart: () => {
      ready.current = false;
    },
    /** An event of the app's own making (the page could not load), told as the page's would be. */
    emit: (...args: EventArgs) => onEventRef.current?.(...args),
  };
}

/** Sends the page a command for each change of these props since the last render (the init carried their first values). */
export function useSettingCommands(
  sessionToken: string | undefined,
  locale: string | undefined,
  theme: ThemeSettings,
  deliver: (message: CommandMessage) => void,
): void {
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
}
