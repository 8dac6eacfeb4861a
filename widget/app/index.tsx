import { render } from 'preact';
import type { ParleyEvents, ThemeSettings } from '../api.ts';
import type { MountWidget } from '../protocol.ts';
import { createApi } from './api.ts';
import { createChat, type Chat } from './chat/chat.ts';
import { hostCommands } from './commands.ts';
import { Panel } from './components/panel/panel.tsx';
import { I18n } from './i18n/context.ts';
import { loadTranslator, pickLocale, supportedLocale, translator, type Translator } from './i18n/index.ts';
import { siteStorage } from './storage.ts';
import { APP_CSS } from './styles.ts';
import { loadChunk, popups } from './use-chunk.ts';
import { resolveTheme, type ResolvedTheme } from './theme.ts';

/**
 * Mounts the chat into the loader's shadow root (or, without a launcher, as the hosted full-page
 * chat) and gives the loader its command handler.
 */
export const mount: MountWidget = ({ settings, root, launcher, emit }) => {
  const container = createContainer(root);

  // A new message while the chat is closed shows on a card above the launcher, until opened or dismissed.
  let peek: ParleyEvents['message'] | undefined;
  let peeks: typeof import('./popups.ts') | undefined;
  let i18n: Translator = translator('en');
  const storage = siteStorage(settings.siteKey ?? 'none');
  const chat = createChat({
    // The loader's baseUrl, siteKey and sessionToken.
    ...settings,
    api: createApi(settings.baseUrl, settings.started),
    storage,
    locale: () => i18n.locale,
    emit: (event, payload) => {
      emit(event, payload);
      if (event === 'message' && launcher && !chat.state.open) {
        peek = payload as ParleyEvents['message'];
        void loadChunk(popups, container).then((module) => {
          peeks = module;
          draw();
        });
      }
    },
  });
  // While open, the launcher shows a close (X) icon; the loader drew its speech bubble.
  const bubble = launcher?.querySelector('path')?.getAttribute('d');
  let theme: ThemeSettings = { ...settings.theme };
  let answers: typeof import('./answers.ts') | undefined;
  const systemDark = matchMedia('(prefers-color-scheme: dark)');
  const close = () => {
    chat.setOpen(false);
    launcher?.focus();
  };

  // The one place that renders: once per change of the chat's state (or of theme or language).
  const draw = () => {
    paint(container, resolveTheme(theme, systemDark.matches, chat.state.config?.inbox.color), i18n);
    if (launcher) {
      paintLauncher(launcher, chat.state.open, chat.state.unread, i18n, bubble!);
      if (chat.state.open) peek = undefined;
    }
    const dismiss = () => {
      peek = undefined;
      draw();
      launcher?.focus();
    };
    render(view(i18n, chat, launcher, close, answers, peek, peeks, dismiss), container);
  };
  const setLocale = followLanguage(chat, settings.locale, (loaded) => {
    i18n = loaded;
    draw();
  });

  let wasOpen = false;
  chat.subscribe(() => {
    if (wasOpen && !chat.state.open) launcher?.focus();
    wasOpen = chat.state.open;
    draw();
  });
  systemDark.addEventListener('change', draw);
  followKeyboard(container);

  draw();
  // Formatting, cards and quick replies come after the first paint: until then a message reads as plain text.
  void import('./answers.ts').then((module) => {
    adopt(root, module.CSS);
    answers = module;
    draw();
  });
  if (launcher) void chat.warmUp();
  else chat.setOpen(true);
  emit('ready', undefined);
  const setTheme = (changes: ThemeSettings) => {
    theme = { ...theme, ...changes };
    draw();
  };

  return hostCommands(chat, close, setLocale, setTheme, emit, storage);
};

/** Adds styles to the shadow root: the app's first, then each chunk's as it loads. */
function adopt(root: ShadowRoot, css: string): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

/** The element everything is drawn into, with the app's styles, in the loader's shadow root. */
function createContainer(root: ShadowRoot): HTMLElement {
  adopt(root, APP_CSS);
  const container = document.createElement('div');
  container.className = 'root';
  root.append(container);
  return container;
}

/**
 * The widget's language: the page's (the loader's setting, then `setLocale`), else the browser's,
 * else the inbox's own. A translator shows once loaded, and only if it is still the one wanted.
 */
function followLanguage(chat: Chat, wanted: string | undefined, show: (i18n: Translator) => void) {
  const setLocale = async (locale: string | undefined) => {
    wanted = locale;
    const chosen = pickLocale(locale ?? chat.state.config?.inbox.locale);
    const loaded = await loadTranslator(chosen);
    if (pickLocale(wanted ?? chat.state.config?.inbox.locale) === loaded.locale) show(loaded);
  };
  let inboxLocale: string | undefined;
  chat.subscribe(() => {
    // The inbox's own language counts when neither the page nor the browser chose one.
    const configured = chat.state.config?.inbox.locale;
    if (configured !== inboxLocale) {
      inboxLocale = configured;
      if (!wanted && !navigator.languages?.some((language) => supportedLocale(language))) void setLocale(undefined);
    }
  });
  void setLocale(wanted);
  return setLocale;
}

/** The theme's colours, the side the launcher is on, light or dark, and the language's direction. */
function paint(container: HTMLElement, resolved: ResolvedTheme, i18n: Translator): void {
  for (const [name, value] of Object.entries(resolved.style)) container.style.setProperty(name, value);
  container.classList.toggle('left', resolved.position === 'left');
  container.dataset['theme'] = resolved.dark ? 'dark' : 'light';
  container.lang = i18n.locale;
  container.dir = i18n.dir;
}

/** While open, the launcher shows a close (X) icon and says it closes the chat; closed, its bubble and the unread count. */
function paintLauncher(launcher: HTMLButtonElement, open: boolean, unread: number, i18n: Translator, bubble: string) {
  launcher.setAttribute(
    'aria-label',
    open ? i18n.t('closeChat') : unread ? i18n.t('openChatUnread', { count: unread }) : i18n.t('openChat'),
  );
  launcher.setAttribute('aria-expanded', String(open));
  launcher
    .querySelector('path')
    ?.setAttribute(
      'd',
      open ? 'M5 6.4 6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12z' : bubble,
    );
}

/**
 * The panel, and above the launcher (when there is one) the card of a message that came while the
 * chat was closed. Its inputs come by position, as the chat's parts do (chat/chat.ts): named in an
 * object they would cost the first download bytes.
 */
function view(
  i18n: Translator,
  chat: Chat,
  launcher: HTMLButtonElement | undefined,
  onClose: () => void,
  answers: typeof import('./answers.ts') | undefined,
  peek: ParleyEvents['message'] | undefined,
  peeks: typeof import('./popups.ts') | undefined,
  onDismiss: () => void,
) {
  return (
    <I18n.Provider value={i18n}>
      <Panel chat={chat} state={chat.state} fullPage={!launcher} onClose={onClose} answers={answers} />
      {launcher && (
        // Present from the start, so that screen readers announce the card politely when it appears.
        <div aria-live="polite">
          {peek && peeks && (
            <peeks.Peek message={peek} chat={chat} onOpen={() => chat.setOpen(true)} onDismiss={onDismiss} />
          )}
        </div>
      )}
    </I18n.Provider>
  );
}

/** On phones the panel fills the screen and stays above the on-screen keyboard (visualViewport). */
function followKeyboard(container: HTMLElement): void {
  const viewport = window.visualViewport;
  if (!viewport) return;
  const update = () => {
    container.style.setProperty('--p-viewport-height', `${viewport.height}px`);
    container.style.setProperty('--p-viewport-top', `${viewport.offsetTop}px`);
  };
  viewport.addEventListener('resize', update);
  viewport.addEventListener('scroll', update);
  update();
}
