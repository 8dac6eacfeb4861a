import { gzipSync } from 'node:zlib';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { jpegOf, pdf, pngOf } from '../../test/media-fixtures.ts';
import { DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { expectDeskError, expectMessage, expectFields } from '../../test/client-api-fixture.ts';
import { MAX_FILES_PER_MESSAGE } from '../attachments/attachment-service.ts';
import { User } from '../../shared/schemas/helpdesk/index.ts';
import { createInbox, enableClientApi } from '../index.ts';

/** Chatwoot's attachment fields (Attachment#push_event_data for files), and Parley's file_name. */
const ATTACHMENT_FIELDS = {
  id: 'integer',
  message_id: 'integer',
  file_type: 'string',
  account_id: 'integer|null',
  extension: 'string',
  data_url: 'string',
  thumb_url: 'string',
  file_size: 'integer',
  width: 'integer|null',
  height: 'integer|null',
  file_name: 'string',
};

interface File {
  bytes: Buffer | string;
  name: string;
  type?: string;
}

/** Chatwoot's multipart form: content, echo_id and attachments[] (a field name may repeat). */
function form(files: File[], fields: Record<string, string> = {}, field = 'attachments[]'): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const file of files)
    body.append(
      field,
      new Blob([typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes)], {
        type: file.type ?? 'application/octet-stream',
      }),
      file.name,
    );
  return body;
}

describe.each(DRIVERS)('attachments in the helpdesk Client API and Application API on $name', (driver) => {
  let stack: TestStack;
  let admin: User;
  let agent: User;
  let outsider: User;
  let strangerAdmin: User;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    stack = await startStack(driver, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN }, { feedPollMs: 0 });
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    const person = async (
      name: string,
      email: string,
      role: 'administrator' | 'agent',
      accountId = stack.accountId,
    ) => {
      const user = User.parse((await platform('/users', { name, email })).body);
      await platform(`/accounts/${accountId}/account_users`, { user_id: user.id, role });
      return user;
    };
    admin = await person('Ada', 'ada@files.example', 'administrator');
    agent = await person('Sam', 'sam@files.example', 'agent');
    outsider = await person('Kim', 'kim@files.example', 'agent');
    const other = (await platform('/accounts', { name: 'Another shop' })).body as { id: number };
    strangerAdmin = await person('Lou', 'lou@files.example', 'administrator', other.id);
    const inboxes = (await app('/inboxes', admin.access_token!)).body as { payload: { id: number }[] };
    await app('/inbox_members', admin.access_token!, {
      body: { inbox_id: inboxes.payload[0]!.id, user_ids: [agent.id] },
    });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stack?.stop();
  });

  const app = (path: string, token: string | undefined, options: { method?: string; body?: unknown } = {}) =>
    desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, token, options);
  const base = (inbox = stack.inboxIdentifier) => `${stack.url}/public/api/v1/inboxes/${inbox}`;
  const conversationUrl = (source: string, id: number, inbox?: string) =>
    `${base(inbox)}/contacts/${source}/conversations/${id}`;

  async function contactWithConversation() {
    const contact = (await request(`${base()}/contacts`, { body: { name: 'Pat' } })).body as {
      source_id: string;
      pubsub_token: string;
    };
    const conversation = (await request(`${base()}/contacts/${contact.source_id}/conversations`, { body: {} }))
      .body as { id: number; uuid: string };
    return { contact, conversation };
  }
  async function post(url: string, body: FormData | Buffer, headers: Record<string, string> = {}) {
    const response = await fetch(`${url}/messages`, {
      method: 'POST',
      body: body instanceof FormData ? body : new Uint8Array(body),
      headers,
    });
    return { status: response.status, body: (await response.json()) as any };
  }
  const conversationRowId = async (uuid: string) =>
    (await stack.bffSql.query<{ id: number }>('SELECT id FROM conversations WHERE uuid = $1', [uuid]))[0]!.id;
  const kept = async (uuid: string) => ({
    messages: (
      await stack.bffSql.query(
        "SELECT 1 FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 AND m.author = 'customer'",
        [uuid],
      )
    ).length,
    objects: (await stack.bffSql.query('SELECT 1 FROM attachment_objects')).length,
  });

  it("takes Chatwoot's multipart attachments[] with content and echo_id, and answers with Chatwoot's attachments array", async () => {
    const { contact, conversation } = await contactWithConversation();
    const socket = io(`${stack.url}/client`, {
      auth: { pubsub_token: contact.pubsub_token },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    const pushed: any[] = [];
    socket.on('message.created', (message: unknown) => pushed.push(message));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });

    const sent = await post(
      conversationUrl(contact.source_id, conversation.id),
      form(
        [
          { bytes: pngOf(800, 600), name: 'mug.png', type: 'image/png' },
          { bytes: pdf, name: 'order.pdf', type: 'application/pdf' },
        ],
        { content: 'Here it is', echo_id: 'echo-files-1' },
      ),
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expectMessage(sent.body);
    expect(sent.body).toMatchObject({ content: 'Here it is', message_type: 0 });
    expect(sent.body.attachments).toHaveLength(2);
    for (const attachment of sent.body.attachments) expectFields(attachment, ATTACHMENT_FIELDS, 'attachment');
    const [image, file] = sent.body.attachments;
    const path = `/public/api/v1/inboxes/${stack.inboxIdentifier}/contacts/${contact.source_id}/conversations/${conversation.id}/attachments`;
    expect(image).toMatchObject({
      message_id: sent.body.id,
      file_type: 'image',
      extension: 'png',
      file_size: pngOf(800, 600).length,
      width: 800,
      height: 600,
      file_name: 'mug.png',
      account_id: stack.accountId,
    });
    expect(image.data_url).toBe(`${path}/${image.id}`);
    expect(image.thumb_url).toBe(image.data_url);
    expect(file).toMatchObject({
      file_type: 'file',
      extension: 'pdf',
      thumb_url: '',
      width: null,
      height: null,
      file_name: 'order.pdf',
    });

    // Realtime carries the same array, with the echo_id.
    const created: any = await until(
      () => pushed.find((message) => message.id === sent.body.id),
      (found) => found !== undefined,
      'message.created for the files',
    );
    expect(created.echo_id).toBe('echo-files-1');
    expect(created.attachments).toEqual(sent.body.attachments);

    // So do the lists, and the data_url gives the bytes to the contact.
    const listed = (await request(`${conversationUrl(contact.source_id, conversation.id)}/messages`)).body as any[];
    expect(listed.find((message) => message.id === sent.body.id).attachments).toEqual(sent.body.attachments);
    const whole = (await request(conversationUrl(contact.source_id, conversation.id))).body as { messages: any[] };
    expect(whole.messages.find((message) => message.id === sent.body.id).attachments).toEqual(sent.body.attachments);
    const served = await fetch(`${stack.url}${image.data_url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await served.arrayBuffer()).equals(pngOf(800, 600))).toBe(true);
    const download = await fetch(`${stack.url}${file.data_url}`);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="order.pdf"/);

    // The engine hears of both files, then the words.
    await stack.bff.relay.settled();
    const [row] = await stack.bffSql.query<{ engine_conversation_id: string }>(
      'SELECT engine_conversation_id FROM conversations WHERE uuid = $1',
      [conversation.uuid],
    );
    const transcript = await request(`${stack.engineUrl}/v1/conversations/${row!.engine_conversation_id}/transcript`, {
      token: stack.liveApiKey!,
    });
    expect(transcript.body.turns[0].text).toBe('[photo: mug.png] [file: order.pdf] Here it is');
  });

  it('takes files without content, repeats an echo_id once, and still takes plain JSON messages', async () => {
    const { contact, conversation } = await contactWithConversation();
    const url = conversationUrl(contact.source_id, conversation.id);
    const first = await post(url, form([{ bytes: jpegOf(30, 20), name: 'a.jpeg' }], { echo_id: 'once' }));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      content: '',
      attachments: [{ file_type: 'image', extension: 'jpg', file_name: 'a.jpg', width: 30, height: 20 }],
    });
    const before = await kept(conversation.uuid);
    const again = await post(url, form([{ bytes: jpegOf(30, 20), name: 'a.jpeg' }], { echo_id: 'once' }));
    expect(again.body).toEqual(first.body);
    expect(await kept(conversation.uuid)).toEqual(before);
    const plain = await request(`${url}/messages`, { body: { content: 'and words' } });
    expect(plain.status).toBe(200);
    expect(plain.body).not.toHaveProperty('attachments');
    // A form with words and no files is a message too.
    const words = await post(url, form([], { content: 'only words' }));
    expect(words.status).toBe(200);
    expect(words.body).toMatchObject({ content: 'only words' });
  });

  it('refuses bad files in the bad_request_error shape and keeps nothing', async () => {
    const { contact, conversation } = await contactWithConversation();
    const url = conversationUrl(contact.source_id, conversation.id);
    const before = await kept(conversation.uuid);
    const refused = async (response: { status: number; body: any }, status: number, code: string) => {
      expectDeskError(response, status, code);
      expect(await kept(conversation.uuid)).toEqual(before);
    };
    await refused(
      await post(
        url,
        form([{ bytes: '<svg xmlns="http://www.w3.org/2000/svg"/>', name: 'x.svg', type: 'image/svg+xml' }]),
      ),
      415,
      'unsupported_media_type',
    );
    await refused(
      await post(url, form([{ bytes: '<!doctype html><p>hi', name: 'photo.png', type: 'image/png' }])),
      415,
      'unsupported_media_type',
    );
    // One good file does not carry a bad one in.
    await refused(
      await post(
        url,
        form([
          { bytes: pngOf(10, 10), name: 'ok.png' },
          { bytes: 'MZ\x90\x00', name: 'run.exe' },
        ]),
      ),
      415,
      'unsupported_media_type',
    );
    await refused(await post(url, form([{ bytes: pngOf(40_000, 40_000), name: 'bomb.png' }])), 422, 'unprocessable');
    await refused(
      await post(
        url,
        form([{ bytes: Buffer.concat([pngOf(10, 10), Buffer.alloc(11 * 1024 * 1024)]), name: 'huge.png' }]),
      ),
      413,
      'payload_too_large',
    );
    const tooMany = Array.from({ length: MAX_FILES_PER_MESSAGE + 1 }, (_, index) => ({
      bytes: pngOf(10, 10),
      name: `${index}.png`,
    }));
    await refused(await post(url, form(tooMany)), 422, 'unprocessable');
    await refused(await post(url, form([{ bytes: pngOf(10, 10), name: 'x.png' }], {}, 'photo')), 422, 'unprocessable');
    await refused(await post(url, form([])), 422, 'unprocessable');
    const multipart = new Request('http://x/', {
      method: 'POST',
      body: form([{ bytes: pngOf(10, 10), name: 'x.png' }]),
    });
    const gzipped = await post(url, gzipSync(Buffer.from(await multipart.arrayBuffer())), {
      'content-type': multipart.headers.get('content-type')!,
      'content-encoding': 'gzip',
    });
    await refused(gzipped, 415, 'unsupported_media_type');
  });

  it("serves a file to its contact only: another contact, another inbox's identifier and another conversation get 404", async () => {
    const owner = await contactWithConversation();
    const stranger = await contactWithConversation();
    const sent = await post(
      conversationUrl(owner.contact.source_id, owner.conversation.id),
      form([{ bytes: pngOf(5, 5), name: 'mine.png' }]),
    );
    const id = sent.body.attachments[0].id as number;
    const otherInbox = await createInbox(stack.bffSql, { name: 'Second shop' });
    const { identifier } = await enableClientApi(stack.bffSql, otherInbox.id);
    const get = (url: string) => fetch(url).then((response) => response.status);
    expect(await get(`${stack.url}${sent.body.attachments[0].data_url}`)).toBe(200);
    expect(await get(`${conversationUrl(stranger.contact.source_id, owner.conversation.id)}/attachments/${id}`)).toBe(
      404,
    );
    expect(
      await get(`${conversationUrl(stranger.contact.source_id, stranger.conversation.id)}/attachments/${id}`),
    ).toBe(404);
    expect(
      await get(`${conversationUrl(owner.contact.source_id, owner.conversation.id, identifier)}/attachments/${id}`),
    ).toBe(404);
    expect(
      await get(
        `${conversationUrl(owner.contact.source_id, owner.conversation.id, 'no-such-inbox-identifier')}/attachments/${id}`,
      ),
    ).toBe(404);
  });

  it("shows people the customer's files in the Application API, and serves them to the account's people only", async () => {
    const { contact, conversation } = await contactWithConversation();
    const sent = await post(
      conversationUrl(contact.source_id, conversation.id),
      form([{ bytes: pngOf(64, 48), name: 'scratch.png' }], { content: 'See?' }),
    );
    const conversationId = await conversationRowId(conversation.uuid);
    const messages = await app(`/conversations/${conversationId}/messages`, admin.access_token!);
    expect(messages.status).toBe(200);
    const shown = (messages.body.payload as any[]).find((message) => message.id === sent.body.id);
    const [attachment] = shown.attachments;
    expectFields(attachment, ATTACHMENT_FIELDS, 'attachment');
    expect(attachment).toMatchObject({
      file_type: 'image',
      width: 64,
      height: 48,
      file_name: 'scratch.png',
      account_id: stack.accountId,
    });
    expect(attachment.data_url).toBe(
      `/api/v1/accounts/${stack.accountId}/conversations/${conversationId}/attachments/${attachment.id}`,
    );
    // Messages without files carry no attachments.
    expect(
      (messages.body.payload as any[])
        .filter((message) => message.id !== sent.body.id)
        .every((message) => !('attachments' in message)),
    ).toBe(true);

    const fetchAs = (token: string | undefined) =>
      desk(`${stack.url}${attachment.data_url}`, token).then((response) => response.status);
    const bytes = await fetch(`${stack.url}${attachment.data_url}`, {
      headers: { api_access_token: admin.access_token! },
    });
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await bytes.arrayBuffer()).equals(pngOf(64, 48))).toBe(true);
    expect(await fetchAs(agent.access_token)).toBe(200);
    // An agent who does not answer the inbox, a person of another account, no token.
    expect(await fetchAs(outsider.access_token)).toBe(404);
    expect(await fetchAs(strangerAdmin.access_token)).toBe(401);
    expect(await fetchAs(undefined)).toBe(401);
    expect(await fetchAs('not-a-token')).toBe(401);
    // A file of another conversation named under this one.
    const other = await contactWithConversation();
    const otherId = await conversationRowId(other.conversation.uuid);
    expect(
      (
        await desk(
          `${stack.url}/api/v1/accounts/${stack.accountId}/conversations/${otherId}/attachments/${attachment.id}`,
          admin.access_token!,
        )
      ).status,
    ).toBe(404);
  });
});
