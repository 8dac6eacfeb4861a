import { call, sleep, type Customer, type SentMessage } from './customers.ts';

/**
 * What the customers see once a fault is over, read through the widget's own API (their
 * conversations, by cursor): every acknowledged message once, in the order it was sent, with
 * exactly one AI answer each.
 *
 * - lost: an acknowledged message that is not in its conversation, or one without its answer
 *   (fewer AI answers than customer messages), or one never acknowledged however long it was sent.
 * - duplicated: a second copy of a message (same `message_id`), a customer message nobody sent, or
 *   an AI answer more than there are customer messages.
 * - out of order: a customer message shown before one sent earlier, or the k-th AI answer shown
 *   before the k-th customer message (the relay forwards one message at a time and records its
 *   answer before it forwards the next, so the answers follow the questions in step).
 */

interface ShownMessage {
  id: number;
  author: string;
  message_id: string | null;
  text: string;
  created_at: string;
}

/** The shown message's identity, as `customer.sent` names it (see `Customer.matchBy`). */
const identity = (customer: Customer, message: ShownMessage): string | null =>
  customer.matchBy === 'text' ? message.text : message.message_id;
const sentIdentity = (customer: Customer, message: SentMessage): string =>
  customer.matchBy === 'text' ? message.text : message.messageId;

export interface FaultResult {
  name: string;
  lost: number;
  duplicated: number;
  outOfOrder: number;
  /** How many messages, retries and answers, for the report. */
  summary: string;
  /**
   * From the moment the failed part served again to the last answer of a message the customers
   * sent before it (issue 34: at most 15 s); none for a fault that restarts nothing.
   */
  recoveryMs?: number;
}

export interface TallyOptions {
  /** How long answers may take to arrive after the fault. */
  settleMs: number;
  /** When the failed part served again (ms since the epoch): recovery is counted from there. */
  restartedAt?: number;
}

/**
 * The last answer to a message the customer's conversation holds from before `restartedAt`, in ms
 * after it (0 when all came before): the k-th AI answer answers the k-th customer message.
 */
function recoveryOf(shown: ShownMessage[], restartedAt: number): number {
  const asked = shown.filter((message) => message.author === 'customer');
  const answers = shown.filter((message) => message.author === 'ai');
  let latest = 0;
  asked.forEach((question, index) => {
    const answer = answers[index];
    if (!answer || Date.parse(question.created_at) >= restartedAt) return;
    latest = Math.max(latest, Date.parse(answer.created_at) - restartedAt);
  });
  return latest;
}

/** Waits until every customer has all their answers (or `settleMs` has passed), then counts. */
export async function tally(
  name: string,
  customers: Customer[],
  { settleMs, restartedAt }: TallyOptions,
): Promise<FaultResult> {
  const deadline = Date.now() + settleMs;
  let waiting = customers;
  while (waiting.length > 0 && Date.now() < deadline) {
    const shown = await Promise.all(waiting.map((customer) => conversationOf(customer)));
    waiting = waiting.filter((customer, index) => !complete(customer, shown[index]!));
    if (waiting.length > 0) await sleep(1_000);
  }
  // A little longer, so that a late second copy (of a message or an answer) is counted too.
  await sleep(2_000);
  const counts = { lost: 0, duplicated: 0, outOfOrder: 0, answers: 0, missingAnswers: 0, extraAnswers: 0 };
  let recoveryMs = 0;
  for (const customer of customers) {
    const shown = await conversationOf(customer);
    if (restartedAt !== undefined) recoveryMs = Math.max(recoveryMs, recoveryOf(shown, restartedAt));
    const one = count(customer, shown);
    counts.lost += one.lost;
    counts.duplicated += one.duplicated;
    counts.outOfOrder += one.outOfOrder;
    counts.answers += one.answers;
    counts.missingAnswers += one.missingAnswers;
    counts.extraAnswers += one.extraAnswers;
  }
  const sent = customers.flatMap((customer) => customer.sent);
  const retried = sent.filter((message) => message.failedTries > 0);
  const refused = sent.filter((message) => message.refused);
  const summary = [
    `${sent.length} messages from ${customers.length} customers`,
    `${sent.filter((message) => message.acknowledged).length} acknowledged` +
      ` (${retried.length} after failed sends, ${retried.reduce((sum, message) => sum + message.failedTries, 0)} failed sends in all)`,
    `${counts.answers} AI answers`,
    ...(counts.missingAnswers ? [`${counts.missingAnswers} answers missing`] : []),
    ...(counts.extraAnswers ? [`${counts.extraAnswers} answers extra`] : []),
    ...(refused.length ? [`${refused.length} refused (${refused[0]!.refused})`] : []),
    ...(waiting.length ? [`${waiting.length} conversations still incomplete after ${settleMs / 1000} s`] : []),
  ].join('; ');
  return {
    name,
    lost: counts.lost,
    duplicated: counts.duplicated,
    outOfOrder: counts.outOfOrder,
    summary,
    ...(restartedAt !== undefined ? { recoveryMs } : {}),
  };
}

/** Every acknowledged message is shown, and at least as many AI answers as customer messages. */
function complete(customer: Customer, shown: ShownMessage[]): boolean {
  const ids = new Set(
    shown.filter((message) => message.author === 'customer').map((message) => identity(customer, message)),
  );
  const asked = ids.size;
  const answered = shown.filter((message) => message.author === 'ai').length;
  return (
    customer.sent.every((message) => !message.acknowledged || ids.has(sentIdentity(customer, message))) &&
    answered >= asked
  );
}

function count(customer: Customer, shown: ShownMessage[]) {
  const mine = shown.filter((message) => message.author === 'customer');
  const answers = shown.filter((message) => message.author === 'ai');
  const sentIndex = new Map(customer.sent.map((message, index) => [sentIdentity(customer, message), index]));
  const indexOf = (entry: ShownMessage) => sentIndex.get(identity(customer, entry) ?? '');
  let lost = 0;
  let duplicated = 0;
  let outOfOrder = 0;
  for (const message of customer.sent) {
    const copies = mine.filter((entry) => identity(customer, entry) === sentIdentity(customer, message)).length;
    // Sent again and again and never acknowledged: the customer could not get it through.
    if (copies === 0 && (message.acknowledged || !message.refused)) lost++;
    if (copies > 1) duplicated += copies - 1;
  }
  duplicated += mine.filter((entry) => indexOf(entry) === undefined).length;
  // The first copy of each message, in the order shown.
  const seen = new Set<number>();
  const firsts = mine.filter(
    (entry) => indexOf(entry) !== undefined && !seen.has(indexOf(entry)!) && seen.add(indexOf(entry)!),
  );
  for (let index = 1; index < firsts.length; index++) {
    if (indexOf(firsts[index]!)! < indexOf(firsts[index - 1]!)!) outOfOrder++;
  }
  const position = new Map(shown.map((message, index) => [message, index]));
  for (let index = 0; index < Math.min(firsts.length, answers.length); index++) {
    if (position.get(answers[index]!)! < position.get(firsts[index]!)!) outOfOrder++;
  }
  const missingAnswers = Math.max(0, firsts.length - answers.length);
  const extraAnswers = Math.max(0, answers.length - firsts.length);
  return {
    lost: lost + missingAnswers,
    duplicated: duplicated + extraAnswers,
    outOfOrder,
    answers: answers.length,
    missingAnswers,
    extraAnswers,
  };
}

/** The customer's conversation as the widget reads it, page by page, from the first node that answers. */
async function conversationOf(customer: Customer): Promise<ShownMessage[]> {
  for (let attempt = 0; ; attempt++) {
    const node = customer.nodes[attempt % customer.nodes.length]!;
    const messages: ShownMessage[] = [];
    let after = 0;
    let failed = false;
    for (;;) {
      const page = await call(
        node,
        `/v1/widget/conversations/${customer.conversationId}/messages?after=${after}`,
        customer.token,
      );
      if (page.status !== 200) {
        failed = true;
        break;
      }
      const batch = (page.body as { messages: ShownMessage[] }).messages;
      messages.push(...batch);
      if (batch.length < 100) break;
      after = batch.at(-1)!.id;
    }
    if (!failed) return messages;
    if (attempt >= 20) throw new Error(`cannot read ${customer.ref}'s conversation`);
    await sleep(500);
  }
}
