import { AgentSettings, KillSwitchRequest, KillSwitchResponse, UpdateAgentRequest } from '../../shared/index.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import type { ConversationService } from '../conversations/index.ts';
import { KILL_SWITCH_REASON, readAgent, setKillSwitch, updateAgent, type AgentRecord } from '../store/agent.ts';
import type { Caller } from '../store/environment.ts';

const tag = 'Agent';
const security = 'apiKey';

/** The agent as the API shows it; `llm` says whether this engine has a model configured. */
function agentView(caller: Caller, agent: AgentRecord, llm: boolean): AgentSettings {
  const { profile, killSwitch } = agent;
  return {
    environment: caller.environment,
    name: profile.name,
    greeting: profile.greeting,
    tone: profile.tone,
    handover: { after_failed_answers: profile.handover.afterFailedAnswers, keywords: [...profile.handover.keywords] },
    brain: agent.brain,
    brain_in_use: llm && agent.chosenBrain !== 'retrieval' ? 'llm' : 'retrieval',
    kill_switch: {
      enabled: killSwitch !== null,
      reason: killSwitch?.reason ?? null,
      since: killSwitch?.since.toISOString() ?? null,
    },
    updated_at: agent.updatedAt?.toISOString() ?? null,
  };
}

/**
 * `/v1/agent`: the agent customers meet in the key's environment (its name, greeting per language,
 * tone, handover rules and brain) and its kill switch, which hands every conversation to people
 * while it is on. Turning it off hands nothing back: people do that.
 */
export function addAgentRoutes(
  routes: ApiRoutes<EngineState>,
  { sql, conversations, now, llm }: { sql: Sql; conversations: ConversationService; now: () => Date; llm: boolean },
): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/agent',
        tag,
        security,
        summary: 'The agent customers meet',
        description:
          "The key's environment has its own agent (the sandbox's is where a change is tried). Without changes: the name Assistant, no greeting, the friendly tone, no handover rules, the engine's default brain.",
        responses: { 200: { description: 'The agent.', schema: AgentSettings } },
      },
      async (ctx) => {
        ctx.body = agentView(ctx.state.caller, await readAgent(sql, ctx.state.caller), llm);
      },
    )
    .add(
      {
        method: 'patch',
        path: '/v1/agent',
        tag,
        security,
        summary: 'Change the agent',
        description:
          "Only the fields sent change. greeting is merged by language tag (null removes one): the AI says it, in the customer's language (else in English when the language is not known), before its first words in a conversation. tone (friendly, neutral, formal) chooses the AI's own sentences and the model's instructions. handover: after_failed_answers hands over instead of the n-th \"not sure\" answer in a row (null: never); keywords hand a message that says one of them to people at once. brain: retrieval, llm (used when the engine has a model configured, LLM_BASE_URL), or null for the engine's default.",
        body: UpdateAgentRequest,
        responses: { 200: { description: 'The agent after the change.', schema: AgentSettings } },
      },
      async (ctx, { body }) => {
        ctx.body = agentView(ctx.state.caller, await updateAgent(sql, ctx.state.caller, body, now()), llm);
      },
    )
    .add(
      {
        method: 'put',
        path: '/v1/agent/kill-switch',
        tag,
        security,
        summary: 'Switch the AI off, or on again',
        description: `While enabled, the AI answers nothing in the key's environment: every conversation it has goes to people at once (a conversation.handover event with reason ${KILL_SWITCH_REASON}), and so does every new conversation and every message to a conversation it had; people cannot hand a conversation back meanwhile. GET /v1/me shows it. Turning it off hands nothing back: people do that.`,
        body: KillSwitchRequest,
        responses: {
          200: {
            description: 'The kill switch now, and how many conversations this call handed to people.',
            schema: KillSwitchResponse,
          },
        },
      },
      async (ctx, { body }) => {
        const { caller } = ctx.state;
        const state = await setKillSwitch(sql, caller, body.enabled ? { reason: body.reason } : null, now());
        // After the switch is committed: any message taken from now on sees it, and the sweep takes what the AI had.
        const handedOver = state ? await conversations.handOverAll(caller, KILL_SWITCH_REASON) : 0;
        const answer: KillSwitchResponse = {
          enabled: state !== null,
          reason: state?.reason ?? null,
          since: state?.since.toISOString() ?? null,
          handed_over: handedOver,
        };
        ctx.body = answer;
      },
    );
}
