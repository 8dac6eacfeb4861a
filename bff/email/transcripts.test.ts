import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, type TestStack } from '../../test/stack.ts';
import { newVisitor } from '../../test/widget-client.ts';
import { answeredCustomer, startEmailStack, type EmailStack } from '../../test/email-stack.ts';

describe.each(DRIVERS)('"E-mail me this conversation" on $name', (driver) => {
  let email: EmailStack;
  let stack: TestStack;

  beforeAll(async () => {
    email = await startEmailStack(driver);
    stack = email.stack;
  });
  afterAll(async () => {
    await email?.stop();
  });

  const mailsTo = (address: string) => email.sink.mails.filter((caught) => caught.envelopeTo.includes(address));
  const transcriptOf = (conversationId: string, token: string) =>
    request(`${stack.url}/v1/widget/conversations/${conversationId}/transcript`, { token, body: {} });

  it('e-mails the whole conversation once through the loopback SMTP server, and refuses a second one for a while', async () => {
    const address = 'transcript@customer.test';
    const { token, conversationId, answers } = await answeredCustomer(stack, ['How do I return an item?'], address);
    const asked = await transcriptOf(conversationId, token);
    expect(asked).toMatchObject({ status: 202, body: { sent_to: address } });

    const again = await transcriptOf(conversationId, token);
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe('rate_limited');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(500);

    // Three senders at once (as two nodes would): one e-mail.
    await Promise.all([stack.bff.email.sendDue(), stack.bff.email.sendDue(), stack.bff.email.sendDue()]);
    const transcripts = mailsTo(address).filter((caught) => caught.mail.subject?.startsWith('Your conversation'));
    expect(transcripts).toHaveLength(1);
    const { mail } = transcripts[0]!;
    expect(mail.text).toContain('You (');
    expect(mail.text).toContain('How do I return an item?');
    expect(mail.text).toContain(answers[0]!.text.split('\n')[0]);
    expect(mail.html).toContain('How do I return an item?');
    const [row] = await stack.bffSql.query<{ sent_at: Date | null }>(
      'SELECT t.sent_at FROM email_transcripts t JOIN conversations c ON c.id = t.conversation_id WHERE c.uuid = $1',
      [conversationId],
    );
    expect(row!.sent_at).not.toBeNull();

    // Sent is sent: the next pass sends nothing more.
    await stack.bff.email.sendDue();
    expect(mailsTo(address).filter((caught) => caught.mail.subject?.startsWith('Your conversation'))).toHaveLength(1);
  });

  it('refuses without an address, and for another customer, and keeps nothing', async () => {
    const { token } = await newVisitor(stack.url);
    const opened = await request(`${stack.url}/v1/widget/conversations`, { token, body: {} });
    const none = await transcriptOf(opened.body.id, token);
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('invalid_state');

    const { conversationId } = await answeredCustomer(stack, ['Do you ship abroad?'], 'owner@customer.test');
    const foreign = await transcriptOf(conversationId, token);
    expect(foreign.status).toBe(404);
    const extra = await request(`${stack.url}/v1/widget/conversations/${conversationId}/transcript`, {
      token,
      body: { to: 'thief@evil.test' },
    });
    expect(extra.status).toBe(400);
    const rows = await stack.bffSql.query(
      'SELECT 1 FROM email_transcripts t JOIN conversations c ON c.id = t.conversation_id WHERE c.uuid = ANY($1)',
      [[opened.body.id, conversationId]],
    );
    expect(rows).toHaveLength(0);
  });

  it('keeps a transcript the SMTP server refused and sends it once the server is back', async () => {
    const address = 'transcript-retry@customer.test';
    const { token, conversationId } = await answeredCustomer(stack, ['Do you ship abroad?'], address);
    // The digest of the answer goes out first, so only the transcript meets the failing server.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await stack.bff.email.sendDue();
    email.sink.failing = true;
    try {
      expect((await transcriptOf(conversationId, token)).status).toBe(202);
      await stack.bff.email.sendDue();
      expect(await stack.bff.metrics.render()).toMatch(/parley_email_transcripts_pending [1-9]/);
    } finally {
      email.sink.failing = false;
    }
    await stack.bffSql.query(
      'UPDATE email_transcripts SET due_at = now() WHERE conversation_id = (SELECT id FROM conversations WHERE uuid = $1)',
      [conversationId],
    );
    await stack.bff.email.sendDue();
    expect(mailsTo(address).filter((caught) => caught.mail.subject?.startsWith('Your conversation'))).toHaveLength(1);
  });
});
