/** The host page's commands (`Parley('open')`, `Parley('setTheme', {…})`, …): each checks its arguments, then acts. */
import { LOCALES, type Locale, type ParleyCommand, type ThemeSettings } from '../api.ts';
import type { MountContext, WidgetApp } from '../protocol.ts';
import type { Chat } from './chat/chat.ts';
import { supportedLocale } from './i18n/index.ts';
import type { SiteStorage } from './storage.ts';
import { validColor } from './theme.ts';

/**
 * The loader's command handler: a wrong command or argument fires an 'error' event to the page
 * instead. `setLocale` and `setTheme` change what the widget draws beside the chat (its language and
 * look); `close` also gives the launcher back its focus.
 */
export function hostCommands(
  chat: Chat,
  close: () => void,
  setLocale: (locale: Locale) => Promise<void>,
  setTheme: (changes: ThemeSettings) => void,
  emit: MountContext['emit'],
  storage: SiteStorage,
): WidgetApp {
  const fail = (message: string) => emit('error', { code: 'invalid_request', message });
  const commands: Record<ParleyCommand, (args: unknown[]) => void> = {
    open: () => chat.setOpen(true),
    close,
    toggle: () => (chat.state.open ? close() : chat.setOpen(true)),
    identify: ([options]) => {
      const token = (options as { token?: unknown } | undefined)?.token;
      if (typeof token !== 'string') return fail('identify takes {token: "wst_…"}.');
      void chat.identify(token);
    },
    shutdown: () => void chat.shutdown(),
    consent: ([given]) => storage.consent(given === true),
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
      setTheme({ ...(color ? { color } : {}), ...(position ? { position } : {}), ...(mode ? { mode } : {}) });
    },
  };
  return {
    command(command, args) {
      const run = commands[command];
      if (!run) return fail(`Unknown command ${JSON.stringify(command)}.`);
      run(Array.isArray(args) ? args : []);
    },
  };
}
