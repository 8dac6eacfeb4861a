import { LOCALES, type Locale } from '../../api.ts';
import { en, type Catalogue, type MessageKey } from './en.ts';

export type { MessageKey, Catalogue };

/** English ships with the app; the other catalogues load on demand, one small chunk each. */
const LOADERS: Record<Exclude<Locale, 'en'>, () => Promise<{ catalogue: Catalogue }>> = {
  de: () => import('./de.ts'),
  fr: () => import('./fr.ts'),
  es: () => import('./es.ts'),
  ar: () => import('./ar.ts'),
  ja: () => import('./ja.ts'),
};

const RIGHT_TO_LEFT = new Set<Locale>(['ar']);

/** The supported locale for a wish (`de-AT` → `de`), or undefined. */
export function supportedLocale(wish: string | undefined | null): Locale | undefined {
  if (!wish) return undefined;
  const base = wish.toLowerCase().split(/[-_]/)[0];
  return (LOCALES as readonly string[]).includes(base ?? '') ? (base as Locale) : undefined;
}

/** The locale to use: the one asked for, else the browser's first supported language, else English. */
export function pickLocale(
  wish: string | undefined,
  languages: readonly string[] = navigator.languages ?? [navigator.language],
): Locale {
  return supportedLocale(wish) ?? languages.map(supportedLocale).find(Boolean) ?? 'en';
}

export interface Translator {
  locale: Locale;
  dir: 'ltr' | 'rtl';
  t(key: MessageKey, values?: Record<string, string | number>): string;
}

export async function loadTranslator(locale: Locale): Promise<Translator> {
  const catalogue = locale === 'en' ? en : (await LOADERS[locale]()).catalogue;
  return translator(locale, catalogue);
}

export function translator(locale: Locale, catalogue: Catalogue = en): Translator {
  return {
    locale,
    dir: RIGHT_TO_LEFT.has(locale) ? 'rtl' : 'ltr',
    t: (key, values = {}) =>
      (catalogue[key] ?? en[key]).replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole)),
  };
}
