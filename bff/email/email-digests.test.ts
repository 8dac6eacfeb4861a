import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request } from '../../test/stack.ts';
import { newVisitor, sendWidgetMessage } from '../../test/widget-client.ts';
import { until } from '../../test/until.ts';
import {
  answeredCustomer,
  REPLY_DOMAIN,
  replyAddressOf,
  sendDigestsAfterWindow,
  startEmailStack,
  type EmailStack,
} from '../../test/email-stack.ts';
import { emailTokenHash } from './email-tokens.ts';

describe.each(DRIVERS)('e-mail digests on $name', (driver) => {
  let email: EmailStack;

  beforeAll(async () => {
    email = await startEmailStack(driver);
  });
  afterAll(async () => {
    await email?.stop();
  });

  const mailsTo = (address: string) => email.sink.mails.filter((caught) => caught.envelopeTo.includes(address));

  it('e-mails the answers of one window once, in plain text and HTML, with the link and the reply address', async () => {
    const { stack, sink } = email;
    const address = 'two.answers@customer.test';
    const { answers, conversationId } = await answeredCustomer(
      stack,
      ['How do I return an item?', 'Do you ship abroad?'],
      address,
    );
    const [digests] = await stack.bffSql.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM email_digests d JOIN conversations c ON c.id = d.conversation_id WHERE c.uuid = $1',
      [conversationId],
    );
    expect(digests!.count).toBe(1);

    await sendDigestsAfterWindow(stack);
    const mails = mailsTo(address);
    expect(mails).toHaveLength(1);
    const { mail } = mails[0]!;
    expect(mail.from?.value).toEqual([{ name: 'Shop support', address: 'support@shop.test' }]);
    expect(mail.subject).toMatch(/^2 new replies from /);
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    for (const answer of answers) {
      expect(mail.text).toContain(answer.text.split('\n')[0]);
      expect(mail.html).toContain('Continue the conversation');
    }
    const link = /https:\/\/chat\.shop\.test\/chat\?site_key=pk_test_\w+#continue=([0-9a-f]{40})/.exec(mail.text ?? '');
    expect(link).not.toBeNull();
    expect(mail.html).toContain(link![0]);
    const replyTo = replyAddressOf(mail.replyTo?.text);
    expect(replyTo.endsWith(`@${REPLY_DOMAIN}`)).toBe(true);

    // Only the tokens' hashes are kept.
    const token = /reply\+([0-9a-f]{40})@/.exec(replyTo)![1]!;
    const replyRows = await stack.bffSql.query<{ token_hash: string; sent_to: string }>(
      'SELECT token_hash, sent_to FROM email_reply_tokens WHERE token_hash IN ($1, $2)',
      [emailTokenHash(token), token],
    );
    expect(replyRows).toEqual([{ token_hash: emailTokenHash(token), sent_to: address }]);
    const continuations = await stack.bffSql.query('SELECT 1 FROM email_continuations WHERE token_hash = $1', [
      emailTokenHash(link![1]!),
    ]);
    expect(continuations).toHaveLength(1);

    // Sent once: nothing is left to send, and the sink got nothing more.
    expect(await stack.bff.email.sendDue()).toBe(0);
    expect(mailsTo(address)).toHaveLength(1);
    expect(sink.mails.every((caught) => caught.envelopeFrom === 'support@shop.test')).toBe(true);
  });

  it("opens the conversation again from the e-mail's link, once", async () => {
    const { stack, sink } = email;
    const address = 'link@customer.test';
    const { conversationId } = await answeredCustomer(stack, ['How do I return an item?'], address);
    await sendDigestsAfterWindow(stack);
    const { mail } = sink.mails.find((caught) => caught.envelopeTo.includes(address))!;
    const token = /#continue=([0-9a-f]{40})/.exec(mail.text ?? '')![1]!;

    const opened = await request(`${stack.url}/v1/email-continuations`, { body: { token } });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ conversation_id: conversationId, verified: false });
    const messages = await request(`${stack.url}/v1/widget/conversations/${conversationId}/messages`, {
      token: opened.body.token,
    });
    expect(messages.status).toBe(200);
    expect(messages.body.messages.map((message: { author: string }) => message.author)).toEqual(['customer', 'ai']);

    const again = await request(`${stack.url}/v1/email-continuations`, { body: { token } });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
    const malformed = await request(`${stack.url}/v1/email-continuations`, { body: { token: 'x' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('invalid_request');
  });

  it('takes an address from the widget, which the answers then go to, and refuses a bad one or another customer', async () => {
    const { stack } = email;
    const { token } = await newVisitor(stack.url);
    const opened = await request(`${stack.url}/v1/widget/conversations`, { token, body: {} });
    const path = `${stack.url}/v1/widget/conversations/${opened.body.id}/email`;
    const bad = await request(path, { method: 'PUT', token, body: { email: 'not an address' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    const stranger = await newVisitor(stack.url);
    const foreign = await request(path, { method: 'PUT', token: stranger.token, body: { email: 'x@customer.test' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    const removed = await request(path, { method: 'PUT', token, body: { email: null } });
    expect(removed).toMatchObject({ status: 200, body: { email: null } });

    const given = await request(path, { method: 'PUT', token, body: { email: 'asked@customer.test' } });
    expect(given).toMatchObject({ status: 200, body: { email: 'asked@customer.test' } });
    await sendWidgetMessage(stack.url, token, opened.body.id, 'Do you ship abroad?', 'q-1');
    await until(
      () =>
        stack.bffSql.query(
          'SELECT 1 FROM email_digests d JOIN conversations c ON c.id = d.conversation_id WHERE c.uuid = $1',
          [opened.body.id],
        ),
      (rows) => rows.length === 1,
      'the digest noted',
    );
    await sendDigestsAfterWindow(stack);
    expect(mailsTo('asked@customer.test')).toHaveLength(1);
  });

  it('sends nothing for answers the customer has read', async () => {
    const { stack } = email;
    const address = 'reader@customer.test';
    const { token, conversationId, answers } = await answeredCustomer(stack, ['How do I return an item?'], address);
    const read = await request(`${stack.url}/v1/widget/conversations/${conversationId}/read`, {
      token,
      body: { last_read_id: answers.at(-1)!.id },
    });
    expect(read.status).toBe(200);
    await sendDigestsAfterWindow(stack);
    expect(mailsTo(address)).toHaveLength(0);
  });

  it('sends nothing to a customer who gave no address', async () => {
    const { stack } = email;
    const { token } = await newVisitor(stack.url);
    const opened = await request(`${stack.url}/v1/widget/conversations`, { token, body: {} });
    await sendWidgetMessage(stack.url, token, opened.body.id, 'How do I return an item?', 'q-1');
    await stack.bff.relay.settled();
    const rows = await stack.bffSql.query(
      'SELECT 1 FROM email_digests d JOIN conversations c ON c.id = d.conversation_id WHERE c.uuid = $1',
      [opened.body.id],
    );
    expect(rows).toHaveLength(0);
  });

  it('keeps a digest the SMTP server refused, tries again later and shows it in /metrics', async () => {
    const { stack } = email;
    const address = 'retry@customer.test';
    email.sink.failing = true;
    const { conversationId } = await answeredCustomer(stack, ['Do you ship abroad?'], address);
    await sendDigestsAfterWindow(stack);
    const [kept] = await stack.bffSql.query<{ attempts: number; due_at: Date }>(
      'SELECT d.attempts, d.due_at FROM email_digests d JOIN conversations c ON c.id = d.conversation_id WHERE c.uuid = $1',
      [conversationId],
    );
    expect(kept!.attempts).toBe(1);
    expect(new Date(kept!.due_at).getTime()).toBeGreaterThan(Date.now() + 20_000);
    expect(await stack.bff.metrics.render()).toMatch(/parley_email_digests_failing [1-9]/);

    // The server is well again, and the back-off has passed.
    email.sink.failing = false;
    await stack.bffSql.query(
      'UPDATE email_digests SET due_at = now() WHERE conversation_id = (SELECT id FROM conversations WHERE uuid = $1)',
      [conversationId],
    );
    await stack.bff.email.sendDue();
    await until(
      () => mailsTo(address),
      (list) => list.length === 1,
      'the digest sent again',
    );
  });
});
