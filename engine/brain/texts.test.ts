import { describe, expect, it } from 'vitest';
import { answersHelped } from './intents.ts';
import { BRAIN_LANGUAGES, feedbackChoicesIn, languageName, otherLanguageNote, textsFor } from './texts.ts';

describe("the brain's own words", () => {
  it('has every sentence and button in every language of the brain, none empty', () => {
    const english = textsFor('en');
    for (const language of BRAIN_LANGUAGES) {
      const texts = textsFor(language);
      expect(Object.keys(texts).sort(), language).toEqual(Object.keys(english).sort());
      for (const [key, value] of Object.entries(texts)) {
        const said = typeof value === 'function' ? value('X') : value;
        if (typeof said === 'string') expect(said.trim(), `${language}.${key}`).not.toBe('');
        else expect([said.label.trim(), said.value.trim()], `${language}.${key}`).not.toContain('');
      }
      // Each language has its own words, not English ones left in place.
      if (language !== 'en') expect(texts.didThatHelp, language).not.toBe(english.didThatHelp);
    }
  });

  it("gives the feedback buttons in the customer's language, Yes first, each sending a sentence of that language", () => {
    expect(feedbackChoicesIn('de-AT')).toEqual([
      { label: 'Ja', value: 'Ja, das hat geholfen.' },
      { label: 'Nein', value: 'Nein, das hat nicht geholfen.' },
    ]);
    expect(feedbackChoicesIn('es').map((choice) => choice.label)).toEqual(['Sí', 'No']);
    expect(feedbackChoicesIn('fr').map((choice) => choice.label)).toEqual(['Oui', 'Non']);
    expect(feedbackChoicesIn(undefined)).toEqual([
      { label: 'Yes', value: 'Yes, that helped.' },
      { label: 'No', value: "No, that didn't help." },
    ]);
    // A language the brain does not speak gets English.
    expect(feedbackChoicesIn('pt-BR')).toEqual(feedbackChoicesIn('en'));
  });

  it('has feedback buttons whose values the brain reads back as their answers, in every language', () => {
    for (const language of BRAIN_LANGUAGES) {
      const [yes, no] = feedbackChoicesIn(language);
      expect(answersHelped(yes!.value), language).toBe(true);
      expect(answersHelped(no!.value), language).toBe(false);
    }
  });

  it('hands out fresh buttons: changing one changes no later answer', () => {
    feedbackChoicesIn('de')[0]!.value = 'changed';
    expect(feedbackChoicesIn('de')[0]!.value).toBe('Ja, das hat geholfen.');
  });

  it('names a language as a customer of each language reads it in a sentence', () => {
    expect(BRAIN_LANGUAGES.map((language) => languageName('en', language))).toEqual([
      'English',
      'Englisch',
      'anglais',
      'inglés',
      'الإنجليزية',
      '英語',
    ]);
    expect(languageName('de-AT', 'fr')).toBe('allemand');
    expect(languageName('pt-BR', 'es')).toBe('portugués');
    // A tag no one knows is named as written.
    expect(languageName('x-klingon', 'de')).toBe('x-klingon');
  });

  it('says before an article of another language which language it is in, in the customer’s', () => {
    expect(otherLanguageNote('de', 'en')).toBe('Diesen Artikel gibt es nur auf Englisch:');
    expect(otherLanguageNote('es-MX', 'en')).toBe('Este artículo solo está disponible en inglés:');
    expect(otherLanguageNote('fr', 'de')).toBe("Cet article n'existe qu'en allemand :");
    expect(otherLanguageNote('en', 'fr')).toBe('This article is only available in French:');
    expect(otherLanguageNote('ja', 'en')).toBe('この記事は英語でのみ提供されています：');
  });

  it('says nothing when the article is in the customer’s language, or either language is not known', () => {
    expect(otherLanguageNote('de-AT', 'de')).toBeUndefined();
    expect(otherLanguageNote('EN', 'en-GB')).toBeUndefined();
    expect(otherLanguageNote(undefined, 'en')).toBeUndefined();
    expect(otherLanguageNote('de', undefined)).toBeUndefined();
  });
});
