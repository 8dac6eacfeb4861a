import { randomToken } from '../../shared/index.ts';

/**
 * Customers of the chaos suite, talking to the BFF as the widget does: a verified customer's
 * session (made with the engine API key, so the site-key limit of 20 an hour per address does not
 * apply), one conversation, and messages sent one after another, each with its own `message_id`.
 * A send that got no 2xx (a reset connection, a 5xx, a timeout) is sent again with the same
 * `message_id`, as the widget's outbox does, until the BFF acknowledges it; while a node does not
 * answer, the next try goes to another node, as a load balancer would send it.
 */

/** Questions the demo knowledge base answers; none asks for a person or says goodbye (either would end the AI's turn). */
const QUESTIONS = [
  'How do I return an item?',
  'Do you ship abroad?',
  'How long does delivery take?',
  'Which payment methods do you accept?',
  'Can I change my order?',
  'Where is my refund?',
];

/** How long one message is tried before the run gives up on it (the engine-down fault keeps the BFF up: it answers at once). */
const GIVE_UP_MS = 90_000;
const REQUEST_TIMEOUT_MS = 10_000;

export interface SentMessage {
  messageId: string;
  text: string;
  /** The BFF answered 2xx to one of its sends. */
  acknowledged: boolean;
  /** Sends that got no 2xx before the one that did. */
  failedTries: number;
  /** The BFF refused it for good (a 4xx other than a limit): the widget would show it failed. */
  refused?: string;
}

export interface Customer {
  ref: string;
  token: string;
  conversationId: string;
  /** BFF base URLs; the customer starts at `nodes[0]`. */
  nodes: string[];
  sent: SentMessage[];
  /**
   * How a sent message is found in the conversation: by its `message_id`, or (for a widget in
   * Chromium, which makes its ids itself) by its text, unique per customer there.
   */
  matchBy?: 'message_id' | 'text';
}

export interface NewCustomers {
  /** Where sessions are made (a node that answers now). */
  nodes: string[];
  /** The engine API key the BFF accepts for verified customers. */
  apiKey: string;
  count: number;
  /** Put before each customer's reference, naming the fault. */
  label: string;
}

/** Makes `count` customers with a session and an open conversation each; customer i starts at node i mod n. */
export async function newCustomers({ nodes, apiKey, count, label }: NewCustomers): Promise<Customer[]> {
  const run = randomToken(6).toLowerCase();
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const home = nodes.slice(index % nodes.length).concat(nodes.slice(0, index % nodes.length));
      const ref = `chaos-${label}-${run}-${index}`;
      const session = await call(home[0]!, '/v1/widget-sessions', apiKey, { customer_ref: ref });
      if (session.status !== 201)
        throw new Error(`session for ${ref}: ${session.status} ${JSON.stringify(session.body)}`);
      const token = (session.body as { token: string }).token;
      const conversation = await call(home[0]!, '/v1/widget/conversations', token, {});
      if (conversation.status !== 201)
        throw new Error(`conversation for ${ref}: ${conversation.status} ${JSON.stringify(conversation.body)}`);
      return { ref, token, conversationId: (conversation.body as { id: string }).id, nodes: home, sent: [] };
    }),
  );
}

/** Counts acknowledgements across a burst, and lets a fault wait for a share of them. */
export class BurstProgress {
  acknowledged = 0;
  #waiters: { count: number; resolve: () => void }[] = [];

  acknowledge(): void {
    this.acknowledged++;
    for (const waiter of this.#waiters.filter((entry) => entry.count <= this.acknowledged)) waiter.resolve();
    this.#waiters = this.#waiters.filter((entry) => entry.count > this.acknowledged);
  }

  /** Resolves once `count` messages of the burst have been acknowledged. */
  reached(count: number): Promise<void> {
    if (this.acknowledged >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }
}

/**
 * Every customer sends `messages` messages, one after another (the next once the last was
 * acknowledged), `gapMs` apart on average; all customers at once. Resolves when every message was
 * acknowledged or given up on.
 */
export async function burst(
  customers: Customer[],
  options: { messages: number; gapMs: number; progress: BurstProgress },
): Promise<void> {
  await Promise.all(
    customers.map(async (customer, index) => {
      // Spread the customers' first messages over one gap, so the burst is steady rather than waves.
      await sleep((options.gapMs * index) / customers.length);
      for (let number = 0; number < options.messages; number++) {
        const message: SentMessage = {
          messageId: `${customer.ref}-m${customer.sent.length}`,
          text: QUESTIONS[(index + number) % QUESTIONS.length]!,
          acknowledged: false,
          failedTries: 0,
        };
        customer.sent.push(message);
        await sendUntilAcknowledged(customer, message);
        if (message.acknowledged) options.progress.acknowledge();
        await sleep(options.gapMs * (0.5 + Math.random()));
      }
    }),
  );
}

async function sendUntilAcknowledged(customer: Customer, message: SentMessage): Promise<void> {
  const deadline = Date.now() + GIVE_UP_MS;
  let node = 0;
  for (;;) {
    const path = `/v1/widget/conversations/${customer.conversationId}/messages`;
    const answer = await call(customer.nodes[node]!, path, customer.token, {
      text: message.text,
      message_id: message.messageId,
    });
    if (answer.status >= 200 && answer.status < 300) {
      message.acknowledged = true;
      return;
    }
    // A refusal for good (4xx other than a limit) would be the widget's "failed": the run reports it.
    if (answer.status >= 400 && answer.status < 500 && answer.status !== 408 && answer.status !== 429) {
      message.refused = `${answer.status} ${JSON.stringify(answer.body)}`;
      return;
    }
    message.failedTries++;
    if (Date.now() > deadline) return;
    // No answer at all: that node is down, the next try goes to another one.
    if (answer.status === 0) node = (node + 1) % customer.nodes.length;
    await sleep(answer.retryAfterMs ?? Math.min(200 * 2 ** Math.min(message.failedTries, 4), 2_000));
  }
}

export interface CallAnswer {
  /** 0 when no HTTP answer came (refused, reset, timed out). */
  status: number;
  body: unknown;
  retryAfterMs: number | undefined;
}

/** One JSON call to a BFF with a bearer token (GET without a body); never throws. */
export async function call(base: string, path: string, token: string, body?: unknown): Promise<CallAnswer> {
  try {
    const response = await fetch(base + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    const retryAfter = Number(response.headers.get('retry-after'));
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: kept as text for the report.
    }
    return { status: response.status, body: parsed, retryAfterMs: retryAfter > 0 ? retryAfter * 1_000 : undefined };
  } catch (error) {
    return { status: 0, body: String(error), retryAfterMs: undefined };
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
