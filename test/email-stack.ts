/**
 * What the e-mail tests share: a stack whose BFF sends to a local SMTP sink (real SMTP on
 * loopback) and takes replies on its own listener and route, and a visitor who gave an address in
 * the pre-chat form and was answered by the AI while not connected.
 */
import { expect } from 'vitest';
import type { WidgetMessage } from '../shared/index.ts';
import { request, startStack, type Driver, type TestStack } from './stack.ts';
import { until } from './until.ts';
import { newVisitor, sendWidgetMessage } from './widget-client.ts';
import type { EmailSettings } from '../bff/email/email-settings.ts';
import { startSmtpSink, type SmtpSink } from '../bff/email/smtp-sink.ts';

export const REPLY_DOMAIN = 'reply.shop.test';
export const INBOUND_SECRET = 'inbound-secret-for-tests-0123456789';
export const CUSTOMER_EMAIL = 'ann@customer.test';

export interface EmailStack {
  stack: TestStack;
  sink: SmtpSink;
  /** The e-mail settings the stack's BFF was built with (another node takes the same). */
  email: EmailSettings;
  stop(): Promise<void>;
}

/** The stack with e-mail on both ways; digests are sent when a test calls `bff.email.sendDue()`. */
export async function startEmailStack(
  driver: Driver,
  settings: Partial<EmailSettings> = {},
  env: Record<string, string> = {},
): Promise<EmailStack> {
  const sink = await startSmtpSink();
  const email: EmailSettings = {
    smtpUrl: sink.url,
    from: 'Shop support <support@shop.test>',
    replyDomain: REPLY_DOMAIN,
    digestDelayS: 1,
    inboundSmtpPort: 0,
    inboundSecret: INBOUND_SECRET,
    pollMs: 0,
    ...settings,
  };
  const stack = await startStack(driver, { PUBLIC_URL: 'https://chat.shop.test', ...env }, { email });
  return {
    stack,
    sink,
    email,
    async stop() {
      await stack.stop();
      await sink.close();
    },
  };
}

export interface AnsweredCustomer {
  token: string;
  conversationId: string;
  answers: WidgetMessage[];
}

/** A visitor with an address who asked `questions` over HTTP (no socket) and got every answer. */
export async function answeredCustomer(
  stack: TestStack,
  questions: readonly string[],
  email = CUSTOMER_EMAIL,
): Promise<AnsweredCustomer> {
  const { token } = await newVisitor(stack.url);
  const opened = await request(`${stack.url}/v1/widget/conversations`, { token, body: { email } });
  expect(opened.status).toBe(201);
  const conversationId = opened.body.id as string;
  for (const [index, question] of questions.entries()) {
    const sent = await sendWidgetMessage(stack.url, token, conversationId, question, `q-${index}`);
    expect(sent.status).toBe(201);
  }
  const messages = await until(
    async () =>
      (await request(`${stack.url}/v1/widget/conversations/${conversationId}/messages`, { token })).body
        .messages as WidgetMessage[],
    (list) => list.filter((message) => message.author === 'ai').length >= questions.length,
    'the answers',
  );
  return { token, conversationId, answers: messages.filter((message) => message.author === 'ai') };
}

/** Waits out the digest window, then sends what is due; gives how many digests were handled. */
export async function sendDigestsAfterWindow(stack: TestStack, windowS = 1): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, windowS * 1000 + 100));
  return stack.bff.email.sendDue();
}

/** The reply token in a digest's Reply-To address. */
export function replyAddressOf(replyTo: string | undefined): string {
  const match = /reply\+[0-9a-f]{40}@[\w.-]+/.exec(replyTo ?? '');
  if (!match) throw new Error(`no reply address in ${replyTo}`);
  return match[0];
}
