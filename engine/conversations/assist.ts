/**
 * Assist, the copilot for people (issue 29): reads a conversation and the account's knowledge and
 * offers a reply, a summary and the customer's language. It only reads: the conversation is not
 * changed and no event is recorded (only a model's tokens are counted to the account's month).
 */
import { ParleyError, type ErrorCode } from '../../shared/index.ts';
import type { AssistRequest, AssistResponse } from '../../shared/schemas/assist.ts';
import type { Sql } from '../../shared/server/index.ts';
import { NO_QUESTION, openQuestions, retrievalSuggestion, summaryOf, type AssistOutcome } from '../brain/assist.ts';
import { improveDraft, llmSuggestion, llmSummary, passagesForAssist, type LlmUsage } from '../brain/assist-llm.ts';
import { cpuClock, MESSAGE_BRAIN_MS, readPart, type BrainBudget } from '../brain/bounds.ts';
import type { KnowledgeBase } from '../brain/knowledge-base.ts';
import type { KnowledgeCache } from '../brain/knowledge-cache.ts';
import { LlmUnavailableError, type LlmClient } from '../brain/llm-client.ts';
import { customerLanguage } from '../brain/reading.ts';
import type { Meaning } from '../brain/semantic.ts';
import { readAgent } from '../store/agent.ts';
import { findConversation, listTurns, turnCounts } from '../store/conversations.ts';
import type { Caller } from '../store/environment.ts';
import { addLlmUsage } from '../store/llm.ts';
import { readAnswerSources } from './sending.ts';

/** A draft asked to be improved where no model writes: the request cannot be done here (422). */
export const DRAFT_NEEDS_MODEL: ErrorCode = 'not_available';

export interface AssistDeps {
  sql: Sql;
  /** The same knowledge the AI answers from. */
  knowledge: KnowledgeCache;
  /** A model (LLM_BASE_URL) writes the suggestion, the summary and improved drafts; without it, the retrieval brain. */
  llm: LlmClient | undefined;
  now: () => Date;
}

/**
 * Each reading has the brain time of a message: a person's request is bounded as a customer's is
 * (the requests themselves are counted by the API's rate limit).
 */
const messageBudget = (): BrainBudget => ({ clock: cpuClock, deadline: cpuClock() + MESSAGE_BRAIN_MS });

/** What assist reads of a conversation, once. */
interface Read {
  turns: Awaited<ReturnType<typeof listTurns>>;
  questions: string[];
  kb: KnowledgeBase;
  language: string;
  summary: string;
  locale: string | undefined;
  /** The newest question's and the sections' vectors, with an embeddings API. */
  meaning: Meaning | undefined;
}

const sum = (usages: readonly LlmUsage[]): LlmUsage => ({
  promptTokens: usages.reduce((total, usage) => total + usage.promptTokens, 0),
  completionTokens: usages.reduce((total, usage) => total + usage.completionTokens, 0),
});

/** The model's suggestion (or improved draft) and summary; throws LlmUnavailableError when it cannot answer now. */
async function withModel(
  llm: LlmClient,
  read: Read,
  draft: string | undefined,
): Promise<{ outcome: AssistOutcome; summary: string; usage: LlmUsage }> {
  const { turns, questions, kb, language } = read;
  const question = questions.join('\n');
  const passages = question ? passagesForAssist(kb, question, language, messageBudget()) : [];
  const reply = async (): Promise<{ value: AssistOutcome; usage: LlmUsage }> => {
    if (draft !== undefined) {
      const improved = await improveDraft(llm, { turns, draft, language, passages });
      if (!improved.value) throw new LlmUnavailableError('The model gave no improved text.');
      return { value: { suggestion: improved.value }, usage: improved.usage };
    }
    return llmSuggestion(llm, { turns, question: questions.at(-1) ?? '', language, passages });
  };
  const noQuestion = { value: { reason: NO_QUESTION }, usage: sum([]) };
  const [written, summary] = await Promise.all([
    draft === undefined && questions.length === 0 ? noQuestion : reply(),
    llmSummary(llm, turns),
  ]);
  return { outcome: written.value, summary: summary.value ?? read.summary, usage: sum([written.usage, summary.usage]) };
}

const responseOf = (outcome: AssistOutcome, summary: string, language: string): AssistResponse => ({
  suggestion: 'suggestion' in outcome ? outcome.suggestion : null,
  reason: 'reason' in outcome ? outcome.reason : null,
  summary,
  customer_language: language,
});

export function createAssist({ sql, knowledge, llm, now }: AssistDeps) {
  /** The model this account's assist may use: none when the engine has none or the account chose the retrieval brain. */
  async function modelFor(caller: Caller): Promise<LlmClient | undefined> {
    return llm && (await readAgent(sql, caller)).chosenBrain !== 'retrieval' ? llm : undefined;
  }

  /** Reads the conversation: its turns, the open questions, the knowledge, the customer's language and the summary from the turns. */
  async function readConversation(caller: Caller, id: string): Promise<Read> {
    const record = await findConversation(sql, caller, id);
    if (!record) throw new ParleyError('not_found', `No conversation ${id} for this key.`);
    const [turns, counts] = await Promise.all([listTurns(sql, id), turnCounts(sql, id)]);
    const questions = openQuestions(turns);
    const { kb, meaning } = await readAnswerSources(sql, knowledge, caller, questions.at(-1));
    const locale = record.locale ?? undefined;
    const lastSaid = turns.findLast((turn) => turn.role === 'customer')?.text ?? '';
    const { lastQuestion, customerLanguage: lastLanguage } = record.memory;
    const language = customerLanguage(readPart(lastSaid), locale, { question: lastQuestion, language: lastLanguage });
    const facts = { state: record.conversation.state, handoverCount: record.handoverCount, ...counts };
    return { turns, questions, kb, language, locale, meaning, summary: summaryOf(turns, facts) };
  }

  return {
    /**
     * A reply a person could send, the conversation in two lines, and the customer's language.
     * With a model it writes them (from the passages only, saying when they do not answer); while
     * it cannot be reached, the retrieval brain suggests instead. A draft is improved by a model
     * only: 422 without one, 503 while it cannot be reached.
     */
    async assist(caller: Caller, id: string, request: AssistRequest): Promise<AssistResponse> {
      const model = await modelFor(caller);
      if (request.draft !== undefined && !model)
        throw new ParleyError(
          DRAFT_NEEDS_MODEL,
          'Improving a draft needs an LLM (LLM_BASE_URL), and none writes for this account: send the draft as it is, or use the suggestion.',
        );
      const read = await readConversation(caller, id);
      if (model) {
        try {
          const { outcome, summary, usage } = await withModel(model, read, request.draft);
          if (usage.promptTokens + usage.completionTokens > 0) await addLlmUsage(sql, caller, usage, now());
          return responseOf(outcome, summary, read.language);
        } catch (error) {
          if (!(error instanceof LlmUnavailableError)) throw error;
          if (request.draft !== undefined)
            throw new ParleyError(
              'upstream_unavailable',
              'The LLM cannot improve the draft just now; try again shortly.',
            );
        }
      }
      const { kb, questions, locale, meaning } = read;
      const outcome = retrievalSuggestion(kb, questions, { locale, budget: messageBudget, meaning });
      return responseOf(outcome, read.summary, read.language);
    },
  };
}

export type Assist = ReturnType<typeof createAssist>;
