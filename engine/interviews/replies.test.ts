import { describe, expect, it } from 'vitest';
import { interviewTextsFor, questionChoices, readInterviewReply } from './replies.ts';

const CHOICE_QUESTION = { choices: ['Very happy', 'Happy', 'Unhappy'] };
const FREE_QUESTION = {};
const first = { askedAgain: false };
const second = { askedAgain: true };

describe('reading a reply to an interview question', () => {
  it('takes a choice by its value whatever its case and the punctuation around it, as the choice is written', () => {
    expect(readInterviewReply(CHOICE_QUESTION, 'happy', first)).toEqual({ kind: 'answer', text: 'Happy' });
    expect(readInterviewReply(CHOICE_QUESTION, '  VERY   happy! ', first)).toEqual({
      kind: 'answer',
      text: 'Very happy',
    });
  });

  it("keeps the customer's own words of two words or more on a question with choices", () => {
    expect(readInterviewReply(CHOICE_QUESTION, 'Somewhere in between', first)).toEqual({
      kind: 'answer',
      text: 'Somewhere in between',
    });
  });

  it('asks once more about a single word that is none of the choices, and keeps it the second time', () => {
    expect(readInterviewReply(CHOICE_QUESTION, 'hmm', first)).toEqual({ kind: 'ask_again', why: 'no_choice' });
    expect(readInterviewReply(CHOICE_QUESTION, 'hmm', second)).toEqual({ kind: 'answer', text: 'hmm' });
  });

  it('takes a single word as the answer to a question without choices', () => {
    expect(readInterviewReply(FREE_QUESTION, 'Price.', first)).toEqual({ kind: 'answer', text: 'Price.' });
  });

  it('asks once more about a reply with no letter or digit, and skips the question when the second is empty too', () => {
    expect(readInterviewReply(FREE_QUESTION, '...', first)).toEqual({ kind: 'ask_again', why: 'empty' });
    expect(readInterviewReply(FREE_QUESTION, '?!', second)).toEqual({ kind: 'skip' });
  });

  it('skips on skip, weiter, saltar or passer, and stops on stop, in any case', () => {
    for (const word of ['skip', 'Weiter', 'saltar', 'Passer!', 'überspringen'])
      expect(readInterviewReply(CHOICE_QUESTION, word, first), word).toEqual({ kind: 'skip' });
    for (const word of ['stop', 'Stop.', 'STOPP', 'arrêter', 'parar'])
      expect(readInterviewReply(FREE_QUESTION, word, first), word).toEqual({ kind: 'stop' });
    // A longer message that mentions them is an answer.
    expect(readInterviewReply(FREE_QUESTION, 'Stop sending me e-mails', first)).toEqual({
      kind: 'answer',
      text: 'Stop sending me e-mails',
    });
  });

  it("hands over when the customer asks for a person, in any of the brain's languages, or says a handover keyword", () => {
    expect(readInterviewReply(CHOICE_QUESTION, 'I want to talk to a person', first)).toEqual({
      kind: 'handover',
      reason: 'customer_request',
    });
    expect(readInterviewReply(FREE_QUESTION, 'Ich möchte mit einem Menschen sprechen', first).kind).toBe('handover');
    expect(
      readInterviewReply(FREE_QUESTION, 'this is about a chargeback', { ...first, handoverKeywords: ['chargeback'] }),
    ).toEqual({
      kind: 'handover',
      reason: 'keyword',
    });
  });

  it('reads a choice named like a command as the choice', () => {
    expect(readInterviewReply({ choices: ['Skip', 'Read'] }, 'skip', first)).toEqual({ kind: 'answer', text: 'Skip' });
  });
});

describe("the AI's sentences around an interview", () => {
  it("puts the question's choices and then Skip, in the customer's language, under a question", () => {
    expect(questionChoices(CHOICE_QUESTION, 'de-AT')).toEqual([
      { label: 'Very happy', value: 'Very happy' },
      { label: 'Happy', value: 'Happy' },
      { label: 'Unhappy', value: 'Unhappy' },
      { label: 'Überspringen', value: 'weiter' },
    ]);
    expect(questionChoices(FREE_QUESTION, undefined)).toEqual([{ label: 'Skip', value: 'skip' }]);
  });

  it('speaks English in a language it has no sentences in, and the Skip button of every language skips', () => {
    expect(interviewTextsFor('ja')).toEqual(interviewTextsFor('en'));
    for (const locale of ['en', 'de', 'es', 'fr'])
      expect(readInterviewReply(FREE_QUESTION, interviewTextsFor(locale).skip.value, first)).toEqual({ kind: 'skip' });
  });
});
