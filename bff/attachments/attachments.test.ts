import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetMessage } from '../../shared/index.ts';
import { pdf, pngOf, jpegOf } from '../../test/media-fixtures.ts';
import { DRIVERS, engineConversationOf, request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor, openWidgetConversation } from '../../test/widget-client.ts';
import { MemoryAttachmentStorage } from './storage.ts';
import { UNUSED_OBJECT_AGE_MS } from './disposal.ts';

/** A small ATTACHMENTS_MAX_BYTES, so that "too big" needs no 10 MB body. */
const MAX_BYTES = 100_000;

interface Upload {
  bytes: Buffer | string;
  name: string;
  /** What the browser would claim (never believed). */
  type?: string;
}

/** The multipart body the widget sends: one file, a message id, and words when given. */
function form(file: Upload | undefined, fields: Record<string, string>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (file)
    body.append(
      'file',
      new Blob([typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes)], {
        type: file.type ?? 'application/octet-stream',
      }),
      file.name,
    );
  return body;
}

describe.each(DRIVERS)('attachments in the widget on $name', (driver) => {
  let stack: TestStack;
  const storage = new MemoryAttachmentStorage();
  const clock = { offsetMs: 0 };

  beforeAll(async () => {
    stack = await startStack(
      driver,
      {},
      {
        feedPollMs: 0,
        attachments: { storage, maxBytes: MAX_BYTES },
        now: () => new Date(Date.now() + clock.offsetMs),
      },
    );
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const url = (path: string) => `${stack.url}/v1/widget${path}`;
  async function customer() {
    const { token } = await newVisitor(stack.url);
    const conversation = await openWidgetConversation(stack.url, token);
    return { token, id: conversation.id };
  }
  async function upload(
    token: string | undefined,
    id: string,
    file: Upload | undefined,
    fields: Record<string, string> = { message_id: randomUUID() },
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(url(`/conversations/${id}/attachments`), {
      method: 'POST',
      body: form(file, fields),
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });
    return { status: response.status, body: (await response.json()) as any };
  }
  const photo = (): Upload => ({ bytes: pngOf(640, 480), name: 'broken mug.png', type: 'image/png' });
  /** What a send keeps: the customer's messages of the conversation, attachments, noted keys and stored bytes. */
  const counts = async (uuid: string) => {
    const [row] = await stack.bffSql.query<{ attachments: number; objects: number; messages: number }>(
      `SELECT (SELECT count(*)::int FROM attachments) AS attachments, (SELECT count(*)::int FROM attachment_objects) AS objects,
         (SELECT count(*)::int FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 AND m.author = 'customer') AS messages`,
      [uuid],
    );
    return { ...row!, stored: storage.size };
  };
  const expectRefused = async (
    response: { status: number; body: any },
    status: number,
    code: string,
    uuid: string,
    before: Awaited<ReturnType<typeof counts>>,
  ) => {
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body.error).toMatchObject({ code, message: expect.any(String) });
    expect(await counts(uuid)).toEqual(before);
  };

  it('keeps a photo as a message of the conversation, serves it back to its customer, and tells the AI a photo came', async () => {
    const { token, id } = await customer();
    const messageId = randomUUID();
    const sent = await upload(token, id, photo(), { message_id: messageId, text: 'It arrived broken' });
    expect(sent.status).toBe(201);
    const message = sent.body as WidgetMessage;
    expect(message).toMatchObject({
      author: 'customer',
      text: 'It arrived broken',
      message_id: messageId,
      conversation_id: id,
    });
    expect(message.attachments).toEqual([
      {
        id: expect.any(Number),
        kind: 'image',
        content_type: 'image/png',
        name: 'broken mug.png',
        size: pngOf(640, 480).length,
        width: 640,
        height: 480,
        url: `/v1/widget/conversations/${id}/attachments/${message.attachments![0]!.id}`,
      },
    ]);

    const served = await fetch(`${stack.url}${message.attachments![0]!.url}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(pngOf(640, 480))).toBe(true);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(served.headers.get('content-disposition')).toBe(
      `inline; filename="broken mug.png"; filename*=UTF-8''broken%20mug.png`,
    );
    expect(served.headers.get('cache-control')).toBe('private, max-age=3600');

    // The history carries it, and the engine was told of the photo by its name, with the words.
    const page = await request(url(`/conversations/${id}/messages`), { token });
    expect((page.body.messages as WidgetMessage[]).find((shown) => shown.id === message.id)?.attachments).toEqual(
      message.attachments,
    );
    const engineId = await engineConversationOf(stack, id);
    const transcript = await request(`${stack.engineUrl}/v1/conversations/${engineId}/transcript`, {
      token: stack.apiKey,
    });
    expect(transcript.body.turns[0]).toMatchObject({
      role: 'customer',
      text: '[photo: broken mug.png] It arrived broken',
    });
  });

  it('sends a PDF without words as a file the customer downloads, and names it to the AI', async () => {
    const { token, id } = await customer();
    const sent = await upload(token, id, {
      bytes: pdf,
      name: 'C:\\fakepath\\receipt"\u202egnp.pdf',
      type: 'application/pdf',
    });
    expect(sent.status).toBe(201);
    const message = sent.body as WidgetMessage;
    // No folder, no quotes, no right-to-left override; the extension is its checked type's.
    expect(message).toMatchObject({
      text: '',
      attachments: [
        { kind: 'file', content_type: 'application/pdf', name: 'receiptgnp.pdf', width: null, height: null },
      ],
    });
    const served = await fetch(`${stack.url}${message.attachments![0]!.url}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename="receiptgnp.pdf"/);
    const engineId = await engineConversationOf(stack, id);
    const transcript = await request(`${stack.engineUrl}/v1/conversations/${engineId}/transcript`, {
      token: stack.apiKey,
    });
    expect(transcript.body.turns[0]).toMatchObject({ role: 'customer', text: '[file: receiptgnp.pdf]' });
  });

  it('gives the first copy back when the same message_id is sent again, and keeps nothing twice', async () => {
    const { token, id } = await customer();
    const messageId = randomUUID();
    const first = await upload(token, id, photo(), { message_id: messageId });
    expect(first.status).toBe(201);
    const before = await counts(id);
    const again = await upload(token, id, { bytes: jpegOf(10, 10), name: 'other.jpg' }, { message_id: messageId });
    expect(again.status).toBe(200);
    // The same message; only its status may have moved on meanwhile (the AI may have answered and read it).
    const { status: firstStatus, ...kept } = first.body as WidgetMessage;
    const { status: againStatus, ...keptAgain } = again.body as WidgetMessage;
    expect(keptAgain).toEqual(kept);
    expect(firstStatus).toBe('sent');
    expect(['sent', 'delivered', 'read']).toContain(againStatus);
    expect(await counts(id)).toEqual(before);
  });

  it('refuses a file that is not an image or a PDF, whatever its name or claimed type, and keeps nothing', async () => {
    const { token, id } = await customer();
    const before = await counts(id);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>';
    await expectRefused(
      await upload(token, id, { bytes: svg, name: 'logo.svg', type: 'image/svg+xml' }),
      415,
      'unsupported_media_type',
      id,
      before,
    );
    await expectRefused(
      await upload(token, id, { bytes: '<html><script>alert(1)</script></html>', name: 'cat.png', type: 'image/png' }),
      415,
      'unsupported_media_type',
      id,
      before,
    );
    await expectRefused(
      await upload(token, id, { bytes: Buffer.alloc(0), name: 'empty.png', type: 'image/png' }),
      400,
      'invalid_request',
      id,
      before,
    );
  });

  it('refuses a file over the size limit (413) and a decompression bomb (422), keeping nothing', async () => {
    const { token, id } = await customer();
    const before = await counts(id);
    const big = Buffer.concat([pngOf(100, 100), Buffer.alloc(MAX_BYTES)]);
    await expectRefused(await upload(token, id, { bytes: big, name: 'big.png' }), 413, 'payload_too_large', id, before);
    // A body over the limit is refused before it is all read.
    await expectRefused(
      await upload(token, id, { bytes: Buffer.concat([big, Buffer.alloc(800 * 1024)]), name: 'bigger.png' }),
      413,
      'payload_too_large',
      id,
      before,
    );
    await expectRefused(
      await upload(token, id, { bytes: pngOf(50_000, 50_000), name: 'bomb.png' }),
      422,
      'unprocessable',
      id,
      before,
    );
  });

  it('refuses a compressed body, a body that is not multipart, a form without a file and a form without a message_id', async () => {
    const { token, id } = await customer();
    const before = await counts(id);
    const multipart = new Request('http://x/', { method: 'POST', body: form(photo(), { message_id: randomUUID() }) });
    const gzipped = await fetch(url(`/conversations/${id}/attachments`), {
      method: 'POST',
      body: gzipSync(Buffer.from(await multipart.arrayBuffer())),
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': multipart.headers.get('content-type')!,
        'content-encoding': 'gzip',
      },
    });
    await expectRefused(
      { status: gzipped.status, body: await gzipped.json() },
      415,
      'unsupported_media_type',
      id,
      before,
    );
    await expectRefused(
      await request(url(`/conversations/${id}/attachments`), { token, body: { message_id: randomUUID() } }),
      415,
      'unsupported_media_type',
      id,
      before,
    );
    await expectRefused(await upload(token, id, undefined), 400, 'invalid_request', id, before);
    await expectRefused(await upload(token, id, photo(), {}), 400, 'invalid_request', id, before);
    await expectRefused(
      await upload(token, id, photo(), { message_id: randomUUID(), colour: 'red' }),
      400,
      'invalid_request',
      id,
      before,
    );
  });

  it('refuses a file for a resolved conversation (409), keeping nothing', async () => {
    const { token, id } = await customer();
    expect((await request(url(`/conversations/${id}/close`), { token, body: {} })).status).toBe(200);
    const before = await counts(id);
    await expectRefused(await upload(token, id, photo()), 409, 'invalid_state', id, before);
  });

  it("serves a file to its own customer only: another customer's token, no token and a wrong id are refused", async () => {
    const owner = await customer();
    const stranger = await customer();
    const sent = await upload(owner.token, owner.id, photo());
    const attachment = (sent.body as WidgetMessage).attachments![0]!;
    const fetchAs = (token: string | undefined, path = attachment.url) =>
      request(`${stack.url}${path}`, { ...(token ? { token } : {}) });
    expect((await fetchAs(stranger.token)).status).toBe(404);
    // Naming their own conversation does not reach another conversation's file either.
    expect(
      (await fetchAs(stranger.token, `/v1/widget/conversations/${stranger.id}/attachments/${attachment.id}`)).status,
    ).toBe(404);
    expect((await fetchAs(undefined)).status).toBe(401);
    expect(
      (await fetchAs(owner.token, `/v1/widget/conversations/${owner.id}/attachments/${attachment.id + 1000}`)).status,
    ).toBe(404);
    expect((await fetchAs(owner.token, `/v1/widget/conversations/${owner.id}/attachments/x`)).status).toBe(404);
    // Nor may a stranger send into someone else's conversation.
    const before = await counts(owner.id);
    await expectRefused(await upload(stranger.token, owner.id, photo()), 404, 'not_found', owner.id, before);
    await expectRefused(await upload(undefined, owner.id, photo()), 401, 'unauthorized', owner.id, before);
  });

  it('sweeps bytes no message keeps any more (an inbox or account deleted with its messages)', async () => {
    const { token, id } = await customer();
    const sent = await upload(token, id, photo());
    const attachment = (sent.body as WidgetMessage).attachments![0]!;
    const [row] = await stack.bffSql.query<{ storage_key: string }>(
      'SELECT storage_key FROM attachments WHERE id = $1',
      [attachment.id],
    );
    await stack.bffSql.query('DELETE FROM attachments WHERE id = $1', [attachment.id]);
    expect(await storage.get(row!.storage_key)).toBeDefined();
    // Young bytes may belong to an upload on its way: left alone.
    await stack.bff.attachments.sweep();
    expect(await storage.get(row!.storage_key)).toBeDefined();
    clock.offsetMs = UNUSED_OBJECT_AGE_MS + 1000;
    try {
      expect(await stack.bff.attachments.sweep()).toBeGreaterThanOrEqual(1);
    } finally {
      clock.offsetMs = 0;
    }
    expect(await storage.get(row!.storage_key)).toBeUndefined();
    expect(
      await stack.bffSql.query('SELECT 1 FROM attachment_objects WHERE storage_key = $1', [row!.storage_key]),
    ).toHaveLength(0);
  });

  it("erases a conversation's attachments, rows and bytes, at once", async () => {
    const { token, id } = await customer();
    await upload(token, id, photo());
    const [conversation] = await stack.bffSql.query<{ id: number }>('SELECT id FROM conversations WHERE uuid = $1', [
      id,
    ]);
    const keys = await stack.bffSql.query<{ storage_key: string }>(
      'SELECT storage_key FROM attachments WHERE conversation_id = $1',
      [conversation!.id],
    );
    expect(await stack.bff.attachments.erase([conversation!.id])).toBe(1);
    for (const { storage_key } of keys) expect(await storage.get(storage_key)).toBeUndefined();
    expect(
      await stack.bffSql.query('SELECT 1 FROM attachments WHERE conversation_id = $1', [conversation!.id]),
    ).toHaveLength(0);
  });

  it('lets the AI answer a photo sent with a question, and shows the photo read', async () => {
    const { token, id } = await customer();
    const sent = await upload(token, id, photo(), { message_id: randomUUID(), text: 'How do I return an item?' });
    await stack.bff.relay.settled();
    const page = await until(
      () => request(url(`/conversations/${id}/messages`), { token }),
      (response) => (response.body.messages as WidgetMessage[]).some((message) => message.author === 'ai'),
      'the AI answer',
    );
    const mine = (page.body.messages as WidgetMessage[]).find((message) => message.id === sent.body.id)!;
    expect(mine.status).toBe('read');
    expect(mine.attachments).toHaveLength(1);
  });
});
