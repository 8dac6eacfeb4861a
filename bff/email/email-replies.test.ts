import { createTransport } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetMessage } from '../../shared/index.ts';
import { DRIVERS, request, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import {
  answeredCustomer,
  INBOUND_SECRET,
  replyAddressOf,
  sendDigestsAfterWindow,
  startEmailStack,
  type EmailStack,
} from '../../test/email-stack.ts';
import { pngOf } from '../../test/media-fixtures.ts';
import { inboundSignature } from './inbound-routes.ts';

/** A raw MIME message, composed by nodemailer (never by hand). */
async function compose(mail: Mail.Options): Promise<Buffer> {
  const info = await createTransport({ streamTransport: true, buffer: true }).sendMail(mail);
  return info.message as Buffer;
}

const postInbound = (stack: TestStack, body: Buffer | string, signature?: string) =>
  request(`${stack.url}/inbound/email`, {
    rawBody: body.toString(),
    headers: { 'content-type': 'message/rfc822', ...(signature ? { 'x-parley-signature': signature } : {}) },
  });

describe.each(DRIVERS)('e-mail replies on $name', (driver) => {
  let email: EmailStack;
  let stack: TestStack;
  let customer: { token: string; conversationId: string; address: string; replyTo: string };

  beforeAll(async () => {
    email = await startEmailStack(driver);
    stack = email.stack;
    const address = 'replier@customer.test';
    const answered = await answeredCustomer(stack, ['How do I return an item?'], address);
    await sendDigestsAfterWindow(stack);
    const digest = email.sink.mails.find((caught) => caught.envelopeTo.includes(address))!;
    customer = { ...answered, address, replyTo: replyAddressOf(digest.mail.replyTo?.text) };
  });
  afterAll(async () => {
    await email?.stop();
  });

  const widgetMessages = async () =>
    (
      await request(`${stack.url}/v1/widget/conversations/${customer.conversationId}/messages`, {
        token: customer.token,
      })
    ).body.messages as WidgetMessage[];
  // What a reply could add: the customer's messages and the team's notes (the AI's answers come in their own time).
  const storedRows = async () =>
    (
      await stack.bffSql.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 AND (m.author = 'customer' OR m.private)",
        [customer.conversationId],
      )
    )[0]!.count;
  const conversationState = async () =>
    (
      await stack.bffSql.query<{ status: string; handled_by: string }>(
        'SELECT status, handled_by FROM conversations WHERE uuid = $1',
        [customer.conversationId],
      )
    )[0]!;
  const smtpClient = () =>
    createTransport({ host: '127.0.0.1', port: stack.bff.email.listenerPort()!, secure: false, ignoreTLS: true });

  it("puts a reply sent to Parley's SMTP listener in its conversation as the customer's, without the quoted history", async () => {
    await smtpClient().sendMail({
      from: customer.address,
      to: customer.replyTo,
      subject: 'Re: New reply',
      text: 'Thanks! And can I return a gift?\n\nOn Mon, 1 Jun 2026 at 10:00, Shop <support@shop.test> wrote:\n> You can return items within 30 days.\n',
    });
    const messages = await until(
      widgetMessages,
      (list) => list.some((message) => message.author === 'customer' && message.text.includes('gift')),
      'the reply in the conversation',
    );
    const reply = messages.find((message) => message.text.includes('gift'))!;
    expect(reply.text).toBe('Thanks! And can I return a gift?');
    // It reached the AI as any customer message does: an answer follows it.
    await until(
      widgetMessages,
      (list) => list.some((message) => message.author === 'ai' && message.id > reply.id),
      'the answer to the reply',
    );
  });

  it('keeps a reply from another sender as a private note for the team, which never reaches the AI', async () => {
    const before = await widgetMessages();
    await smtpClient().sendMail({
      from: 'someone.else@elsewhere.test',
      to: customer.replyTo,
      text: 'Please send the refund to my other account.',
    });
    const [note] = await until(
      () =>
        stack.bffSql.query<{ text: string; private: boolean }>(
          "SELECT m.text, m.private FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 AND m.text LIKE '%other account%'",
          [customer.conversationId],
        ),
      (rows) => rows.length === 1,
      'the note',
    );
    expect(note!.private).toBe(true);
    expect(note!.text).toContain('someone.else@elsewhere.test');
    expect(note!.text).toContain('unverified');
    await stack.bff.relay.settled();
    expect(await widgetMessages()).toEqual(before);
  });

  it('refuses recipients that are not reply addresses at the SMTP listener', async () => {
    const sending = smtpClient().sendMail({ from: customer.address, to: 'support@reply.shop.test', text: 'Hello' });
    await expect(sending).rejects.toThrow(/550/);
    const unknown = smtpClient().sendMail({ from: customer.address, to: 'reply+abc@reply.shop.test', text: 'Hello' });
    await expect(unknown).rejects.toThrow(/550/);
  });

  it('takes a signed POST /inbound/email, and refuses one unsigned or wrongly signed with 401', async () => {
    const raw = await compose({ from: customer.address, to: customer.replyTo, text: 'Sent through the provider.' });
    const before = await storedRows();
    expect((await postInbound(stack, raw)).status).toBe(401);
    const forged = await postInbound(stack, raw, inboundSignature('another-secret-0123456789', raw));
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe('unauthorized');
    expect(await storedRows()).toBe(before);
    const taken = await postInbound(stack, raw, inboundSignature(INBOUND_SECRET, raw));
    expect(taken).toMatchObject({ status: 200, body: { result: 'message' } });
    // The same message again (a provider's retry) is kept once.
    const again = await postInbound(stack, raw, inboundSignature(INBOUND_SECRET, raw));
    expect(again.status).toBe(200);
    expect((await widgetMessages()).filter((message) => message.text === 'Sent through the provider.')).toHaveLength(1);
  });

  it('drops auto-replies, bounces, unknown and expired addresses and quote-only mail, changing nothing', async () => {
    const signed = async (mail: Mail.Options) => {
      const raw = await compose(mail);
      return postInbound(stack, raw, inboundSignature(INBOUND_SECRET, raw));
    };
    const base = { from: customer.address, to: customer.replyTo, text: 'I am away until Monday.' };
    const before = await storedRows();
    const cases: [Mail.Options, string][] = [
      [{ ...base, headers: { 'Auto-Submitted': 'auto-replied' } }, 'auto_reply'],
      [{ ...base, headers: { Precedence: 'bulk' } }, 'auto_reply'],
      [{ ...base, headers: { Precedence: 'auto_reply' } }, 'auto_reply'],
      [{ ...base, from: 'MAILER-DAEMON@mx.customer.test' }, 'bounce'],
      [{ ...base, headers: { 'Return-Path': '<>' } }, 'bounce'],
      [{ ...base, to: `reply+${'0'.repeat(40)}@reply.shop.test` }, 'unknown_recipient'],
      [{ ...base, to: 'someone@reply.shop.test' }, 'unknown_recipient'],
      [{ ...base, text: '> only the quoted answer\n> nothing else' }, 'empty'],
    ];
    for (const [mail, reason] of cases) {
      const answer = await signed(mail);
      expect({ reason, answer: answer.body }).toEqual({ reason, answer: { result: 'ignored', reason } });
    }
    await stack.bffSql.query(
      "UPDATE email_reply_tokens SET expires_at = now() - interval '1 second' WHERE sent_to = $1",
      [customer.address],
    );
    const expired = await signed({ ...base, text: 'Too late?' });
    expect(expired.body).toEqual({ result: 'ignored', reason: 'unknown_recipient' });
    await stack.bffSql.query("UPDATE email_reply_tokens SET expires_at = now() + interval '1 day' WHERE sent_to = $1", [
      customer.address,
    ]);
    expect(await storedRows()).toBe(before);
  });

  it('refuses a malformed or oversize body with a 4xx, changing nothing', async () => {
    const before = await storedRows();
    const junk = 'this is not a mail message';
    const malformed = await postInbound(stack, junk, inboundSignature(INBOUND_SECRET, junk));
    expect(malformed.status).toBe(422);
    expect(malformed.body.error.code).toBe('unprocessable');
    const huge = `From: ${customer.address}\r\n\r\n${'x'.repeat(10 * 1024 * 1024 + 10)}`;
    const oversize = await postInbound(stack, huge, inboundSignature(INBOUND_SECRET, huge));
    expect(oversize.status).toBe(413);
    expect(oversize.body.error.code).toBe('payload_too_large');
    expect(await storedRows()).toBe(before);
  });

  it("keeps the files of a reply that pass the widget uploads' checks, and drops one that is not what it says", async () => {
    await smtpClient().sendMail({
      from: customer.address,
      to: customer.replyTo,
      text: 'Here is a photo of the parcel.',
      attachments: [
        { filename: 'parcel.png', content: pngOf(64, 48), contentType: 'image/png' },
        { filename: 'label.png', content: Buffer.from('this is not a picture at all'), contentType: 'image/png' },
      ],
    });
    const messages = await until(
      widgetMessages,
      (list) => list.some((message) => message.text === 'Here is a photo of the parcel.'),
      'the reply with its files',
    );
    const reply = messages.find((message) => message.text === 'Here is a photo of the parcel.')!;
    expect(reply.attachments).toHaveLength(1);
    expect(reply.attachments![0]).toMatchObject({
      content_type: 'image/png',
      name: 'parcel.png',
      width: 64,
      height: 48,
    });
    const rows = await stack.bffSql.query<{ name: string }>(
      'SELECT a.name FROM attachments a JOIN conversations c ON c.id = a.conversation_id WHERE c.uuid = $1',
      [customer.conversationId],
    );
    expect(rows.map((row) => row.name)).toEqual(['parcel.png']);
  });

  it('keeps a reply to a resolved conversation from another sender as a note, without reopening it', async () => {
    // The replies before are the customer's messages on their way to the AI: they arrive before the close.
    await stack.bff.relay.settled();
    const closed = await request(`${stack.url}/v1/widget/conversations/${customer.conversationId}/close`, {
      token: customer.token,
      body: {},
    });
    expect(closed.status).toBeLessThan(300);
    await until(conversationState, (state) => state.status === 'resolved', 'the resolve');
    // The close on its way to the AI engine too (a reply at that very moment is told to come again: 409).
    await stack.bff.relay.settled();
    const raw = await compose({ from: 'stranger@elsewhere.test', to: customer.replyTo, text: 'Reopen this please.' });
    const taken = await postInbound(stack, raw, inboundSignature(INBOUND_SECRET, raw));
    expect(taken.body).toEqual({ result: 'note' });
    const [note] = await stack.bffSql.query<{ private: boolean; text: string }>(
      "SELECT private, text FROM messages WHERE text LIKE '%Reopen this please%'",
    );
    expect(note).toMatchObject({ private: true, text: expect.stringContaining('unverified') });
    expect((await conversationState()).status).toBe('resolved');
  });

  it("reopens a resolved conversation for people with the customer's reply, as a person's reopening does", async () => {
    expect((await conversationState()).status).toBe('resolved');
    const raw = await compose({ from: customer.address, to: customer.replyTo, text: 'One more thing after all.' });
    const taken = await postInbound(stack, raw, inboundSignature(INBOUND_SECRET, raw));
    expect(taken.body).toEqual({ result: 'message' });
    expect(await conversationState()).toEqual({ status: 'open', handled_by: 'human' });
    const reply = (await widgetMessages()).find((message) => message.text === 'One more thing after all.');
    expect(reply).toMatchObject({ author: 'customer' });
    // The same mail again (a provider's retry) changes nothing.
    expect((await postInbound(stack, raw, inboundSignature(INBOUND_SECRET, raw))).status).toBe(200);
    expect((await widgetMessages()).filter((message) => message.text === 'One more thing after all.')).toHaveLength(1);
  });

  it('limits a flood from one sender', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 12; index += 1) {
      const raw = await compose({ from: 'flooder@elsewhere.test', to: customer.replyTo, text: `Flood ${index}` });
      statuses.push((await postInbound(stack, raw, inboundSignature(INBOUND_SECRET, raw))).status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});
