import { APP_PATH, type MountWidget, type WidgetApp, type WidgetSettings } from '../protocol.ts';
import { continueFromLink } from './continuation.ts';
import { markedProblem, showProblem } from './problem.ts';
import {
  commandMessage,
  eventMessage,
  initMessage,
  isSiteKey,
  parseBridgeMessage,
  refusal,
  type CommandMessage,
  type EventMessage,
  type InitMessage,
  type ParsedBridgeMessage,
} from '../native/bridge.ts';

/**
 * The hosted chat page's script (`GET /chat` loads it as `widget/chat.js`): the chat filling the
 * page, for app WebViews and direct links. It waits for an init message (site key and/or a
 * verified customer's token, locale, theme), mounts the chat app without a launcher, and from
 * then on forwards the app's events out and commands in. The bridge is one of:
 *
 * - React Native: `<ParleyChat>` sets `window.ParleyNative = {init}` before the page loads, calls
 *   `window.ParleyBridge.receive(message)` for later commands, and gets events through
 *   `window.ReactNativeWebView.postMessage(json)`;
 * - postMessage with the page that frames `/chat` (`window.parent`) or opened it (`window.opener`):
 *   only messages from that window count; the origin of its first valid message is pinned, and
 *   events go to that exact origin only, never `'*'` (OWASP HTML5 cheat sheet, postMessage);
 * - a direct link `/chat?site_key=pk_…`, when nothing else is there to send an init.
 *
 * A token never comes from the URL: URLs end up in logs, history and Referer headers (OWASP
 * Session Management). Token-like query parameters are ignored and removed from the address bar.
 */

interface HostWindow {
  ParleyNative?: { init?: unknown };
  ReactNativeWebView?: { postMessage(message: string): void };
  ParleyBridge?: { receive(message: unknown): void };
}

// Bounds on what the page holds for a peer, whatever the peer sends.
const MAX_WAITING_EVENTS = 100;
const MAX_QUEUED_COMMANDS = 50;

const CREDENTIAL_NAME = /token|secret|password|auth|api[_-]?key/i;
const CREDENTIAL_VALUE = /^(wst|service)_/;

const host = window as Window & HostWindow;
// Through a variable: Vite rewrites `new URL('literal', import.meta.url)` as an asset reference.
const scriptUrl = import.meta.url;
/** Where the BFF answers: `chat.js` is served at `<base>widget/chat.js`. */
const baseUrl = new URL('../', scriptUrl).href;

const query = withoutCredentials();
const querySiteKey = isSiteKey(query.get('site_key')) ? (query.get('site_key') ?? undefined) : undefined;
/** What the server found wrong with the address's site key, if anything (bff/routes/hosted-chat.ts). */
const problem = markedProblem();

const native = host.ReactNativeWebView;
const nativeInit = host.ParleyNative?.init;
const inNative = native !== undefined || nativeInit !== undefined;
/** The window that may talk to this page over postMessage: the one framing it, or the one that opened it. */
const peer: Window | null = inNative
  ? null
  : window.parent !== window
    ? window.parent
    : (window.opener as Window | null);
let peerOrigin: string | undefined;
const waitingEvents: EventMessage[] = [];

let started = false;
let app: WidgetApp | undefined;
const queuedCommands: CommandMessage[] = [];
/** What the chat runs with now, to tell a repeated init from a changed one. */
const applied: {
  siteKey?: string | undefined;
  token?: string | undefined;
  locale?: string | undefined;
  theme?: string | undefined;
} = {};

/** Removes credentials from the address bar (history.replaceState), keeping `site_key`; gives the query left. */
function withoutCredentials(): URLSearchParams {
  const url = new URL(location.href);
  let changed = false;
  for (const [name, value] of [...url.searchParams]) {
    if ((name !== 'site_key' && CREDENTIAL_NAME.test(name)) || CREDENTIAL_VALUE.test(value)) {
      url.searchParams.delete(name);
      changed = true;
    }
  }
  if (/token|wst_|service_/i.test(url.hash)) {
    url.hash = '';
    changed = true;
  }
  if (changed) history.replaceState(history.state, '', url.href);
  return url.searchParams;
}

/** Sends an event to whoever is on the other end of the bridge. */
function send(message: EventMessage): void {
  if (native) {
    native.postMessage(JSON.stringify(message));
  } else if (peer) {
    if (peerOrigin !== undefined) peer.postMessage(message, peerOrigin);
    else if (waitingEvents.length < MAX_WAITING_EVENTS) waitingEvents.push(message);
  }
}

function pinPeerOrigin(origin: string): void {
  peerOrigin = origin;
  for (const message of waitingEvents.splice(0)) send(message);
}

function handle(message: ParsedBridgeMessage): void {
  switch (message.kind) {
    case 'init':
      // The page's own address named a site key the server refused: the error page stays.
      if (problem)
        return send(
          refusal(
            `The chat cannot open: the site_key in the page's address is ${problem === 'unknown_site_key' ? 'unknown or revoked' : 'not a site key'}.`,
          ),
        );
      if (started) update(message);
      else void start(message);
      return;
    case 'command':
      run(message);
      return;
    case 'event':
      send(refusal('The chat page takes init and command messages; events only come from it.'));
  }
}

async function start(init: InitMessage): Promise<void> {
  const siteKey = init.siteKey ?? querySiteKey;
  if (siteKey === undefined && init.token === undefined) {
    send(refusal('init needs a siteKey (pk_…) or a token (wst_…).'));
    return;
  }
  // Framed, a live key must be in the page's address, where the server lets only the key's own sites frame it.
  if (window.parent !== window && siteKey !== querySiteKey && siteKey?.startsWith('pk_live_')) {
    send(
      refusal(
        'A framed chat takes a live site key only in its address (/chat?site_key=pk_live_…), so that only the sites listed on the key may frame it.',
      ),
    );
    return;
  }
  started = true;
  Object.assign(applied, {
    siteKey,
    token: init.token,
    locale: init.locale,
    theme: init.theme && JSON.stringify(init.theme),
  });
  const settings: WidgetSettings = {
    baseUrl,
    siteKey,
    sessionToken: init.token,
    locale: init.locale,
    theme: init.theme,
  };
  // A digest's link opens its conversation (a link that does not work leaves the chat as it is).
  await continueFromLink(baseUrl, siteKey).catch(() => undefined);
  let mount: MountWidget;
  try {
    ({ mount } = (await import(/* @vite-ignore */ baseUrl + APP_PATH)) as { mount: MountWidget });
  } catch {
    started = false;
    send(refusal('The chat could not be loaded. Please try again later.', 'upstream_unavailable'));
    return;
  }
  app = mount({
    settings,
    root: chatRoot(),
    launcher: undefined,
    emit: (event, payload) => send(eventMessage(event, payload)),
  });
  for (const command of queuedCommands.splice(0)) run(command);
}

/**
 * The chat filling the page: no corner, shadow or opening motion, and on a wide screen a centred
 * column of at most 720 px (lines stay readable; header and composer line up with the log).
 * Here rather than in the app's styles, which every site's first download carries.
 */
const FULL_PAGE_CSS = `.panel.full{position:static;width:100%;max-width:none;height:100%;max-height:none;border-radius:0;box-shadow:none;animation:none}
.panel.full>*{padding-inline:max(var(--s3),calc(50% - 360px))}`;

/** The open shadow root the chat draws in, on the page's full-height container. */
function chatRoot(): ShadowRoot {
  let container = document.getElementById('parley-chat');
  if (!container) {
    container = document.createElement('div');
    container.id = 'parley-chat';
    document.body.append(container);
  }
  if (container.shadowRoot) return container.shadowRoot;
  const root = container.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(FULL_PAGE_CSS);
  root.adoptedStyleSheets = [sheet];
  return root;
}

/** An init after the chat started (a peer that repeats it, or changed settings) becomes commands. */
function update(init: InitMessage): void {
  if (init.siteKey !== undefined && init.siteKey !== applied.siteKey) {
    send(refusal('The chat already runs with another site key; load the page again to change it.'));
    return;
  }
  if (init.token !== undefined && init.token !== applied.token) run(commandMessage('identify', { token: init.token }));
  if (init.locale !== undefined && init.locale !== applied.locale) run(commandMessage('setLocale', init.locale));
  if (init.theme !== undefined && JSON.stringify(init.theme) !== applied.theme)
    run(commandMessage('setTheme', init.theme));
}

function run(message: CommandMessage): void {
  if (!app) {
    if (queuedCommands.length < MAX_QUEUED_COMMANDS) queuedCommands.push(message);
    else send(refusal(`At most ${MAX_QUEUED_COMMANDS} commands wait for the chat to start.`));
    return;
  }
  if (message.command === 'identify') applied.token = message.args[0].token;
  if (message.command === 'setLocale') applied.locale = message.args[0];
  if (message.command === 'setTheme') applied.theme = JSON.stringify(message.args[0]);
  try {
    app.command(message.command, message.args);
  } catch {
    send(refusal(`The chat could not run ${message.command}.`, 'internal'));
  }
}

/** The React Native side calls this through `injectJavaScript`; anything it passes is checked. */
function receiveFromNative(data: unknown): void {
  const parsed = parseBridgeMessage(data);
  if (parsed.ok) handle(parsed.message);
  else send(refusal(`The message was refused: ${parsed.reason}.`));
}

host.ParleyBridge = { receive: receiveFromNative };

if (peer) {
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    // Only the framing or opening window counts, and once pinned, only from the same origin (it
    // may have navigated elsewhere since). An opaque origin ('null') cannot be answered without '*'.
    if (event.source !== peer || event.origin === 'null') return;
    if (peerOrigin !== undefined && event.origin !== peerOrigin) return;
    const parsed = parseBridgeMessage(event.data);
    if (!parsed.ok) {
      // Other scripts' messages are none of the chat's business; a broken Parley message is
      // answered, to the origin that sent it.
      if (!parsed.foreign) peer.postMessage(refusal(`The message was refused: ${parsed.reason}.`), event.origin);
      return;
    }
    if (peerOrigin === undefined) pinPeerOrigin(event.origin);
    handle(parsed.message);
  });
}

if (problem) void showProblem(chatRoot(), problem);
if (nativeInit !== undefined) receiveFromNative(nativeInit);
else if (!inNative && !peer && !problem) {
  // A direct visit: the address is all there is to go on.
  if (querySiteKey !== undefined) void start(initMessage({ siteKey: querySiteKey }));
  else void showProblem(chatRoot(), 'missing_site_key');
}
