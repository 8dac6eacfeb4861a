/**
 * How the AI reads a customer's reply to an interview question, and its own few sentences around
 * the questions. A pure function of its inputs, as the brain's `decide` is: the move that carries
 * the step out is engine/conversations/interview-moves.ts.
 *
 * The rule for asking once more is kept simple so that it can be told to the people who run an
 * interview: a reply with no letter or digit in it (".", "?", "…") is empty; on a question with
 * choices, a reply that is none of them and is a single word ("hmm", "maybe") says too little. Either
 * is asked about once more; a second empty reply skips the question, and any other second reply is
 * kept as the answer. The customer's own words are always an answer otherwise: no model judges them.
 */
import type { ReplyChoice } from '../../shared/index.ts';
import type { InterviewQuestion } from '../../shared/schemas/interviews.ts';
import { saysHandoverKeyword } from '../brain/agent-profile.ts';
import { asksForPerson } from '../brain/intents.ts';
import { brainLanguage } from '../brain/texts.ts';

/** What the AI does with a reply to the question it asked. */
export type InterviewStep =
  | { kind: 'handover'; reason: 'customer_request' | 'keyword' }
  | { kind: 'stop' }
  | { kind: 'skip' }
  | { kind: 'ask_again'; why: 'empty' | 'no_choice' }
  | { kind: 'answer'; text: string };

/** Whole replies that skip the question, in English, German, Spanish and French (the Skip button sends one). */
const SKIP_WORDS = new Set(['skip', 'weiter', 'überspringen', 'saltar', 'passer']);
/** Whole replies that end the interview. */
const STOP_WORDS = new Set(['stop', 'stopp', 'quit', 'aufhören', 'abbrechen', 'parar', 'arrêter', 'arrête']);

/** A reply as it is compared: lower case, single spaces, without the punctuation around it ("Skip!" is "skip"). */
const normalized = (text: string) =>
  text
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .replace(/^[\s¡¿"'«»]+|[\s.!?,;:…"'«»]+$/gu, '');

const hasWords = (text: string) => /[\p{L}\p{N}]/u.test(text);
const wordCount = (text: string) => text.split(/\s+/u).filter(hasWords).length;

/**
 * The step for `text` (the customer's message, masked) as the reply to `question`. Asking for a
 * person (engine/brain/intents.ts, or one of the agent's handover keywords) comes first, then a
 * choice, then stop and skip, then the rule for asking again (above).
 *
 * @example readInterviewReply({ id: 'q1', text: 'How?', choices: ['Fast', 'Slow'] }, 'fast', { askedAgain: false })
 *   // { kind: 'answer', text: 'Fast' }
 */
export function readInterviewReply(
  question: Pick<InterviewQuestion, 'choices'>,
  text: string,
  { askedAgain, handoverKeywords = [] }: { askedAgain: boolean; handoverKeywords?: readonly string[] },
): InterviewStep {
  if (asksForPerson(text)) return { kind: 'handover', reason: 'customer_request' };
  if (saysHandoverKeyword(text, handoverKeywords)) return { kind: 'handover', reason: 'keyword' };
  const said = normalized(text);
  const choice = question.choices?.find((candidate) => normalized(candidate) === said);
  if (choice !== undefined) return { kind: 'answer', text: choice };
  if (STOP_WORDS.has(said)) return { kind: 'stop' };
  if (SKIP_WORDS.has(said)) return { kind: 'skip' };
  if (!hasWords(text)) return askedAgain ? { kind: 'skip' } : { kind: 'ask_again', why: 'empty' };
  if (question.choices && wordCount(text) < 2 && !askedAgain) return { kind: 'ask_again', why: 'no_choice' };
  return { kind: 'answer', text: text.trim() };
}

interface InterviewTexts {
  skip: ReplyChoice;
  askAgainEmpty: string;
  askAgainChoice: string;
  stopped: string;
}

const TEXTS: Record<'en' | 'de' | 'es' | 'fr', InterviewTexts> = {
  en: {
    skip: { label: 'Skip', value: 'skip' },
    askAgainEmpty: "I didn't catch an answer there. Could you say it in a few words? You can also skip this question.",
    askAgainChoice: 'Could you pick one of the answers, or say a little more in your own words?',
    stopped: "Of course, we'll stop here. Thank you for your time; the answers you gave are kept.",
  },
  de: {
    skip: { label: 'Überspringen', value: 'weiter' },
    askAgainEmpty:
      'Ich habe keine Antwort erkannt. Könnten Sie es in ein paar Worten sagen? Sie können die Frage auch überspringen.',
    askAgainChoice: 'Könnten Sie eine der Antworten wählen oder es in ein paar eigenen Worten sagen?',
    stopped: 'Natürlich, wir hören hier auf. Danke für Ihre Zeit; Ihre bisherigen Antworten sind gespeichert.',
  },
  es: {
    skip: { label: 'Saltar', value: 'saltar' },
    askAgainEmpty:
      'No he entendido una respuesta. ¿Podría decirlo en pocas palabras? También puede saltar esta pregunta.',
    askAgainChoice: '¿Podría elegir una de las respuestas, o decirlo con sus propias palabras?',
    stopped: 'Por supuesto, lo dejamos aquí. Gracias por su tiempo; sus respuestas se han guardado.',
  },
  fr: {
    skip: { label: 'Passer', value: 'passer' },
    askAgainEmpty:
      "Je n'ai pas saisi de réponse. Pourriez-vous le dire en quelques mots ? Vous pouvez aussi passer cette question.",
    askAgainChoice: "Pourriez-vous choisir l'une des réponses, ou le dire en quelques mots ?",
    stopped: 'Bien sûr, nous nous arrêtons ici. Merci pour votre temps ; vos réponses sont conservées.',
  },
};

/** The AI's own sentences around an interview in the customer's language (English for languages it has none in). */
export function interviewTextsFor(locale: string | undefined): InterviewTexts {
  const language = brainLanguage(locale);
  return language in TEXTS ? TEXTS[language as keyof typeof TEXTS] : TEXTS.en;
}

/** The buttons under a question: its choices (pressing one sends it), then Skip. */
export function questionChoices(
  question: Pick<InterviewQuestion, 'choices'>,
  locale: string | undefined,
): ReplyChoice[] {
  const choices = (question.choices ?? []).map((choice) => ({ label: choice, value: choice }));
  return [...choices, interviewTextsFor(locale).skip];
}
