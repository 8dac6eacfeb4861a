import { readPart } from './bounds.ts';

/**
 * The agent as the brain needs it (`/v1/agent`): its name, greetings, tone and handover rules. The
 * tone chooses the brain's own English sentences (the articles it quotes are the shop's words) and
 * the model's instructions; the default is the friendly voice the engine always had.
 */
export type AgentTone = 'friendly' | 'neutral' | 'formal';

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

/** The brain's own sentences in one tone. */
export interface BrainVoice {
  handover: string;
  /** Handing over because the AI kept finding no answer (the `after_failed_answers` rule). */
  noAnswerHandover: string;
  farewell: string;
  welcome: string;
  helped: string;
  notHelped: string;
  /** How the model is told to speak. */
  prompt: string;
}

const VOICES: Record<AgentTone, BrainVoice> = {
  friendly: {
    handover: "Of course. I'm passing you to a person from our team; they will answer here as soon as they can.",
    noAnswerHandover:
      "I'm sorry I couldn't find the answer for you. I'm passing you to a person from our team; they will answer here as soon as they can.",
    farewell: "You're welcome! I'm glad I could help. I'll close this chat now; write again any time.",
    welcome: "You're welcome! Is there anything else I can help you with?",
    helped: 'Glad that helped! Is there anything else I can help you with?',
    notHelped: "I'm sorry that didn't help. You can put your question another way, or talk to a person from our team.",
    prompt: 'Be brief, warm and friendly.',
  },
  neutral: {
    handover: 'A person from our team will take over this conversation and answer here.',
    noAnswerHandover:
      'No answer was found in our help articles. A person from our team will take over this conversation and answer here.',
    farewell: 'Thank you. This chat is now closed; you can write again at any time.',
    welcome: 'You are welcome. Is there anything else?',
    helped: 'Thank you for the feedback. Is there anything else?',
    notHelped: 'That did not answer the question. You can put it another way, or talk to a person from our team.',
    prompt: 'Be brief, clear and matter-of-fact, without small talk or exclamation marks.',
  },
  formal: {
    handover: 'Certainly. I shall transfer you to a member of our team, who will reply here as soon as possible.',
    noAnswerHandover:
      'I apologise; I could not find the answer. I shall transfer you to a member of our team, who will reply here as soon as possible.',
    farewell:
      'You are most welcome; I am pleased to have been of assistance. This conversation will now be closed. Please do not hesitate to write again.',
    welcome: 'You are most welcome. May I assist you with anything else?',
    helped: 'I am pleased that was helpful. May I assist you with anything else?',
    notHelped:
      'I apologise that this was not helpful. You may phrase your question differently, or speak with a member of our team.',
    prompt:
      'Be brief, courteous and formal: address the customer politely, and use no casual words or exclamation marks.',
  },
};

export const voiceOf = (tone: AgentTone = 'friendly'): BrainVoice => VOICES[tone];

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
