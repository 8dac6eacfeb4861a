import { render } from 'preact';
import { LOCALES, type Locale, type ParleyCommand, type ParleyEvents, type ThemeSettings } from '../api.ts';
import type { MountWidget } from '../protocol.ts';
import { createApi } from './api.ts';
import { createChat } from './chat/chat.ts';
import { Panel } from './components/panel/panel.tsx';
import { I18n } from './i18n/context.ts';
import { loadTranslator, pickLocale, supportedLocale, translator, type Translator } from './i18n/index.ts';
import { siteStorage } from './storage.ts';
import { APP_CSS } from './styles.ts';
import { loadChunk, popups } from './use-chunk.ts';
import { resolveTheme, validColor } from './theme.ts';

/**
 * Mounts the chat into the loader's shadow root (or, without a launcher, as the hosted full-page
 * chat) and gives the loader its command handler.
 */
export const mount: MountWidget = ({ settings, root, launcher, emit }) => {
  const fullPage = !launcher;
  const adopt = (css: string) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  };
  adopt(APP_CSS);
  const container = document.createElement('div');
  container.className = 'root';
  root.append(container);

  // A new message while the chat is closed shows on a card above the launcher, until opened or dismissed.
  let peek: ParleyEvents['message'] | undefined;
  let peeks: typeof import('./popups.ts') | undefined;
  let i18n: Translator = translator('en');
  const chat = createChat({
    api: createApi(settings.baseUrl),
    storage: siteStorage(settings.siteKey ?? 'none'),
    baseUrl: settings.baseUrl,
    siteKey: settings.siteKey,
    sessionToken: settings.sessionToken,
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
  let wanted = settings.locale;
  let answers: typeof import('./answers.ts') | undefined;
  const systemDark = matchMedia('(prefers-color-scheme: dark)');

  // The one place that renders: once per change of the chat's state (or of theme or language).
  const draw = () => {
    const resolved = resolveTheme(theme, systemDark.matches, chat.state.config?.inbox.color);
    for (const [name, value] of Object.entries(resolved.style)) container.style.setProperty(name, value);
    container.classList.toggle('left', resolved.position === 'left');
    container.dataset['theme'] = resolved.dark ? 'dark' : 'light';
    container.lang = i18n.locale;
    container.dir = i18n.dir;
    if (launcher) {
      const unread = chat.state.unread;
      launcher.setAttribute(
        'aria-label',
        chat.state.open
          ? i18n.t('closeChat')
          : unread
            ? i18n.t('openChatUnread', { count: unread })
            : i18n.t('openChat'),
      );
      launcher.setAttribute('aria-expanded', String(chat.state.open));
      launcher
        .querySelector('path')
        ?.setAttribute(
          'd',
          chat.state.open
            ? 'M5 6.4 6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12z'
            : bubble!,
        );
      if (chat.state.open) peek = undefined;
    }
    render(
      <I18n.Provider value={i18n}>
        <Panel chat={chat} state={chat.state} fullPage={fullPage} onClose={() => close()} answers={answers} />
        {launcher && (
          // Present from the start, so that screen readers announce the card politely when it appears.
          <div aria-live="polite">
            {peek && peeks && (
              <peeks.Peek
                message={peek}
                chat={chat}
                onOpen={() => chat.setOpen(true)}
                onDismiss={() => {
                  peek = undefined;
                  draw();
                  launcher.focus();
                }}
              />
            )}
          </div>
        )}
      </I18n.Provider>,
      container,
    );
  };

  const close = () => {
    chat.setOpen(false);
    launcher?.focus();
  };

  const setLocale = async (locale: string | undefined) => {
    wanted = locale;
    const chosen = pickLocale(locale ?? chat.state.config?.inbox.locale);
    const loaded = await loadTranslator(chosen);
    if (pickLocale(wanted ?? chat.state.config?.inbox.locale) === loaded.locale) {
      i18n = loaded;
      draw();
    }
  };

  let wasOpen = false;
  let inboxLocale: string | undefined;
  chat.subscribe(() => {
    if (wasOpen && !chat.state.open) launcher?.focus();
    wasOpen = chat.state.open;
    // The inbox's own language counts when neither the page nor the browser chose one.
    const configured = chat.state.config?.inbox.locale;
    if (configured !== inboxLocale) {
      inboxLocale = configured;
      if (!wanted && !navigator.languages?.some((language) => supportedLocale(language))) void setLocale(undefined);
    }
    draw();
  });
  systemDark.addEventListener('change', draw);
  followKeyboard(container);

  const fail = (message: string) => emit('error', { code: 'invalid_request', message });
  const commands: Record<ParleyCommand, (args: unknown[]) => void> = {
    open: () => chat.setOpen(true),
    close: () => close(),
    toggle: () => (chat.state.open ? close() : chat.setOpen(true)),
    identify: ([options]) => {
      const token = (options as { token?: unknown } | undefined)?.token;
      if (typeof token !== 'string') return fail('identify takes {token: "wst_…"}.');
      void chat.identify(token);
    },
    shutdown: () => void chat.shutdown(),
    setLocale: ([locale]) => {
      if (typeof locale !== 'string' || !supportedLocale(locale))
        return fail(`setLocale takes one of ${LOCALES.join(', ')}.`);
      void setLocale(locale as Locale);
    },
    setTheme: ([options]) => {
      if (!options || typeof options !== 'object') return fail('setTheme takes {color?, position?, mode?}.');
      const { color, position, mode } = options as ThemeSettings;
      if (color !== undefined && !validColor(color))
        return fail('setTheme: color must be a hex colour such as #1f3a5f.');
      if (position !== undefined && position !== 'left' && position !== 'right')
        return fail('setTheme: position must be left or right.');
      if (mode !== undefined && mode !== 'light' && mode !== 'dark' && mode !== 'auto')
        return fail('setTheme: mode must be light, dark or auto.');
      theme = { ...theme, ...(color ? { color } : {}), ...(position ? { position } : {}), ...(mode ? { mode } : {}) };
      draw();
    },
  };

  void setLocale(settings.locale);
  draw();
  // Formatting, cards and quick replies come after the first paint: until then a message reads as plain text.
  void import('./answers.ts').then((module) => {
    adopt(module.CSS);
    answers = module;
    draw();
  });
  if (fullPage) chat.setOpen(true);
  else void chat.warmUp();
  emit('ready', undefined);

  return {
    command(command, args) {
      const run = commands[command];
      if (!run) return fail(`Unknown command ${JSON.stringify(command)}.`);
      run(Array.isArray(args) ? args : []);
    },
  };
};

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
