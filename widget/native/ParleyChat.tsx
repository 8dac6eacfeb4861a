import { forwardRef, useImperativeHandle } from 'react';
import { Linking, type StyleProp, type ViewStyle } from 'react-native';
import { WebView } from 'react-native-webview';
import type { ParleyCommand, ParleyCommands, ThemeMode } from '../api.ts';
import { commandMessage, hostedChatUrl, initMessage, nativeInitScript, originOf, type EventArgs } from './bridge.ts';
import { useBridge, useSettingCommands, useTheme } from './use-bridge.ts';

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

const openOutside = (url: string) => {
  if (EXTERNAL_LINK.test(url)) void Linking.openURL(url).catch(() => undefined);
};

/** Only the chat page (and a blank page) loads in the WebView; any other address opens outside, when it is a link. */
function loadsInside(url: string, origin: string): boolean {
  if (originOf(url) === origin || url === 'about:blank') return true;
  openOutside(url);
  return false;
}

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

  const theme = useTheme(colorScheme, color);
  const { webView, deliver, onMessage, onLoadStart, emit } = useBridge(origin, onEvent);
  useImperativeHandle(ref, () => ({ command: (command, ...args) => deliver(commandMessage(command, ...args)) }), [
    deliver,
  ]);
  // Settings the page was started with come in the init; later changes of the props become commands.
  const initScript = nativeInitScript(initMessage({ siteKey, token: sessionToken, locale, theme }), origin);
  useSettingCommands(sessionToken, locale, theme, deliver);

  return (
    <WebView
      ref={webView}
      style={style}
      source={{ uri: hostedChatUrl(baseUrl) }}
      injectedJavaScriptBeforeContentLoaded={initScript}
      onMessage={onMessage}
      onLoadStart={onLoadStart}
      onShouldStartLoadWithRequest={(request) => loadsInside(request.url, origin)}
      onOpenWindow={(event) => openOutside(event.nativeEvent.targetUrl)}
      onError={(event) =>
        emit('error', {
          code: 'upstream_unavailable',
          message: `The chat could not be loaded: ${event.nativeEvent.description}`,
        })
      }
      onHttpError={(event) =>
        emit('error', {
          code: 'upstream_unavailable',
          message: `The chat answered HTTP ${event.nativeEvent.statusCode}.`,
        })
      }
    />
  );
});
