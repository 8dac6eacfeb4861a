import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, startStack, type TestStack } from '../../test/stack.ts';
import { newTenant, type Tenant } from '../../test/tenants.ts';
import { newVisitor, openWidgetConversation } from '../../test/widget-client.ts';

/** ATTACHMENTS_STORAGE_MAX_BYTES here: two files of FILE_BYTES fit, a third does not. */
const CAP = 1024 * 1024;
const FILE_BYTES = 400_000;

/** A PDF of exactly `size` bytes (a comment line pads it), which the BFF takes by its bytes. */
function pdfOf(size: number): Buffer {
  const head = '%PDF-1.7\n%';
  const tail = '\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';
  return Buffer.from(head + 'x'.repeat(size - head.length - tail.length) + tail);
}

/**
 * An account's files have a storage cap (ATTACHMENTS_STORAGE_MAX_BYTES), as the engine's media
 * have: before it, one account's customers could fill the BFF's disk or bucket for every other
 * account. A file past it is 413 `storage_full` and nothing is kept (no message, no row, no bytes);
 * the cap is each account's, counted under a lock so uploads at the same instant cannot pass it,
 * and files erased free their room. Real BFF and engine over HTTP.
 */
describe.each(DRIVERS)("an account's file storage cap on $name", (driver) => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack(driver, {
      DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN,
      ATTACHMENTS_STORAGE_MAX_BYTES: String(CAP),
    });
  });
  afterAll(() => stack?.stop());

  /** A visitor of the tenant's inbox with a conversation open. */
  async function visitor(tenant: Tenant) {
    const { token } = await newVisitor(stack.url, tenant.siteKey);
    const conversation = await openWidgetConversation(stack.url, token);
    return { token, uuid: conversation.id };
  }
  async function upload(customer: { token: string; uuid: string }, bytes: Buffer) {
    const form = new FormData();
    form.append('message_id', randomUUID());
    form.append('file', new Blob([new Uint8Array(bytes)]), 'invoice.pdf');
    const response = await fetch(`${stack.url}/v1/widget/conversations/${customer.uuid}/attachments`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${customer.token}` },
    });
    return { status: response.status, body: (await response.json()) as any };
  }
  /** What the account keeps: attachment rows, their bytes, and the messages of customers and people (the AI's come on their own). */
  const kept = async (tenant: Tenant) => {
    const [row] = await stack.bffSql.query<{ files: number; bytes: number; messages: number }>(
      `SELECT (SELECT count(*)::int FROM attachments a JOIN conversations c ON c.id = a.conversation_id
               JOIN inboxes i ON i.id = c.inbox_id WHERE i.account_id = $1) AS files,
              (SELECT coalesce(sum(a.size), 0)::int FROM attachments a JOIN conversations c ON c.id = a.conversation_id
               JOIN inboxes i ON i.id = c.inbox_id WHERE i.account_id = $1) AS bytes,
              (SELECT count(*)::int FROM messages m JOIN conversations c ON c.id = m.conversation_id
               JOIN inboxes i ON i.id = c.inbox_id WHERE i.account_id = $1 AND m.author IN ('customer', 'human')) AS messages`,
      [tenant.accountId],
    );
    return row!;
  };
  const noted = async () =>
    (await stack.bffSql.query<{ n: number }>('SELECT count(*)::int AS n FROM attachment_objects'))[0]!.n;

  it("refuses a customer's file past the account's cap with 413 storage_full, keeps nothing, and leaves other accounts their room", async () => {
    const shop = await newTenant(stack, 'Full Shop');
    const neighbour = await newTenant(stack, 'Roomy Shop');
    const customer = await visitor(shop);
    for (let i = 0; i < 2; i++) expect((await upload(customer, pdfOf(FILE_BYTES))).status).toBe(201);
    const before = await kept(shop);
    expect(before).toMatchObject({ files: 2, bytes: 2 * FILE_BYTES });
    const objects = await noted();

    // Another customer of the same account: the cap is the account's, not the customer's.
    const refused = await upload(await visitor(shop), pdfOf(FILE_BYTES));
    expect(refused.status).toBe(413);
    expect(refused.body.error.code).toBe('storage_full');
    expect(refused.body.error.message).toMatch(/storage is full/);
    expect(refused.body.error.details).toEqual({ kept_bytes: 2 * FILE_BYTES, max_bytes: CAP });
    expect(await kept(shop)).toEqual(before);
    expect(await noted()).toBe(objects);
    // A smaller file that fits is still taken.
    expect((await upload(customer, pdfOf(200_000))).status).toBe(201);

    const theirs = await visitor(neighbour);
    for (let i = 0; i < 2; i++) expect((await upload(theirs, pdfOf(FILE_BYTES))).status).toBe(201);
  });

  it("refuses a person's file past the cap the same way, and the message with it", async () => {
    const shop = await newTenant(stack, 'Desk Full Shop');
    const customer = await visitor(shop);
    for (let i = 0; i < 2; i++) expect((await upload(customer, pdfOf(FILE_BYTES))).status).toBe(201);
    const before = await kept(shop);
    const [conversation] = await stack.bffSql.query<{ id: number }>('SELECT id FROM conversations WHERE uuid = $1', [
      customer.uuid,
    ]);
    const form = new FormData();
    form.append('content', 'Your invoice, corrected');
    form.append('private', 'true');
    form.append('attachments[]', new Blob([new Uint8Array(pdfOf(FILE_BYTES))]), 'invoice.pdf');
    const response = await fetch(
      `${stack.url}/api/v1/accounts/${shop.accountId}/conversations/${conversation!.id}/messages`,
      { method: 'POST', body: form, headers: { api_access_token: shop.admin.access_token } },
    );
    const body = (await response.json()) as { errors: { code: string }[]; description: string };
    expect(response.status).toBe(413);
    expect(body.errors[0]!.code).toBe('storage_full');
    expect(await kept(shop)).toEqual(before);
  });

  it('gives the room back when files are erased', async () => {
    const shop = await newTenant(stack, 'Erasing Shop');
    const first = await visitor(shop);
    for (let i = 0; i < 2; i++) expect((await upload(first, pdfOf(FILE_BYTES))).status).toBe(201);
    const second = await visitor(shop);
    expect((await upload(second, pdfOf(FILE_BYTES))).status).toBe(413);
    const [conversation] = await stack.bffSql.query<{ id: number }>('SELECT id FROM conversations WHERE uuid = $1', [
      first.uuid,
    ]);
    expect(await stack.bff.attachments.erase([conversation!.id])).toBe(2);
    expect((await upload(second, pdfOf(FILE_BYTES))).status).toBe(201);
  });

  it('holds against uploads at the same instant: eight files for room for two keep two', async () => {
    const shop = await newTenant(stack, 'Racing Shop');
    const customers = await Promise.all(Array.from({ length: 8 }, () => visitor(shop)));
    const answers = await Promise.all(customers.map((customer) => upload(customer, pdfOf(FILE_BYTES))));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 413, 413, 413, 413, 413, 413]);
    expect(await kept(shop)).toMatchObject({ files: 2, bytes: 2 * FILE_BYTES });
  });
});
