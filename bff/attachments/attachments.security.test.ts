import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngOf } from '../../test/media-fixtures.ts';
import { DRIVERS, startStack, type TestStack } from '../../test/stack.ts';
import { newVisitor, openWidgetConversation } from '../../test/widget-client.ts';
import { MemoryAttachmentStorage } from './storage.ts';

/** A small ATTACHMENTS_MAX_BYTES: the body limit is still this plus room for the text (640 KB). */
const MAX_BYTES = 100_000;

/** A multipart body written by hand, as an attacker would: `count` parts besides the file. */
function manyParts(count: number, kind: 'fields' | 'files', messageId: string): { body: Buffer; type: string } {
  const boundary = `b${randomUUID().replaceAll('-', '')}`;
  const parts: Buffer[] = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="message_id"\r\n\r\n${messageId}\r\n`),
  ];
  for (let index = 0; index < count; index += 1) {
    const disposition = kind === 'fields' ? `name="f${index}"` : `name="file"; filename="${index}.png"`;
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\nx\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    pngOf(8, 8),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

describe.each(DRIVERS.slice(0, 1))('hostile multipart bodies at the attachment routes on $name', (driver) => {
  let stack: TestStack;
  const storage = new MemoryAttachmentStorage();

  beforeAll(async () => {
    stack = await startStack(driver, {}, { feedPollMs: 0, attachments: { storage, maxBytes: MAX_BYTES } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it.each(['fields', 'files'] as const)(
    'refuses a form of thousands of %s before reading them: a short 400 with a stable code, keeping nothing',
    async (kind) => {
      const { token } = await newVisitor(stack.url);
      const { id } = await openWidgetConversation(stack.url, token);
      const { body, type } = manyParts(6_000, kind, randomUUID());
      expect(body.length).toBeLessThan(MAX_BYTES + 640 * 1024);
      const response = await fetch(`${stack.url}/v1/widget/conversations/${id}/attachments`, {
        method: 'POST',
        body: new Uint8Array(body),
        headers: { authorization: `Bearer ${token}`, 'content-type': type },
      });
      const text = await response.text();
      expect(response.status, text.slice(0, 300)).toBe(400);
      expect(JSON.parse(text).error).toMatchObject({
        code: 'invalid_request',
        details: { problems: [{ field: 'form', message: expect.stringContaining('parts') }] },
      });
      // The answer names the limit, not every one of the thousands of fields.
      expect(text.length).toBeLessThan(2_000);
      expect(storage.size).toBe(0);
    },
  );
});
