import { z } from 'zod';
import { ENVIRONMENTS } from '../environment.ts';
import { LocaleTag } from './engine.ts';

/**
 * The agent customers meet (`GET/PATCH /v1/agent`) and its kill switch (`PUT /v1/agent/kill-switch`).
 * Each environment has its own agent: the sandbox is where a change is tried, and a test key never
 * changes what live customers meet.
 */

/** How the agent speaks: its own sentences (handover, thanks, "did that help") and the model's instructions. */
export const AgentTone = z.enum(['friendly', 'neutral', 'formal']);
export type AgentTone = z.infer<typeof AgentTone>;

/** Which brain answers: the retrieval brain, or an LLM (when the engine has one configured, LLM_BASE_URL). */
export const AgentBrain = z.enum(['retrieval', 'llm']);
export type AgentBrain = z.infer<typeof AgentBrain>;

/** The most languages one agent greets in, and the most handover keywords it has. */
export const MAX_GREETINGS = 50;
export const MAX_HANDOVER_KEYWORDS = 50;

const AgentName = z.string().trim().min(1).max(80);
const GreetingText = z.string().trim().min(1).max(1000);
const HandoverKeyword = z.string().trim().min(2).max(60);
const AfterFailedAnswers = z.number().int().min(1).max(10);

export const KillSwitchState = z.object({
  enabled: z.boolean(),
  /** Why it was switched on (as the one who switched it said), while it is on. */
  reason: z.string().nullable(),
  /** Since when it is on (ISO 8601), while it is on. */
  since: z.string().nullable(),
});
export type KillSwitchState = z.infer<typeof KillSwitchState>;

export const AgentSettings = z.object({
  environment: z.enum(ENVIRONMENTS),
  name: z.string(),
  /** The AI's first words in a conversation, per language tag (`en`, `de`, `pt-BR`…). */
  greeting: z.record(z.string(), z.string()),
  tone: AgentTone,
  handover: z.object({
    /** Hand over instead of the n-th "not sure" answer in a row; null: never for that reason. */
    after_failed_answers: z.number().int().nullable(),
    /** A customer message with one of these words or phrases goes to people at once. */
    keywords: z.array(z.string()),
  }),
  /** The brain chosen for this environment; null: the engine's default (the LLM when one is configured). */
  brain: AgentBrain.nullable(),
  /** The brain that answers now, with this engine's configuration. */
  brain_in_use: AgentBrain,
  kill_switch: KillSwitchState,
  updated_at: z.string().nullable(),
});
export type AgentSettings = z.infer<typeof AgentSettings>;

/**
 * A change to the agent: only the fields sent change. `greeting` is merged by language (a language
 * set to null is removed); `handover` is merged by field.
 */
export const UpdateAgentRequest = z.strictObject({
  name: AgentName.optional(),
  greeting: z
    .record(LocaleTag, GreetingText.nullable())
    .refine((greetings) => Object.keys(greetings).length <= MAX_GREETINGS, `at most ${MAX_GREETINGS} languages`)
    .optional()
    .describe('Greetings by language tag; null removes a language.'),
  tone: AgentTone.optional(),
  handover: z
    .strictObject({
      after_failed_answers: AfterFailedAnswers.nullable().optional(),
      keywords: z.array(HandoverKeyword).max(MAX_HANDOVER_KEYWORDS).optional(),
    })
    .optional(),
  brain: AgentBrain.nullable().optional(),
});
export type UpdateAgentRequest = z.infer<typeof UpdateAgentRequest>;

export const KillSwitchRequest = z.strictObject({
  enabled: z.boolean(),
  reason: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .optional()
    .describe('Why (kept while it is on, shown by GET /v1/me and GET /v1/agent).'),
});
export type KillSwitchRequest = z.infer<typeof KillSwitchRequest>;

export const KillSwitchResponse = KillSwitchState.extend({
  /** Conversations this call handed to people (those the AI had). */
  handed_over: z.number().int(),
});
export type KillSwitchResponse = z.infer<typeof KillSwitchResponse>;
