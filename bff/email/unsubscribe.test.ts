import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request } from '../../test/stack.ts';
import { answeredCustomer, sendDigestsAfterWindow, startEmailStack, type EmailStack } from '../../test/email-stack.ts';
import { emailTokenHash } from './email-tokens.ts';

describe.each(DRIVERS)('one-click unsubscribe from a digest on $name', (driver) => {
  let email: EmailStack;

  beforeAll(async () => {
    email = await startEmailStack(driver);
  });
  afterAll(async () => {
    await email?.stop();
  });

  const mailsTo = (address: string) => email.sink.mails.filter((caught) => caught.envelopeTo.includes(address));
  /** Posts the form RFC 8058 has mail clients post to the List-Unsubscribe address. */
  const postOneClick = (url: string, form = 'List-Unsubscribe=One-Click') =>
    fetch(url.replace('https://chat.shop.test', email.stack.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });

  it('names a one-click address in the digest, which stops the conversation’s e-mails for good', async () => {
    const { stack } = email;
    const address = 'unsubscribe@customer.test';
    const { conversationId } = await answeredCustomer(stack, ['How do I return an item?'], address);
    await sendDigestsAfterWindow(stack);
    const { mail } = mailsTo(address)[0]!;
    // mailparser gathers the List-* headers under `list`.
    const listed = mail.headers.get('list') as
      { unsubscribe?: { url?: string }; 'unsubscribe-post'?: { name?: string } } | undefined;
    expect(listed?.['unsubscribe-post']?.name).toBe('List-Unsubscribe=One-Click');
    const url = listed?.unsubscribe?.url ?? '';
    expect(url).toMatch(/^https:\/\/chat\.shop\.test\/v1\/email-unsubscribe\?token=[0-9a-f]{40}$/);
    const token = new URL(url).searchParams.get('token')!;
    const kept = await stack.bffSql.query('SELECT 1 FROM email_unsubscribe_tokens WHERE token_hash IN ($1, $2)', [
      emailTokenHash(token),
      token,
    ]);
    expect(kept).toHaveLength(1);

    // A link scanner's GET changes nothing.
    const scanned = await fetch(url.replace('https://chat.shop.test', stack.url));
    expect(scanned.status).toBeGreaterThanOrEqual(400);
    expect(scanned.status).toBeLessThan(500);
    const [still] = await stack.bffSql.query<{ contact_email: string | null }>(
      'SELECT contact_email FROM conversations WHERE uuid = $1',
      [conversationId],
    );
    expect(still!.contact_email).toBe(address);

    const posted = await postOneClick(url);
    expect(posted.status).toBe(200);
    expect(await posted.json()).toEqual({ unsubscribed: true });
    const [after] = await stack.bffSql.query<{ contact_email: string | null }>(
      'SELECT contact_email FROM conversations WHERE uuid = $1',
      [conversationId],
    );
    expect(after!.contact_email).toBeNull();
    // Posted twice (mail clients may), it is still done.
    expect((await postOneClick(url)).status).toBe(200);
  });

  it('refuses an unknown token or a malformed form, changing nothing', async () => {
    const { stack } = email;
    const unknown = await postOneClick(`${stack.url}/v1/email-unsubscribe?token=${'a'.repeat(40)}`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe('not_found');
    const malformed = await postOneClick(`${stack.url}/v1/email-unsubscribe?token=x`);
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe('invalid_request');
    const wrongForm = await postOneClick(`${stack.url}/v1/email-unsubscribe?token=${'a'.repeat(40)}`, 'x=1');
    expect(wrongForm.status).toBe(400);
    const missing = await request(`${stack.url}/v1/email-unsubscribe`, { body: {} });
    expect(missing.status).toBe(400);
  });
});
