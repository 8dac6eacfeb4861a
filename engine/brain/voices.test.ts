import { describe, expect, it } from 'vitest';
import { voiceOf, type AgentTone } from './agent-profile.ts';
import { BRAIN_LANGUAGES } from './texts.ts';

const TONES: AgentTone[] = ['friendly', 'neutral', 'formal'];

describe("the brain's voices", () => {
  it('has every sentence of every tone in every language of the brain, none empty, each its own', () => {
    for (const language of BRAIN_LANGUAGES)
      for (const tone of TONES) {
        const voice = voiceOf(tone, language);
        expect(Object.keys(voice).sort(), `${language} ${tone}`).toEqual(Object.keys(voiceOf(tone)).sort());
        for (const [key, sentence] of Object.entries(voice))
          expect(sentence.trim(), `${language} ${tone} ${key}`).not.toBe('');
        if (language !== 'en')
          for (const key of ['handover', 'noAnswerHandover', 'farewell', 'welcome', 'helped', 'notHelped'] as const)
            expect(voice[key], `${language} ${tone} ${key}`).not.toBe(voiceOf(tone)[key]);
      }
  });

  it("speaks the customer's language in the agent's tone", () => {
    expect(voiceOf('friendly', 'de').handover).toMatch(/^Gern\. Ich gebe Sie an eine Person/);
    expect(voiceOf('formal', 'de-CH').handover).toMatch(/^Selbstverständlich\./);
    expect(voiceOf('neutral', 'es').welcome).toBe('De nada. ¿Hay algo más?');
    expect(voiceOf('friendly', 'fr').helped).toBe(
      'Tant mieux si cela vous a aidé ! Puis-je vous aider pour autre chose ?',
    );
    // The tones still differ within a language.
    expect(new Set(TONES.map((tone) => voiceOf(tone, 'fr').farewell)).size).toBe(3);
  });

  it('speaks English for English, no language, or a language the brain does not speak', () => {
    const english = voiceOf('formal');
    expect(voiceOf('formal', 'en-GB')).toEqual(english);
    expect(voiceOf('formal', undefined)).toEqual(english);
    expect(voiceOf('formal', 'pt-BR')).toEqual(english);
    expect(voiceOf().handover).toBe(
      "Of course. I'm passing you to a person from our team; they will answer here as soon as they can.",
    );
  });

  it("tells the model the tone in English in every language (the model is told the customer's language apart)", () => {
    for (const language of BRAIN_LANGUAGES)
      for (const tone of TONES) expect(voiceOf(tone, language).prompt).toBe(voiceOf(tone).prompt);
  });
});
