import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopActions } from '../test/shop-fixtures.ts';
import { request, startEngine, type TestEngine } from '../test/stack.ts';
import { CONVERSATION_MOVES, defineAction } from './index.ts';

type State = 'ai' | 'human' | 'closed';
type Move = keyof typeof CONVERSATION_MOVES;

/** The state table as written in engine/conversation-states.ts: which moves each state allows, and where they lead. */
const EXPECTED: Record<Move, { from: State[]; to?: State }> = {
  message: { from: ['ai', 'human'] },
  action_result: { from: ['ai', 'human'] },
  handover: { from: ['ai'], to: 'human' },
  handback: { from: ['human'], to: 'ai' },
  human_message: { from: ['human'] },
  voice_session: { from: ['ai', 'human'] },
  close: { from: ['ai', 'human'], to: 'closed' },
};

describe('the conversation state table', () => {
  let engine: TestEngine;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });

  beforeAll(async () => {
    engine = await startEngine();
    await defineAction(engine.sql, engine.accountId, shopActions[0]!);
  });
  afterAll(() => engine?.stop());

  it('is the table the code enforces', () => {
    const actual = Object.fromEntries(
      Object.entries(CONVERSATION_MOVES).map(([move, rule]) => [
        move,
        { from: [...rule.from], ...(rule.to ? { to: rule.to } : {}) },
      ]),
    );
    expect(actual).toEqual(EXPECTED);
  });

  /** A conversation in `state`, with an action request still waiting for its result. */
  async function conversationIn(state: State): Promise<{ id: string; actionRequestId: string }> {
    const { body: conversation } = await api('/v1/conversations', { body: { customer_ref: `state-${state}` } });
    const sent = await api(`/v1/conversations/${conversation.id}/messages`, {
      body: { text: 'Where is my order 12345?' },
    });
    const actionRequestId = sent.body.events.find(
      (event: { type: string }) => event.type === 'conversation.action_request',
    ).data.action_request_id;
    if (state === 'human') await api(`/v1/conversations/${conversation.id}/handover`, { body: {} });
    if (state === 'closed') await api(`/v1/conversations/${conversation.id}/close`, { body: {} });
    return { id: conversation.id, actionRequestId };
  }

  const perform: Record<Move, (id: string, actionRequestId: string) => ReturnType<typeof request>> = {
    message: (id) => api(`/v1/conversations/${id}/messages`, { body: { text: 'How long does delivery take?' } }),
    action_result: (id, actionRequestId) =>
      api(`/v1/conversations/${id}/action-results`, {
        body: { action_request_id: actionRequestId, result: { status: 'shipped' } },
      }),
    handover: (id) => api(`/v1/conversations/${id}/handover`, { body: {} }),
    handback: (id) => api(`/v1/conversations/${id}/handback`, { body: {} }),
    human_message: (id) =>
      api(`/v1/conversations/${id}/human-messages`, { body: { text: 'Hi, this is Sam from support.' } }),
    voice_session: (id) => api(`/v1/conversations/${id}/voice-sessions`, { method: 'POST' }),
    close: (id) => api(`/v1/conversations/${id}/close`, { body: {} }),
  };

  const cases = (['ai', 'human', 'closed'] as State[]).flatMap((state) =>
    (Object.keys(EXPECTED) as Move[]).map((move) => ({
      state,
      move,
      allowed: EXPECTED[move].from.includes(state),
      to: EXPECTED[move].to ?? state,
    })),
  );

  it.each(cases)('$move from $state: allowed=$allowed', async ({ state, move, allowed, to }) => {
    const { id, actionRequestId } = await conversationIn(state);
    const before = (await api('/v1/events?limit=1000')).body.events.length;
    const response = await perform[move](id, actionRequestId);
    const after = await api(`/v1/conversations/${id}/transcript`);
    if (allowed) {
      expect(response.status).toBeLessThan(300);
      expect(after.body.state).toBe(to);
    } else {
      expect(response.status).toBe(409);
      expect(response.body.error).toMatchObject({ code: 'invalid_state', details: { state, move } });
      expect(after.body.state).toBe(state);
      expect((await api('/v1/events?limit=1000')).body.events.length).toBe(before);
    }
  });
});
