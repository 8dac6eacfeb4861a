import { readPart } from './bounds.ts';
import { brainLanguage } from './texts.ts';
import { ENGLISH_VOICES, TRANSLATED_VOICES, type AgentTone, type BrainVoice } from './voices.ts';

export type { AgentTone, BrainVoice } from './voices.ts';

/**
 * The agent as the brain needs it (`/v1/agent`): its name, greetings, tone and handover rules. The
 * tone chooses the brain's own sentences (voices.ts; the articles it quotes are the shop's words) and
 * the model's instructions; the default is the friendly voice the engine always had.
 */
export interface AgentProfile {
  name: string;
  tone: AgentTone;
  /** Lower-case language tag → the AI's first words in a conversation. */
  greeting: Record<string, string>;
  handover: {
    /** Hand over instead of the n-th "not sure" answer in a row; null: never for that reason. */
    afterFailedAnswers: number | null;
    keywords: readonly string[];
  };
}

export const DEFAULT_AGENT_NAME = 'Assistant';

export const DEFAULT_AGENT: AgentProfile = {
  name: DEFAULT_AGENT_NAME,
  tone: 'friendly',
  greeting: {},
  handover: { afterFailedAnswers: null, keywords: [] },
};

/**
 * The brain's own sentences in the agent's tone and the customer's language (`de-AT` speaks
 * German): the languages of texts.ts, English for any other. The model's instruction (`prompt`)
 * is English in every language; the model is told separately which language to answer in.
 *
 * @example voiceOf('formal', 'de').handover // "Selbstverständlich. Ich verbinde Sie …"
 */
export function voiceOf(tone: AgentTone = 'friendly', locale?: string): BrainVoice {
  const english = ENGLISH_VOICES[tone];
  const language = brainLanguage(locale);
  return language === 'en' ? english : { ...TRANSLATED_VOICES[language][tone], prompt: english.prompt };
}

/** Who the model is, in the tone chosen: the first lines of every prompt. */
export function agentPersona(profile: AgentProfile): string {
  return `You are ${profile.name}, the customer support assistant of an online shop. ${voiceOf(profile.tone).prompt}`;
}

/**
 * The greeting for a customer's language: the exact tag, else its language (`de` for `de-AT`);
 * a customer whose language is not known is greeted in English. Undefined: no greeting.
 */
export function greetingFor(profile: AgentProfile, locale: string | undefined): string | undefined {
  const tag = (locale ?? 'en').toLowerCase();
  return profile.greeting[tag] ?? profile.greeting[tag.split(/[-_]/)[0]!];
}

// Letters and digits of scripts that put spaces between words: a keyword must stand as a word there.
const isWordCharacter = (character: string) =>
  /[\p{L}\p{N}]/u.test(character) &&
  !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u.test(character);

/**
 * Whether the text says one of the handover keywords (case-insensitive). Where a keyword begins or
 * ends with a letter or digit of a script with spaces, it must stand as a word there ("refund" is
 * not in "refundable"); keywords in Japanese or Chinese match inside a sentence. It reads what the
 * brain reads of a message (MESSAGE_READ_CHARS).
 */
export function saysHandoverKeyword(text: string, keywords: readonly string[]): boolean {
  const lower = readPart(text).toLowerCase();
  return keywords.some((keyword) => {
    const wanted = keyword.toLowerCase();
    for (let at = lower.indexOf(wanted); at !== -1; at = lower.indexOf(wanted, at + 1)) {
      const before = lower[at - 1] ?? ' ';
      const after = lower.at(at + wanted.length) ?? ' ';
      const wordStart = !isWordCharacter(wanted[0]!) || !isWordCharacter(before);
      const wordEnd = !isWordCharacter(wanted.at(-1)!) || !isWordCharacter(after);
      if (wordStart && wordEnd) return true;
    }
    return false;
  });
}
