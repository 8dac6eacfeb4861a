/**
 * What the retrieval brain says in its own words (not an article's), per language. The knowledge
 * base is in English; a customer who writes in another language of the widget's still hears that
 * the AI is not sure, and is offered a person, in their own.
 */
export const BRAIN_LANGUAGES = ['en', 'de', 'fr', 'es', 'ar', 'ja'] as const;
export type BrainLanguage = (typeof BRAIN_LANGUAGES)[number];

export interface BrainTexts {
  notSure: string;
  notSureWithChoices: string;
  person: string;
}

const TEXTS: Record<BrainLanguage, BrainTexts> = {
  en: {
    notSure:
      "I'm not sure I have the answer to that in our help articles. You can put it another way, or talk to a person from our team.",
    notSureWithChoices:
      "I'm not sure I have the answer to that. Is it about one of these? Or talk to a person from our team.",
    person: 'Talk to a person',
  },
  de: {
    notSure:
      'Ich bin nicht sicher, ob unsere Hilfeartikel darauf eine Antwort haben. Sie können die Frage anders stellen oder mit jemandem aus unserem Team sprechen.',
    notSureWithChoices:
      'Ich bin nicht sicher, ob ich darauf eine Antwort habe. Geht es um eines dieser Themen? Oder sprechen Sie mit jemandem aus unserem Team.',
    person: 'Mit einer Person sprechen',
  },
  fr: {
    notSure:
      "Je ne suis pas sûr que nos articles d'aide répondent à cela. Vous pouvez reformuler, ou parler à une personne de notre équipe.",
    notSureWithChoices:
      "Je ne suis pas sûr d'avoir la réponse. S'agit-il de l'un de ces sujets ? Sinon, parlez à une personne de notre équipe.",
    person: 'Parler à une personne',
  },
  es: {
    notSure:
      'No estoy seguro de que nuestros artículos de ayuda respondan a eso. Puede formularlo de otra manera o hablar con una persona de nuestro equipo.',
    notSureWithChoices:
      'No estoy seguro de tener la respuesta. ¿Se trata de uno de estos temas? Si no, hable con una persona de nuestro equipo.',
    person: 'Hablar con una persona',
  },
  ar: {
    notSure:
      'لست متأكدًا من وجود إجابة عن ذلك في مقالات المساعدة. يمكنك صياغة السؤال بطريقة أخرى، أو التحدث إلى شخص من فريقنا.',
    notSureWithChoices: 'لست متأكدًا من أن لدي الإجابة. هل يتعلق الأمر بأحد هذه المواضيع؟ أو تحدث إلى شخص من فريقنا.',
    person: 'التحدث إلى شخص',
  },
  ja: {
    notSure: 'ヘルプ記事にその答えがあるかわかりません。別の言い方で質問するか、担当者にお問い合わせください。',
    notSureWithChoices: '答えがあるかわかりません。次のどれかについてですか？または担当者にお問い合わせください。',
    person: '担当者と話す',
  },
};

/** The language of a locale (`de-AT` → `de`) when the brain speaks it, else English. */
export function brainLanguage(locale: string | undefined): BrainLanguage {
  const base = locale?.toLowerCase().split(/[-_]/)[0] ?? 'en';
  return (BRAIN_LANGUAGES as readonly string[]).includes(base) ? (base as BrainLanguage) : 'en';
}

export const textsFor = (locale: string | undefined): BrainTexts => TEXTS[brainLanguage(locale)];

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
