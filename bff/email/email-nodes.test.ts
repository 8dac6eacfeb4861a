import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, type BffNode } from '../../test/stack.ts';
import { answeredCustomer, startEmailStack, type EmailStack } from '../../test/email-stack.ts';

/**
 * Two BFF nodes on one PostgreSQL (the machine's real one) share the pending digests: each digest
 * is claimed with a lease, so both sending at once send it once; and a node started later (as after
 * a restart) sends what the first one noted.
 */
describe('e-mail digests over two BFF nodes', () => {
  let email: EmailStack;
  let nodeB: BffNode;

  beforeAll(async () => {
    email = await startEmailStack(DRIVERS[1]!, {}, { SECRETS_KEYS: 's1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc' });
    nodeB = await email.stack.startAnotherNode({ email: email.email });
  }, 120_000);
  afterAll(async () => {
    await nodeB?.stop();
    await email?.stop();
  });

  it('sends a digest once when both nodes send what is due at the same time, the later node included', async () => {
    const { stack, sink } = email;
    const addresses = ['one@customer.test', 'two@customer.test', 'three@customer.test'];
    for (const address of addresses) await answeredCustomer(stack, ['How do I return an item?'], address);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const sent = await Promise.all([stack.bff.email.sendDue(), nodeB.bff.email.sendDue(), nodeB.bff.email.sendDue()]);
    expect(sent.reduce((sum, count) => sum + count, 0)).toBe(addresses.length);
    for (const address of addresses)
      expect(sink.mails.filter((caught) => caught.envelopeTo.includes(address))).toHaveLength(1);
    const [left] = await stack.bffSql.query<{ count: number }>('SELECT count(*)::int AS count FROM email_digests');
    expect(left!.count).toBe(0);
  });
  it('sends a transcript once when both nodes send at the same time', async () => {
    const { stack, sink } = email;
    const address = 'copy.once@customer.test';
    const { token, conversationId } = await answeredCustomer(stack, ['Do you ship abroad?'], address);
    const asked = await request(`${nodeB.url}/v1/widget/conversations/${conversationId}/transcript`, {
      token,
      body: {},
    });
    expect(asked.status).toBe(202);
    await Promise.all([stack.bff.email.sendDue(), nodeB.bff.email.sendDue(), nodeB.bff.email.sendDue()]);
    const copies = sink.mails.filter(
      (caught) => caught.envelopeTo.includes(address) && caught.mail.subject?.startsWith('Your conversation'),
    );
    expect(copies).toHaveLength(1);
  });
});
