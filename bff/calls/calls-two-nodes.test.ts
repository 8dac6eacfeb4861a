import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallEnded, CallJoined } from '../../shared/index.ts';
import { Inbox, InboxList, User } from '../../shared/schemas/helpdesk/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import {
  DRIVERS,
  engineConversationOf,
  POSTGRES_URL,
  request,
  startStack,
  type BffNode,
  type TestStack,
} from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { connectWidget, newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { connectConsole, emit, heard, type ConsoleSocket } from './call-clients.ts';
import { startWorkerNode, type WorkerNode } from './worker-node.ts';

/**
 * Person calls across two BFF nodes sharing PostgreSQL and Redis (the machine's real ones), as
 * DESIGN "Many machines" has it: the customer's tab on node A, the person's console on node B. The
 * signalling here is what the browsers would send (test/browser/person-calls.test.ts carries real
 * audio on one node); it crosses the nodes through the Socket.IO adapter. A node that dies (a
 * third node, in a thread stopped mid-flight) ends its calls once its lease lapses.
 */
const REDIS_URL = process.env['REDIS_TEST_URL'] ?? 'redis://127.0.0.1:6379';
const SECRETS_KEYS = 's1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc';
/** Short leases, so that a dead node's calls end within seconds. */
const CALL_LEASE_MS = 3_000;

describe('person calls between two BFF nodes', () => {
  let nodeA: TestStack;
  let nodeB: BffNode;
  const workers: WorkerNode[] = [];
  let admin: User;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    nodeA = await startStack(
      DRIVERS[1],
      { REDIS_URL, SECRETS_KEYS, DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN },
      { callLeaseMs: CALL_LEASE_MS },
    );
    nodeB = await nodeA.startAnotherNode({ callLeaseMs: CALL_LEASE_MS });
    const platform = (path: string, body: unknown) =>
      desk(`${nodeA.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    admin = User.parse((await platform('/users', { name: 'Ada', email: 'ada@two-nodes.example' })).body);
    await platform(`/accounts/${nodeA.accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
    const app = (path: string, options: { method?: string; body?: unknown } = {}) =>
      desk(`${nodeA.url}/api/v1/accounts/${nodeA.accountId}${path}`, admin.access_token!, options);
    const inbox = InboxList.parse((await app('/inboxes')).body).payload[0] as Inbox;
    await app(`/inboxes/${inbox.id}`, { method: 'PATCH', body: { calls_enabled: true } });
    await desk(`${nodeA.url}/api/v1/profile`, admin.access_token!, {
      method: 'PATCH',
      body: { account_id: nodeA.accountId, availability: 'online' },
    });
  }, 180_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    for (const worker of workers) await worker.kill();
    await nodeB?.stop();
    await nodeA?.stop();
  });

  /** A customer on node A who wrote (so the engine has the conversation), with a tab's socket there. */
  const customerOnA = async () => {
    const { token } = await newVisitor(nodeA.url);
    const conversation = await openWidgetConversation(nodeA.url, token);
    await sendWidgetMessage(nodeA.url, token, conversation.id, 'Can I call you?', 'two-nodes-1');
    const tab = await connectWidget(nodeA.url, token);
    sockets.push(tab.socket);
    const { socket } = tab;
    return {
      socket,
      conversation,
      accepted: heard(socket, 'call:accepted'),
      signalled: heard(socket, 'call:signalled'),
      ended: heard<CallEnded>(socket, 'call:ended'),
    };
  };
  const consoleOn = async (url: string) => {
    const agent = await connectConsole(url, admin.access_token!, nodeA.accountId);
    sockets.push(agent.socket);
    return agent;
  };
  /** The customer calls; the call rings on `agent`'s node, and `agent` takes it. */
  const callTakenBy = async (customer: Awaited<ReturnType<typeof customerOnA>>, agent: ConsoleSocket) => {
    const started = await emit<CallJoined>(customer.socket, 'call:start', {
      conversation_id: customer.conversation.id,
    });
    if (!started.ok) throw new Error(started.error.message);
    const callId = started.data.call_id;
    await until(
      () => agent.rings.filter((ring) => ring.call_id === callId),
      (rings) => rings.length > 0,
      'the ring on the other node',
    );
    expect(await emit(agent.socket, 'call:accept', { call_id: callId })).toMatchObject({ ok: true });
    await until(
      () => customer.accepted.length,
      (count) => count > 0,
      'the acceptance on node A',
    );
    return callId;
  };
  const feedOf = async (uuid: string) => {
    const engineConversationId = await engineConversationOf(nodeA, uuid);
    const events = (await request(`${nodeA.engineUrl}/v1/events?limit=1000`, { token: nodeA.apiKey })).body.events as {
      type: string;
      conversation_id: string;
      data: Record<string, unknown>;
    }[];
    return events.filter((event) => event.conversation_id === engineConversationId && event.type.startsWith('call.'));
  };

  it('rings a console on node B, relays offer, answer and candidates both ways, and ends for both when the customer hangs up', async () => {
    const agentB = await consoleOn(nodeB.url);
    const agentA = await consoleOn(nodeA.url);
    const customer = await customerOnA();
    const callId = await callTakenBy(customer, agentB);
    // The console on A that rang too heard that the call was taken, and may not signal in it.
    await until(
      () => agentA.ended.filter((ended) => ended.call_id === callId),
      (list) => list.length > 0,
      'the end of the ring on node A',
    );
    const candidate = { type: 'candidate', candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host' } };
    const stranger = await emit(agentA.socket, 'call:signal', { call_id: callId, signal: candidate });
    expect(stranger).toEqual({ ok: false, error: expect.objectContaining({ code: 'not_found' }) });

    const offer = { call_id: callId, signal: { type: 'offer', sdp: 'v=0 offer' } };
    expect(await emit(customer.socket, 'call:signal', offer)).toEqual({ ok: true, data: null });
    const answer = { call_id: callId, signal: { type: 'answer', sdp: 'v=0 answer' } };
    expect(await emit(agentB.socket, 'call:signal', answer)).toEqual({ ok: true, data: null });
    expect(await emit(agentB.socket, 'call:signal', { call_id: callId, signal: candidate })).toMatchObject({
      ok: true,
    });
    await until(
      () => customer.signalled.length + agentB.signalled.length,
      (count) => count === 3,
      'the signalling across the nodes',
    );
    expect(agentB.signalled).toEqual([offer]);
    expect(customer.signalled).toEqual([answer, { call_id: callId, signal: candidate }]);
    expect(agentA.signalled).toEqual([]);

    expect(await emit(customer.socket, 'call:hang_up', { call_id: callId })).toEqual({ ok: true, data: null });
    const ended = await until(
      () => agentB.ended.filter((end) => end.call_id === callId),
      (list) => list.length > 0,
      'the end on node B',
    );
    expect(ended).toEqual([{ call_id: callId, duration_s: expect.any(Number), ended_by: 'customer', missed: false }]);
    const endings = await until(
      () => feedOf(customer.conversation.id),
      (events) => events.some((event) => event.type === 'call.ended'),
      "call.ended in the engine's feed",
    );
    expect(endings.map((event) => [event.type, event.data['ended_by']])).toEqual([
      ['call.started', undefined],
      ['call.ended', 'customer'],
    ]);
  });

  it('ends for the customer on node A when the person on node B hangs up, and lets the conversation call again', async () => {
    const agentB = await consoleOn(nodeB.url);
    const customer = await customerOnA();
    const callId = await callTakenBy(customer, agentB);
    const again = await emit(customer.socket, 'call:start', { conversation_id: customer.conversation.id });
    expect(again).toEqual({ ok: false, error: expect.objectContaining({ code: 'conflict' }) });
    expect(await emit(agentB.socket, 'call:hang_up', { call_id: callId })).toEqual({ ok: true, data: null });
    await until(
      () => customer.ended,
      (list) => list.length > 0,
      'the end on node A',
    );
    expect(customer.ended).toEqual([
      { call_id: callId, duration_s: expect.any(Number), ended_by: 'person', missed: false },
    ]);
    const next = await emit<CallJoined>(customer.socket, 'call:start', { conversation_id: customer.conversation.id });
    expect(next.ok).toBe(true);
    if (next.ok) await emit(customer.socket, 'call:hang_up', { call_id: next.data.call_id });
  });

  it('ends a call for the customer on node A, and at the engine, once the node of the person who took it dies', async () => {
    const worker = await startWorkerNode({
      env: {
        DATABASE_URL: POSTGRES_URL,
        REDIS_URL,
        SECRETS_KEYS,
        AI_API_URL: nodeA.engineUrl,
        AI_API_KEY: [nodeA.apiKey, nodeA.liveApiKey].filter(Boolean).join(','),
      },
      schemaPrefix: nodeA.bffSql.schema.slice(0, -'bff'.length),
      inboxId: nodeA.inboxId,
      callLeaseMs: CALL_LEASE_MS,
    });
    workers.push(worker);
    const agentC = await consoleOn(worker.url);
    const customer = await customerOnA();
    const callId = await callTakenBy(customer, agentC);
    await until(
      () => feedOf(customer.conversation.id),
      (events) => events.length > 0,
      "call.started in the engine's feed",
    );

    await worker.kill();
    const ended = await until(
      () => customer.ended,
      (list) => list.length > 0,
      'the end of the call on node A',
      4 * CALL_LEASE_MS,
    );
    expect(ended).toEqual([
      { call_id: callId, duration_s: expect.any(Number), ended_by: 'network', missed: false, reason: 'node_gone' },
    ]);
    const endings = await until(
      () => feedOf(customer.conversation.id),
      (events) => events.length > 1,
      "call.ended in the engine's feed",
    );
    expect(endings[1]).toMatchObject({ type: 'call.ended', data: { ended_by: 'network', reason: 'node_gone' } });
  });
});
