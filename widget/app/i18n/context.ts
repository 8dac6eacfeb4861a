import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { translator, type Translator } from './index.ts';

/** The translator of the widget's locale, for every component below the panel. */
export const I18n = createContext<Translator>(translator('en'));

export const useI18n = (): Translator => useContext(I18n);
