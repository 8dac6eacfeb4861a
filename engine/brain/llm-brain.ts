import { extractInputs, missingInputs, type ActionDefinition, type ActionInputs } from './actions.ts';
import { notSureAnswer, passagesFor, sourceLine } from './answering.ts';
import { decide, type BrainMemory, type Decision } from './brain.ts';
import { answersHelped, asksForPerson, saysThanksOrBye } from './intents.ts';
import { customerLanguage } from './reading.ts';
import { matchPattern } from './pattern-match.ts';
import { agentPersona, DEFAULT_AGENT, type AgentProfile } from './agent-profile.ts';
import { outOfTime, readPart, thinkFreely, type BrainBudget, type Think } from './bounds.ts';
import type { KnowledgeBase, KnowledgeHit } from './knowledge-base.ts';
import { LlmUnavailableError, type LlmClient, type LlmMessage, type LlmTool } from './llm-client.ts';
import { feedbackChoicesIn, languageName, textsFor } from './texts.ts';

/** The model says this, and nothing else, when the passages do not answer the question. */
export const NOT_SURE_MARK = 'NOT_SURE';
/** Passages scoring below this are not relevant enough to put in the prompt. */
const PASSAGE_SCORE = 3.5;
/** How many earlier turns go with the question. */
const HISTORY_TURNS = 8;

export interface HistoryTurn {
  role: 'customer' | 'ai' | 'human';
  text: string;
}

export interface LlmDecision {
  decision: Decision;
  /** Tokens the LLM used (zero when it was not asked, or failed). */
  usage: { promptTokens: number; completionTokens: number };
  /** The LLM was asked but failed: the retrieval brain decided instead. */
  fellBack: boolean;
}

/** The customer's language as the model is told it: the conversation's, or theirs as they write when it has none. */
const answerLanguage = (locale: string | undefined): string =>
  locale ? languageName(locale, 'en') : 'the language the customer writes in';

/** A passage as the model reads it: its number (what the answer cites), its article and its language. */
function passage(hit: KnowledgeHit, index: number): string {
  const { title, heading, language, text } = hit.section;
  return `[${index + 1}] ${title} › ${heading} (in ${languageName(language, 'en')})\n${text}`;
}

/**
 * The system prompt: the agent (its name and tone), the rules, and the knowledge passages with
 * their titles (nothing else is known). The passages may be in any language (issue 28: a shop's
 * articles need not exist in every language its customers write in): the model answers in the
 * customer's, from whichever passage answers, and cites it by its number.
 */
export function systemPrompt(
  passages: readonly KnowledgeHit[],
  locale: string | undefined,
  agent: AgentProfile = DEFAULT_AGENT,
): string {
  const language = answerLanguage(locale);
  return [
    agentPersona(agent),
    "Answer the customer's last message using only the passages below. Do not invent facts, prices, dates or policies that the passages do not state.",
    `If the passages do not answer the question, reply with exactly ${NOT_SURE_MARK} and nothing else.`,
    'When a tool fits what the customer asks (for example looking up an order), call it instead of answering.',
    "The passages may be written in any language, not only the customer's: use whichever answers the question.",
    `Write your answer in ${language}, whatever the language of the passages: translate what you take from them.`,
    'Cite your source: end the answer with the number of its passage in square brackets, for example [1].',
    '',
    'Passages:',
    passages.map(passage).join('\n\n') || '(none)',
  ].join('\n');
}

/** The account's actions as tools the model may call (their inputs as string parameters). */
export function actionTools(actions: readonly ActionDefinition[]): LlmTool[] {
  return actions.map((action) => ({
    type: 'function',
    function: {
      name: action.name,
      description: action.description,
      parameters: {
        type: 'object',
        properties: Object.fromEntries(
          action.inputs.map((input) => [input.name, { type: 'string', description: input.description }]),
        ),
        required: action.inputs.filter((input) => input.required).map((input) => input.name),
      },
    },
  }));
}

/**
 * The LLM brain: grounded in the best knowledge passages, with the account's actions as tools.
 * What needs no model (a person asked for, "did that help?", a thank-you, an action collecting its
 * inputs) is the retrieval brain's; so is every message while the LLM is down (`fellBack`). It
 * reads, and gives the model, what the retrieval brain reads of each message (MESSAGE_READ_CHARS);
 * its own work runs in `think`'s stretches, before and after the model's answer.
 */
export async function decideWithLlm(
  llm: LlmClient,
  input: {
    text: string;
    memory: BrainMemory;
    knowledge: KnowledgeBase;
    actions: readonly ActionDefinition[];
    locale?: string | undefined;
    history: readonly HistoryTurn[];
    agent?: AgentProfile;
    think?: Think;
  },
  /** Streams the answer's text as the model writes it (never a NOT_SURE, which is held back). */
  onDelta?: (text: string) => void,
): Promise<LlmDecision> {
  const { memory, knowledge, actions, locale, history, agent = DEFAULT_AGENT, think = thinkFreely } = input;
  const text = readPart(input.text);
  // The customer's language for passages and fixed sentences: the conversation's, or told from the message.
  const last = { question: memory.lastQuestion ?? null, language: memory.customerLanguage ?? null };
  const speaks = customerLanguage(text, locale, last);
  const retrieval = () => think((budget) => decide(text, memory, { knowledge, actions, locale, agent, budget }));
  const none = { promptTokens: 0, completionTokens: 0 };
  const feedback = memory.lastAnswer && answersHelped(text) !== undefined;
  if (asksForPerson(text) || feedback || memory.awaitingAction || saysThanksOrBye(text)) {
    return { decision: retrieval(), usage: none, fellBack: false };
  }
  const hits = think((budget) => passagesFor(knowledge, text, speaks, budget));
  const passages = hits.filter((hit) => hit.score >= PASSAGE_SCORE);
  if (passages.length === 0 && actions.length === 0) {
    return { decision: { kind: 'reply', ...notSureAnswer(hits, speaks) }, usage: none, fellBack: false };
  }
  const messages: LlmMessage[] = [
    { role: 'system', content: systemPrompt(passages, locale, agent) },
    ...history.slice(-HISTORY_TURNS).map((turn): LlmMessage => ({
      role: turn.role === 'customer' ? 'user' : 'assistant',
      content: readPart(turn.text),
    })),
    { role: 'user', content: text },
  ];
  let answer;
  try {
    answer = await llm.chat(messages, actionTools(actions), onDelta && holdBackNotSure(withoutCitations(onDelta)));
  } catch (error) {
    if (!(error instanceof LlmUnavailableError)) throw error;
    return { decision: retrieval(), usage: none, fellBack: true };
  }
  const { usage } = answer;
  const [call] = answer.toolCalls;
  const action = call && actions.find((candidate) => candidate.name === call.function.name);
  if (action)
    return {
      decision: think((budget) => actionDecision(action, call.function.arguments, text, budget)),
      usage,
      fellBack: false,
    };

  const content = answer.content.trim();
  if (!content || content.includes(NOT_SURE_MARK) || passages.length === 0) {
    return { decision: { kind: 'reply', ...notSureAnswer(hits, speaks) }, usage, fellBack: false };
  }
  const { said, cited } = citedPassage(content, passages);
  return {
    decision: {
      kind: 'reply',
      text: `${said}\n\n${sourceLine(cited.section, speaks)}\n\n${textsFor(speaks).didThatHelp}`,
      answered: true,
      choices: feedbackChoicesIn(speaks),
      source: { id: cited.section.id, title: cited.section.title },
    },
    usage,
    fellBack: false,
  };
}

/** A citation the model writes ("[2]"), with the space before it. */
const CITATION = /\s*\[(\d{1,2})\]/g;

/**
 * The answer without its citations, and the passage it cites: the first number that is a passage's,
 * else the passage whose title or heading it names, else the best one.
 */
function citedPassage(content: string, passages: readonly KnowledgeHit[]): { said: string; cited: KnowledgeHit } {
  const numbered = [...content.matchAll(CITATION)]
    .map((match) => passages[Number(match[1]) - 1])
    .find((hit) => hit !== undefined);
  const named = passages.find((hit) => content.includes(hit.section.heading) || content.includes(hit.section.title));
  return { said: content.replace(CITATION, '').trim(), cited: numbered ?? named ?? passages[0]! };
}

/**
 * The model's words for an action's result, the tool call's answer going back to it: the result
 * is given as the tool's output, and the model tells the customer (only what the result says).
 * Undefined when the model cannot answer now: the action's own reply template is used then.
 */
export async function phraseResult(
  llm: LlmClient,
  input: {
    action: ActionDefinition;
    inputs: ActionInputs;
    result: Record<string, unknown>;
    history: readonly HistoryTurn[];
    locale?: string | undefined;
    agent?: AgentProfile;
  },
): Promise<{ text: string; usage: LlmDecision['usage'] } | undefined> {
  const language = answerLanguage(input.locale);
  const call = {
    id: 'call_result',
    type: 'function' as const,
    function: { name: input.action.name, arguments: JSON.stringify(input.inputs) },
  };
  const messages: LlmMessage[] = [
    {
      role: 'system',
      content: `${agentPersona(input.agent ?? DEFAULT_AGENT)} Tell the customer the result of the action in one or two sentences, in ${language}, using only what the result says. If it failed, say so honestly and offer a person.`,
    },
    ...input.history.slice(-HISTORY_TURNS).map((turn): LlmMessage => ({
      role: turn.role === 'customer' ? 'user' : 'assistant',
      content: readPart(turn.text),
    })),
    { role: 'assistant', content: null, tool_calls: [call] },
    { role: 'tool', tool_call_id: call.id, content: JSON.stringify(input.result) },
  ];
  try {
    const answer = await llm.chat(messages);
    const text = answer.content.trim();
    return text && !text.includes(NOT_SURE_MARK) ? { text, usage: answer.usage } : undefined;
  } catch (error) {
    if (error instanceof LlmUnavailableError) return undefined;
    throw error;
  }
}

/** Passes pieces on once the text can no longer be the NOT_SURE mark (until then they wait). */
function holdBackNotSure(onDelta: (text: string) => void): (text: string) => void {
  let held = '';
  let open = false;
  return (piece) => {
    if (open) return onDelta(piece);
    held += piece;
    const start = held.trimStart();
    if (start.length >= NOT_SURE_MARK.length ? !start.startsWith(NOT_SURE_MARK) : !NOT_SURE_MARK.startsWith(start)) {
      open = true;
      onDelta(held);
    }
  };
}

/**
 * Passes the pieces on without the citations (they name the source line's article, which follows
 * the answer): a piece that ends in what may still become one ("[", "[1") waits for the next.
 */
function withoutCitations(onDelta: (text: string) => void): (text: string) => void {
  let held = '';
  return (piece) => {
    let text = held + piece;
    const open = /\s*\[\d{0,2}$/.exec(text);
    held = open ? open[0] : '';
    if (open) text = text.slice(0, open.index);
    text = text.replace(CITATION, '');
    if (text) onDelta(text);
  };
}

/** A tool call as the SPEC's action request, or a question for the input it still lacks (checked as the retrieval brain checks them). */
function actionDecision(action: ActionDefinition, rawArguments: string, text: string, budget: BrainBudget): Decision {
  let given: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(rawArguments || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) given = parsed as Record<string, unknown>;
  } catch {
    // Arguments that are not JSON count as none: the inputs are asked for.
  }
  const known: ActionInputs = {};
  for (const inputDefinition of action.inputs) {
    const value = given[inputDefinition.name];
    if (typeof value === 'string' && value.trim()) known[inputDefinition.name] = value.trim().slice(0, 300);
  }
  // An input the model made up must still look right: what fails the action's own pattern is taken from the text, or asked for.
  const inputs = extractInputs(action, text, filterByPattern(action, known, budget), budget);
  const [missing] = missingInputs(action, inputs);
  return missing ? { kind: 'ask', text: missing.ask, action: action.name, inputs } : { kind: 'action', action, inputs };
}

/** The inputs that match their pattern; one that cannot be checked before the budget is spent is left out (and asked for). */
function filterByPattern(action: ActionDefinition, inputs: ActionInputs, budget: BrainBudget): ActionInputs {
  const kept: ActionInputs = {};
  for (const [name, value] of Object.entries(inputs)) {
    const definition = action.inputs.find((candidate) => candidate.name === name);
    if (!definition?.pattern || (!outOfTime(budget) && matchPattern(definition.pattern, value))) kept[name] = value;
  }
  return kept;
}
