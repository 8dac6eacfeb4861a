/** @jsxImportSource react */
import { forwardRef, useEffect, useId, useImperativeHandle, useRef, useState } from 'react';

/**
 * `react-native-webview`'s `WebView` for the web, for scripts/pack.test.ts only: its React Native
 * app is bundled with `react-native` → `react-native-web` and `react-native-webview` → this file.
 *
 * Why not react-native-web-webview or an iframe speaking postMessage: `<ParleyChat>` relies on
 * what only a WebView's engine can do to the page it shows — run a script at document start
 * (`injectedJavaScriptBeforeContentLoaded`), run one later (`injectJavaScript`), and give the page
 * `window.ReactNativeWebView.postMessage`, whose messages arrive with the page's real URL. A web
 * page cannot do that to a cross-origin frame, and `/chat`'s strict policy (no 'unsafe-eval')
 * blocks any eval the frame might do for it. So this component is the JavaScript half, an iframe,
 * and the engine half is Chromium's, reached through the bindings `hostWebViews` installs
 * (scripts/web-webview-host.ts) as react-native-webview reaches WKWebView's or Android's.
 */

interface WebViewEngine {
  __webViewPrepare(name: string, scriptBeforeContentLoaded: string): Promise<void>;
  __webViewInject(name: string, script: string): Promise<void>;
  __webViewMessages?: Record<string, (url: string, data: string) => void>;
}

/** The props `<ParleyChat>` uses; the others are taken and ignored. */
export interface WebViewProps {
  source: { uri: string };
  injectedJavaScriptBeforeContentLoaded?: string;
  onMessage?: (event: { nativeEvent: { url: string; data: string } }) => void;
  onLoadStart?: () => void;
  onShouldStartLoadWithRequest?: (request: { url: string }) => boolean;
}

export interface WebViewHandle {
  injectJavaScript(script: string): void;
}

const engine = window as unknown as WebViewEngine;

export const WebView = forwardRef<WebViewHandle, WebViewProps>(function WebView(props, ref) {
  // The frame's name is how the engine half finds it.
  const name = `webview-${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  const [src, setSrc] = useState<string>();
  const latest = useRef(props);
  latest.current = props;

  useImperativeHandle(ref, () => ({ injectJavaScript: (script) => void engine.__webViewInject(name, script) }), [name]);

  useEffect(() => {
    const { source, injectedJavaScriptBeforeContentLoaded = '' } = latest.current;
    engine.__webViewMessages = {
      ...engine.__webViewMessages,
      [name]: (url, data) => latest.current.onMessage?.({ nativeEvent: { url, data } }),
    };
    let unmounted = false;
    // The document-start script is registered before the first load, as a native WebView does.
    void engine.__webViewPrepare(name, injectedJavaScriptBeforeContentLoaded).then(() => {
      if (unmounted || latest.current.onShouldStartLoadWithRequest?.({ url: source.uri }) === false) return;
      latest.current.onLoadStart?.();
      setSrc(source.uri);
    });
    return () => {
      unmounted = true;
      delete engine.__webViewMessages?.[name];
    };
  }, [name]);

  return <iframe name={name} src={src} title="Chat" style={{ border: 0, width: '100%', height: '100%' }} />;
});
