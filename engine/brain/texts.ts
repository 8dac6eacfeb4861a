import type { ReplyChoice } from '../../shared/index.ts';

/**
 * What the retrieval brain says in its own words (not an article's), per language: that it is not
 * sure, the person and feedback buttons, "did that help?", and the note before an article quoted
 * from another language than the customer's. A customer who writes in another language of the
 * widget's hears these in their own.
 */
export const BRAIN_LANGUAGES = ['en', 'de', 'fr', 'es', 'ar', 'ja'] as const;
export type BrainLanguage = (typeof BRAIN_LANGUAGES)[number];

export interface BrainTexts {
  notSure: string;
  notSureWithChoices: string;
  person: string;
  /** Asked under an answer from an article; the feedback buttons answer it. */
  didThatHelp: string;
  /** The feedback buttons: what each shows, and what pressing it sends as the customer's words. */
  helpedYes: ReplyChoice;
  helpedNo: ReplyChoice;
  /** Put before an answer quoted from an article in another language; `language` as `languageName` gives it. */
  otherLanguage: (language: string) => string;
  /** The word before an answer's article ("Source: Returns and refunds"). */
  source: string;
  /** Said of the part of a two-part question that no article answers; `part` is the customer's words. */
  partNotFound: (part: string) => string;
  /** Said under an article that does not name a place the customer asked about ("Japan"). */
  notMentioned: (names: string) => string;
}

const TEXTS: Record<BrainLanguage, BrainTexts> = {
  en: {
    notSure:
      "I'm not sure I have the answer to that in our help articles. You can put it another way, or talk to a person from our team.",
    notSureWithChoices:
      "I'm not sure I have the answer to that. Is it about one of these? Or talk to a person from our team.",
    person: 'Talk to a person',
    didThatHelp: 'Did that help?',
    helpedYes: { label: 'Yes', value: 'Yes, that helped.' },
    helpedNo: { label: 'No', value: "No, that didn't help." },
    otherLanguage: (language) => `This article is only available in ${language}:`,
    source: 'Source',
    partNotFound: (part) => `I couldn't find the answer to "${part}" in our help articles.`,
    notMentioned: (names) => `This article does not mention ${names}.`,
  },
  de: {
    notSure:
      'Ich bin nicht sicher, ob unsere Hilfeartikel darauf eine Antwort haben. Sie können die Frage anders stellen oder mit jemandem aus unserem Team sprechen.',
    notSureWithChoices:
      'Ich bin nicht sicher, ob ich darauf eine Antwort habe. Geht es um eines dieser Themen? Oder sprechen Sie mit jemandem aus unserem Team.',
    person: 'Mit einer Person sprechen',
    didThatHelp: 'Hat Ihnen das geholfen?',
    helpedYes: { label: 'Ja', value: 'Ja, das hat geholfen.' },
    helpedNo: { label: 'Nein', value: 'Nein, das hat nicht geholfen.' },
    otherLanguage: (language) => `Diesen Artikel gibt es nur auf ${language}:`,
    source: 'Quelle',
    partNotFound: (part) => `Zu „${part}“ habe ich in unseren Hilfeartikeln keine Antwort gefunden.`,
    notMentioned: (names) => `${names} wird in diesem Artikel nicht genannt.`,
  },
  fr: {
    notSure:
      "Je ne suis pas sûr que nos articles d'aide répondent à cela. Vous pouvez reformuler, ou parler à une personne de notre équipe.",
    notSureWithChoices:
      "Je ne suis pas sûr d'avoir la réponse. S'agit-il de l'un de ces sujets ? Sinon, parlez à une personne de notre équipe.",
    person: 'Parler à une personne',
    didThatHelp: 'Cela vous a-t-il aidé ?',
    helpedYes: { label: 'Oui', value: "Oui, ça m'a aidé." },
    helpedNo: { label: 'Non', value: "Non, ça ne m'a pas aidé." },
    otherLanguage: (language) => `Cet article n'existe qu'en ${language} :`,
    source: 'Source',
    partNotFound: (part) => `Je n'ai pas trouvé de réponse à « ${part} » dans nos articles d'aide.`,
    notMentioned: (names) => `Cet article ne mentionne pas ${names}.`,
  },
  es: {
    notSure:
      'No estoy seguro de que nuestros artículos de ayuda respondan a eso. Puede formularlo de otra manera o hablar con una persona de nuestro equipo.',
    notSureWithChoices:
      'No estoy seguro de tener la respuesta. ¿Se trata de uno de estos temas? Si no, hable con una persona de nuestro equipo.',
    person: 'Hablar con una persona',
    didThatHelp: '¿Le ha ayudado esto?',
    helpedYes: { label: 'Sí', value: 'Sí, me ha ayudado.' },
    helpedNo: { label: 'No', value: 'No, no me ha ayudado.' },
    otherLanguage: (language) => `Este artículo solo está disponible en ${language}:`,
    source: 'Fuente',
    partNotFound: (part) => `No he encontrado la respuesta a «${part}» en nuestros artículos de ayuda.`,
    notMentioned: (names) => `Este artículo no menciona ${names}.`,
  },
  ar: {
    notSure:
      'لست متأكدًا من وجود إجابة عن ذلك في مقالات المساعدة. يمكنك صياغة السؤال بطريقة أخرى، أو التحدث إلى شخص من فريقنا.',
    notSureWithChoices: 'لست متأكدًا من أن لدي الإجابة. هل يتعلق الأمر بأحد هذه المواضيع؟ أو تحدث إلى شخص من فريقنا.',
    person: 'التحدث إلى شخص',
    didThatHelp: 'هل ساعدك ذلك؟',
    helpedYes: { label: 'نعم', value: 'نعم، لقد ساعدني ذلك.' },
    helpedNo: { label: 'لا', value: 'لا، لم يساعدني ذلك.' },
    otherLanguage: (language) => `هذا المقال متوفر باللغة ${language} فقط:`,
    source: 'المصدر',
    partNotFound: (part) => `لم أجد إجابة عن «${part}» في مقالات المساعدة.`,
    notMentioned: (names) => `لا تذكر هذه المقالة ${names}.`,
  },
  ja: {
    notSure: 'ヘルプ記事にその答えがあるかわかりません。別の言い方で質問するか、担当者にお問い合わせください。',
    notSureWithChoices: '答えがあるかわかりません。次のどれかについてですか？または担当者にお問い合わせください。',
    person: '担当者と話す',
    didThatHelp: 'お役に立ちましたか？',
    helpedYes: { label: 'はい', value: 'はい、役に立ちました。' },
    helpedNo: { label: 'いいえ', value: 'いいえ、役に立ちませんでした。' },
    otherLanguage: (language) => `この記事は${language}でのみ提供されています：`,
    source: '出典',
    partNotFound: (part) => `「${part}」についての答えは、ヘルプ記事に見つかりませんでした。`,
    notMentioned: (names) => `この記事には${names}についての記載はありません。`,
  },
};

/** The language of a locale (`de-AT` → `de`) when the brain speaks it, else English. */
export function brainLanguage(locale: string | undefined): BrainLanguage {
  const base = locale?.toLowerCase().split(/[-_]/)[0] ?? 'en';
  return (BRAIN_LANGUAGES as readonly string[]).includes(base) ? (base as BrainLanguage) : 'en';
}

export const textsFor = (locale: string | undefined): BrainTexts => TEXTS[brainLanguage(locale)];

/** The buttons under an answer, Yes then No, in the customer's language: pressing one sends its value. */
export function feedbackChoicesIn(locale: string | undefined): ReplyChoice[] {
  const { helpedYes, helpedNo } = textsFor(locale);
  return [{ ...helpedYes }, { ...helpedNo }];
}

/**
 * The name of a language (of `tag`'s language: `pt-BR` → Portuguese) as a customer of `locale`
 * reads it in a sentence: "Englisch" in German, "inglés" in Spanish. The names are the CLDR's,
 * from the runtime's ICU (Node ships it whole); a tag the ICU does not know is named as it is.
 */
export function languageName(tag: string, locale: string | undefined): string {
  const base = tag.toLowerCase().split(/[-_]/)[0] ?? tag;
  try {
    return new Intl.DisplayNames([brainLanguage(locale)], { type: 'language', fallback: 'none' }).of(base) ?? tag;
  } catch {
    return tag;
  }
}

/**
 * The note before an answer quoted from an article written in another language than the
 * customer's ("Diesen Artikel gibt es nur auf Englisch:"); undefined when the article is in the
 * customer's language (`de-AT` and `de` are one language), or when either language is not known.
 */
export function otherLanguageNote(
  customerLocale: string | undefined,
  articleLocale: string | undefined,
): string | undefined {
  const base = (tag: string) => tag.toLowerCase().split(/[-_]/)[0];
  if (!customerLocale || !articleLocale || base(customerLocale) === base(articleLocale)) return undefined;
  return textsFor(customerLocale).otherLanguage(languageName(articleLocale, customerLocale));
}

/** What a customer sends by pressing "talk to a person", in English. */
export const PERSON_REQUEST = 'I would like to talk to a person, please.';

/**
 * What pressing "talk to a person" sends, in the customer's language where the brain reads a
 * request for a person in it (intents.ts: English, German, Spanish, French), else in English: the
 * customer's words in the transcript are their own language's, and the brain still hands over.
 */
const PERSON_REQUESTS: Partial<Record<BrainLanguage, string>> = {
  de: 'Ich möchte bitte mit einer Person sprechen.',
  es: 'Quisiera hablar con una persona, por favor.',
  fr: "Je voudrais parler à une personne, s'il vous plaît.",
};

export const personRequestIn = (locale: string | undefined): string =>
  PERSON_REQUESTS[brainLanguage(locale)] ?? PERSON_REQUEST;
