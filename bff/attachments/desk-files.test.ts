import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeskMessage } from '../../shared/schemas/helpdesk/index.ts';
import { DEFAULT_MEDIA_LIMIT } from '../../shared/server/index.ts';
import { startDeskStack, type DeskStack } from '../../test/desk-conversations-fixture.ts';
import { pdf, pngOf } from '../../test/media-fixtures.ts';
import { DRIVERS } from '../../test/stack.ts';

/**
 * Issue 31: a person attaches files to an answer (Chatwoot's multipart `attachments[]` on
 * `POST …/conversations/{id}/messages`), checked by their bytes as the widget's are; the customer's
 * widget is pushed the message with its files and reads them back. Real BFF, engine and sockets.
 */
describe.each(DRIVERS)("people's files on $name", (driver) => {
  let desk: DeskStack;

  beforeAll(async () => {
    desk = await startDeskStack(driver);
  });
  afterAll(async () => {
    await desk?.stop();
  });

  const post = async (
    token: string | undefined,
    id: number,
    files: [string, Buffer, string][],
    fields: Record<string, string>,
  ) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const [name, bytes, type] of files)
      form.append('attachments[]', new Blob([new Uint8Array(bytes)], { type }), name);
    const response = await fetch(
      `${desk.stack.url}/api/v1/accounts/${desk.stack.accountId}/conversations/${id}/messages`,
      {
        method: 'POST',
        body: form,
        headers: { api_access_token: token ?? '' },
      },
    );
    return { status: response.status, body: (await response.json()) as any };
  };
  const kept = async () =>
    (
      await desk.stack.bffSql.query<{ n: number }>("SELECT count(*)::int AS n FROM attachments WHERE uploader = 'desk'")
    )[0]!.n;

  it("sends a photo with a caption that the customer's widget is pushed and reads back, once per echo_id", async () => {
    const customer = await desk.customerAsks('Where is my parcel?');
    const tab = await desk.customerSocket(customer.token);
    const photo: [string, Buffer, string] = ['label.png', pngOf(320, 200), 'image/png'];
    const sent = await post(desk.agent.access_token, customer.id, [photo], { content: 'Your label', echo_id: 'f-1' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const message = DeskMessage.parse(sent.body);
    expect(message).toMatchObject({ content: 'Your label', message_type: 1, private: false });
    expect(message.attachments?.[0]).toMatchObject({ file_type: 'image', width: 320, height: 200 });

    await expect
      .poll(() => tab.events.find((event) => event.name === 'message:created' && event.data.author === 'human')?.data)
      .toMatchObject({
        text: 'Your label',
        author: 'human',
        attachments: [{ kind: 'image', name: 'label.png', width: 320 }],
      });
    const shown = (await customer.widgetMessages()).find((entry) => entry.text === 'Your label')!;
    const file = await fetch(desk.stack.url + shown.attachments![0]!.url, {
      headers: { authorization: `Bearer ${customer.token}` },
    });
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(photo[1])).toBe(true);

    // The person who answered has it now, and the transcript of the people shows the file too.
    const row = (await desk.list(desk.agent.access_token, '?status=all')).payload.find((c) => c.id === customer.id);
    expect(row?.assignee_id).toBe(desk.agent.id);
    const transcript = await desk.app(`/conversations/${customer.id}/messages`, desk.agent.access_token);
    const listed = transcript.body.payload.find((entry: DeskMessage) => entry.id === message.id);
    expect(listed.attachments).toHaveLength(1);

    const again = await post(desk.agent.access_token, customer.id, [photo], { content: 'Your label', echo_id: 'f-1' });
    expect(again.body.id).toBe(message.id);
    expect(await kept()).toBe(1);
    tab.close();
  });

  it('refuses a wrong type, an oversize file, a bad field and another account with a stable code, keeping nothing', async () => {
    const customer = await desk.customerAsks('Can you send the invoice?');
    const before = await kept();
    const refusals: [number, string, Awaited<ReturnType<typeof post>>][] = [
      [
        415,
        'unsupported_media_type',
        await post(desk.agent.access_token, customer.id, [['a.exe', Buffer.from('MZ\x90\x00'), 'image/png']], {}),
      ],
      [
        413,
        'payload_too_large',
        await post(
          desk.agent.access_token,
          customer.id,
          [['big.pdf', Buffer.concat([pdf, Buffer.alloc(DEFAULT_MEDIA_LIMIT)]), 'application/pdf']],
          {},
        ),
      ],
      [422, 'unprocessable', await post(desk.agent.access_token, customer.id, [], { private: 'maybe', content: 'x' })],
      [
        404,
        'not_found',
        await post(desk.otherAgent.access_token, customer.id, [['i.pdf', pdf, 'application/pdf']], {}),
      ],
      [404, 'not_found', await post(desk.agent.access_token, 999_999, [['i.pdf', pdf, 'application/pdf']], {})],
    ];
    for (const [status, code, response] of refusals) {
      expect(response.status, JSON.stringify(response.body)).toBe(status);
      expect(response.body.errors?.[0]?.code ?? response.body.error, JSON.stringify(response.body)).toBe(code);
    }
    expect(await kept()).toBe(before);
    // A PDF as a private note: for people only, never pushed to the customer.
    const note = await post(desk.agent.access_token, customer.id, [['invoice.pdf', pdf, 'application/pdf']], {
      private: 'true',
    });
    expect(DeskMessage.parse(note.body)).toMatchObject({ private: true, attachments: [{ file_type: 'file' }] });
    expect((await customer.widgetMessages()).some((entry) => entry.attachments?.length)).toBe(false);
  });
});
