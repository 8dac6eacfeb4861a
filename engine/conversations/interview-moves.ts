/**
 * A conversation in interview mode (issue 29): while its session runs, the customer's messages are
 * read as answers (engine/interviews/replies.ts) instead of questions for the brain, and the AI asks
 * the interview's questions one at a time. When the session ends (every question answered or
 * skipped, a stop, or a request for a person) `interview.completed` carries the answers, and the
 * conversation goes on as any other: with the AI, or with people after a handover.
 */
import { voiceOf } from '../brain/agent-profile.ts';
import { interviewTextsFor, questionChoices, readInterviewReply } from '../interviews/replies.ts';
import type { AgentRecord } from '../store/agent.ts';
import {
  endSession,
  moveSession,
  recordInterviewAnswer,
  type InterviewOutcome,
  type InterviewSession,
} from '../store/interview-sessions.ts';
import { handOver, say } from './acts.ts';
import type { Move } from './moves.ts';

/** Asks the session's current question, its choices and Skip as buttons. */
export async function askQuestion(move: Move, session: InterviewSession): Promise<void> {
  const question = session.questions[session.current]!;
  const choices = questionChoices(question, move.record.locale ?? undefined);
  await say(move, question.text, undefined, { choices });
}

/** Ends the session and tells the feed and webhooks what the customer answered. */
async function endInterview(move: Move, session: InterviewSession, outcome: InterviewOutcome): Promise<void> {
  const answers = await endSession(move.tx, session, outcome, move.at);
  move.emit('interview.completed', {
    interview_id: session.interviewId,
    conversation_id: session.conversationId,
    answers,
    outcome,
  });
}

/** On to the next question, or, after the last, the closing line and the end. */
async function moveOn(move: Move, session: InterviewSession): Promise<void> {
  const next = { ...session, current: session.current + 1, askedAgain: false };
  if (next.current < session.questions.length) {
    await moveSession(move.tx, next);
    await askQuestion(move, next);
    return;
  }
  await say(move, session.closing);
  await endInterview(move, session, 'completed');
}

/** Takes the customer's message (masked) as their reply to the question asked now, inside the move. */
export async function continueInterview(
  move: Move,
  session: InterviewSession,
  text: string,
  agent: AgentRecord,
): Promise<void> {
  const locale = move.record.locale ?? undefined;
  const question = session.questions[session.current]!;
  const handoverKeywords = agent.profile.handover.keywords;
  const step = readInterviewReply(question, text, { askedAgain: session.askedAgain, handoverKeywords });
  switch (step.kind) {
    case 'handover':
      await say(move, voiceOf(agent.profile.tone, locale).handover);
      await endInterview(move, session, 'handed_over');
      await handOver(move, step.reason, 'ai');
      return;
    case 'stop':
      await say(move, interviewTextsFor(locale).stopped);
      await endInterview(move, session, 'stopped');
      return;
    case 'ask_again': {
      const texts = interviewTextsFor(locale);
      const again = { ...session, askedAgain: true };
      await moveSession(move.tx, again);
      const prompt = step.why === 'empty' ? texts.askAgainEmpty : texts.askAgainChoice;
      await say(move, prompt, undefined, { choices: questionChoices(question, locale) });
      return;
    }
    case 'skip':
      await recordInterviewAnswer(move.tx, session, { text: '', skipped: true }, move.at);
      await moveOn(move, session);
      return;
    case 'answer':
      await recordInterviewAnswer(move.tx, session, { text: step.text, skipped: false }, move.at);
      await moveOn(move, session);
      return;
  }
}
