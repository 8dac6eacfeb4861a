import { COMMANDS, EVENTS, type ParleyEvent, type ParleyEvents, type ThemeSettings } from '../api.ts';
import {
  APP_PATH,
  requestStart,
  startForm,
  type MountWidget,
  type WidgetApp,
  type WidgetSettings,
} from '../protocol.ts';

/**
 * The loader behind `<script src=".../widget.js" data-site-key="pk_…" async>`. It stays tiny
 * (budget: 2 KB gzip): it reads its data attributes, defines `window.Parley` (a command queue that
 * is safe before the app has loaded, and the event listeners), draws the launcher in an open
 * shadow root, and loads the chat app on the first open or when the browser is idle.
 *
 * Private by default (issue 35): loading the app fetches only the widget's own files; the app
 * stores nothing and asks the BFF for nothing until the chat opens, unless this device already has
 * a session to resume. `Parley('consent', …)` is queued like any command: the app runs it before
 * anything it does could store.
 */
const LAUNCHER_CSS = `:host{all:initial!important}
.l{position:fixed;bottom:20px;right:20px;z-index:2147483000;width:56px;height:56px;border:0;border-radius:50%;background:var(--c,#1f3a5f);color:#fff;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25);display:grid;place-items:center}
.l.left{right:auto;left:20px}
.l:focus-visible{outline:3px solid #1d2330;outline-offset:2px;box-shadow:0 0 0 2px #fff}
.l svg{width:28px;height:28px;fill:currentColor}
.b{position:absolute;top:-4px;right:-4px;min-width:20px;height:20px;padding:0 5px;box-sizing:border-box;border-radius:10px;background:#b3261e;color:#fff;font:700 12px/20px system-ui,sans-serif;text-align:center}`;

type Listener = (payload: unknown) => void;
type Queued = [string, unknown[]];
interface Stub {
  (...args: unknown[]): unknown;
  q?: ArrayLike<unknown>[];
  ready?: Promise<void>;
  loaded?: boolean;
}

const script = document.currentScript as HTMLScriptElement | null;
const page = window as unknown as { Parley?: Stub };

if (script && !page.Parley?.loaded) {
  const data = script.dataset;
  const theme: ThemeSettings = {};
  if (data['color']) theme.color = data['color'];
  if (data['position'] === 'left' || data['position'] === 'right') theme.position = data['position'];
  if (data['mode'] === 'light' || data['mode'] === 'dark' || data['mode'] === 'auto') theme.mode = data['mode'];
  const settings: WidgetSettings = {
    baseUrl: new URL('.', script.src).href,
    siteKey: data['siteKey'],
    sessionToken: data['sessionToken'],
    locale: data['locale'],
    theme,
  };
  // Calls made before this script ran, through the snippet `Parley = Parley || function(){(Parley.q=Parley.q||[]).push(arguments)}`;
  // replayed through Parley below, so that `on` registers its listener and commands wait for the app.
  const early = Array.from(page.Parley?.q ?? [], (call) => Array.from(call));
  const queue: Queued[] = [];
  const listeners: Partial<Record<ParleyEvent, Set<Listener>>> = {};
  let app: WidgetApp | undefined;
  let loading: Promise<void> | undefined;
  let launcher: HTMLButtonElement | undefined;
  let badge: HTMLSpanElement | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const emit = <E extends ParleyEvent>(event: E, payload: ParleyEvents[E]) => {
    if (event === 'ready') markReady();
    if (event === 'unread' && badge) {
      const count = (payload as ParleyEvents['unread']).count;
      badge.hidden = count < 1;
      badge.textContent = count > 99 ? '99+' : String(count);
    }
    for (const listener of listeners[event] ?? []) {
      try {
        listener(payload);
      } catch (error) {
        console.error('[Parley] a listener failed', error);
      }
    }
  };

  const paint = (next: ThemeSettings) => {
    if (!launcher) return;
    if (next.color && /^#[0-9a-f]{3,8}$/i.test(next.color)) launcher.style.setProperty('--c', next.color);
    if (next.position) launcher.classList.toggle('left', next.position === 'left');
  };

  const load = () => {
    // With a session on this device the app asks for the chat's start at once: asked here, the answer
    // comes while the app's code loads (issue 34). Without one (or without storage) the app decides.
    if (!loading)
      try {
        const stored = (name: string) => localStorage.getItem(`parley:${settings.siteKey}:${name}`);
        const token: string = settings.sessionToken || JSON.parse(stored('session')!).token;
        settings.started = requestStart(settings.baseUrl, startForm(token, stored('conversation')));
      } catch {
        // Nothing stored: no session to resume.
      }
    return (loading ??= import(/* @vite-ignore */ settings.baseUrl + APP_PATH).then(
      (module: { mount: MountWidget }) => {
        app = module.mount({ settings, root: launcher!.getRootNode() as ShadowRoot, launcher, emit });
        for (const [command, args] of queue.splice(0)) app.command(command as never, args);
      },
      (error: unknown) => {
        loading = undefined;
        emit('error', { code: 'load_failed', message: `The chat could not be loaded: ${error}` });
      },
    ));
  };

  const Parley = ((command: unknown, ...args: unknown[]) => {
    if (command === 'on') {
      const [event, listener] = args as [ParleyEvent, Listener];
      if (!EVENTS.includes(event) || typeof listener !== 'function') {
        console.warn(`[Parley] on: expected one of ${EVENTS.join(', ')} and a function`);
        return () => undefined;
      }
      (listeners[event] ??= new Set()).add(listener);
      return () => listeners[event]?.delete(listener);
    }
    if (!COMMANDS.includes(command as never)) {
      const message = `Unknown command ${JSON.stringify(command)}; expected one of ${COMMANDS.join(', ')} or on`;
      console.warn(`[Parley] ${message}`);
      emit('error', { code: 'invalid_request', message });
      return undefined;
    }
    if (command === 'setTheme' && args[0] && typeof args[0] === 'object') paint(args[0] as ThemeSettings);
    if (app) app.command(command as never, args);
    else {
      queue.push([command as string, args]);
      if (command === 'open' || command === 'toggle') void load();
    }
    return undefined;
  }) as Stub;
  Parley.ready = ready;
  Parley.loaded = true;
  page.Parley = Parley;
  for (const call of early) Parley(...call);

  const start = () => {
    const host = document.createElement('div');
    host.setAttribute('data-parley', '');
    const root = host.attachShadow({ mode: 'open' });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(LAUNCHER_CSS);
    root.adoptedStyleSheets = [sheet];
    launcher = document.createElement('button');
    launcher.className = 'l';
    launcher.type = 'button';
    launcher.setAttribute('aria-label', 'Open chat');
    launcher.append(chatIcon());
    badge = document.createElement('span');
    badge.className = 'b';
    badge.hidden = true;
    badge.setAttribute('aria-hidden', 'true');
    launcher.append(badge);
    paint(theme);
    root.append(launcher);
    document.body.append(host);
    launcher.addEventListener('click', () => Parley('toggle'));
    if ('requestIdleCallback' in window) requestIdleCallback(() => void load(), { timeout: 4000 });
    else setTimeout(() => void load(), 2000);
  };

  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
}

/** The speech-bubble icon, built as elements (the widget never parses markup). */
function chatIcon(): SVGSVGElement {
  const namespace = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(namespace, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(namespace, 'path');
  path.setAttribute('d', 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8l-5 4V5a2 2 0 0 1 1-2z');
  svg.append(path);
  return svg;
}
