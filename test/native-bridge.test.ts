import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  COMMANDS,
  EVENTS,
  type ParleyCommand,
  type ParleyCommands,
  type ParleyEvent,
  type ParleyEvents,
} from '../widget/api.ts';
import {
  commandMessage,
  eventMessage,
  hostedChatUrl,
  initMessage,
  MAX_MESSAGE_CHARS,
  nativeDeliveryScript,
  nativeInitScript,
  originOf,
  parseBridgeMessage,
  scriptLiteral,
  type BridgeParse,
  type CommandMessage,
  type EventMessage,
} from '../widget/native/bridge.ts';

// One sample per name; a command or event added to widget/api.ts without one here fails to compile.
const COMMAND_ARGS: { [C in ParleyCommand]: ParleyCommands[C] } = {
  open: [],
  close: [],
  toggle: [],
  identify: [{ token: 'wst_eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjdXMifQ.c2ln' }],
  shutdown: [],
  setLocale: ['pt-BR'],
  setTheme: [{ color: '#1f3a5f', position: 'left', mode: 'dark' }],
  consent: [false],
};
const EVENT_PAYLOADS: { [E in ParleyEvent]: ParleyEvents[E] } = {
  ready: undefined,
  open: undefined,
  close: undefined,
  message: {
    conversation_id: '0b7c3c1e-8a4e-4f5e-9a51-3f1f3c1d2e4f',
    author: 'ai',
    text: 'Returns are free within 30 days. </script><b>"\u2028',
  },
  unread: { count: 3 },
  error: { code: 'unauthorized', message: 'The session has ended.' },
};

const refusedFor = (data: unknown): Extract<BridgeParse, { ok: false }> => {
  const parsed = parseBridgeMessage(data);
  if (parsed.ok) throw new Error(`expected a refusal, got ${JSON.stringify(parsed.message)}`);
  return parsed;
};

describe('the bridge messages of the hosted chat (widget/native/bridge.ts)', () => {
  it('round-trips every command of the public API, as an object and as JSON text', () => {
    expect(Object.keys(COMMAND_ARGS).sort()).toEqual([...COMMANDS].sort());
    for (const command of COMMANDS) {
      // Any name with its own sample: the loop's name is a union, which the builder's signature keeps apart.
      const message = (commandMessage as (command: ParleyCommand, ...args: unknown[]) => CommandMessage)(
        command,
        ...COMMAND_ARGS[command],
      );
      expect(message).toEqual({ parley: 1, kind: 'command', command, args: COMMAND_ARGS[command] });
      expect(parseBridgeMessage(message)).toEqual({ ok: true, message });
      expect(parseBridgeMessage(JSON.stringify(message))).toEqual({ ok: true, message });
    }
  });

  it('round-trips every event of the public API, as an object and as JSON text', () => {
    expect(Object.keys(EVENT_PAYLOADS).sort()).toEqual([...EVENTS].sort());
    for (const event of EVENTS) {
      const message = (eventMessage as (event: ParleyEvent, payload: unknown) => EventMessage)(
        event,
        EVENT_PAYLOADS[event],
      );
      expect(parseBridgeMessage(message)).toEqual({ ok: true, message });
      expect(parseBridgeMessage(JSON.stringify(message))).toEqual({ ok: true, message });
    }
  });

  it('round-trips an init, and leaves out what was not given', () => {
    const full = initMessage({ siteKey: 'pk_test_abc', token: 'wst_x.y.z', locale: 'de', theme: { mode: 'auto' } });
    expect(parseBridgeMessage(JSON.stringify(full))).toEqual({ ok: true, message: full });
    expect(initMessage({ siteKey: 'pk_test_abc', locale: undefined })).toEqual({
      parley: 1,
      kind: 'init',
      siteKey: 'pk_test_abc',
    });
  });

  it('passes on only the fields it checked', () => {
    const parsed = parseBridgeMessage({
      parley: 1,
      kind: 'command',
      command: 'setTheme',
      args: [{ color: '#fff', css: 'body{}' }],
      extra: 1,
    });
    expect(parsed).toEqual({
      ok: true,
      message: { parley: 1, kind: 'command', command: 'setTheme', args: [{ color: '#fff' }] },
    });
    const event = parseBridgeMessage({
      parley: 1,
      kind: 'event',
      event: 'unread',
      payload: { count: 1, html: '<img>' },
    });
    expect(event).toEqual({ ok: true, message: { parley: 1, kind: 'event', event: 'unread', payload: { count: 1 } } });
  });

  it("calls what is not a Parley message foreign, so that a page can ignore other scripts' messages", () => {
    for (const data of [
      'not json{',
      '"just a string"',
      42,
      null,
      [1],
      { type: 'webpackOk' },
      { parley: 2, kind: 'init' },
      { parley: '1', kind: 'init' },
    ]) {
      expect(refusedFor(data).foreign).toBe(true);
    }
    expect(refusedFor('x'.repeat(MAX_MESSAGE_CHARS + 1)).reason).toMatch(/at most/);
  });

  it('refuses malformed Parley messages and says what was wrong', () => {
    const cases: [unknown, RegExp][] = [
      [{ parley: 1, kind: 'shout' }, /kind must be/],
      [{ parley: 1 }, /kind must be .* not nothing/],
      [{ parley: 1, kind: 'command', command: 'explode', args: [] }, /command must be one of open, close/],
      [{ parley: 1, kind: 'command', command: 'open' }, /args must be an array/],
      [{ parley: 1, kind: 'command', command: 'open', args: [1] }, /open takes 0 arguments, not 1/],
      [{ parley: 1, kind: 'command', command: 'setLocale', args: [] }, /setLocale takes 1 argument, not 0/],
      [{ parley: 1, kind: 'command', command: 'setLocale', args: [42] }, /language tag/],
      [{ parley: 1, kind: 'command', command: 'setLocale', args: ['de;drop'] }, /language tag/],
      [{ parley: 1, kind: 'command', command: 'identify', args: ['wst_abc'] }, /identify takes \{token\}/],
      [{ parley: 1, kind: 'command', command: 'setTheme', args: [{ color: 'red' }] }, /hex colour/],
      [{ parley: 1, kind: 'command', command: 'setTheme', args: [{ mode: 'sepia' }] }, /mode must be/],
      [{ parley: 1, kind: 'command', command: 'setTheme', args: [{ position: 'top' }] }, /position must be/],
      [{ parley: 1, kind: 'event', event: 'exploded' }, /event must be one of ready/],
      [{ parley: 1, kind: 'event', event: 'ready', payload: { x: 1 } }, /no payload/],
      [
        { parley: 1, kind: 'event', event: 'message', payload: { conversation_id: 'c', author: 'bot', text: 'hi' } },
        /author must be/,
      ],
      [
        { parley: 1, kind: 'event', event: 'message', payload: { conversation_id: 'c', author: 'ai' } },
        /text must be a string/,
      ],
      [{ parley: 1, kind: 'event', event: 'unread', payload: { count: -1 } }, /whole number/],
      [{ parley: 1, kind: 'event', event: 'unread', payload: { count: 1.5 } }, /whole number/],
      [{ parley: 1, kind: 'event', event: 'error', payload: { code: 'x' } }, /message must be a string/],
      [{ parley: 1, kind: 'init', siteKey: 'service_test_x' }, /siteKey must be a site key/],
      [{ parley: 1, kind: 'init', siteKey: 'pk_test_x', locale: 7 }, /locale must be/],
      [{ parley: 1, kind: 'init', siteKey: 'pk_test_x', theme: 'dark' }, /theme must be an object/],
    ];
    for (const [data, reason] of cases) {
      const refused = refusedFor(data);
      expect(refused.foreign, JSON.stringify(data)).toBe(false);
      expect(refused.reason, JSON.stringify(data)).toMatch(reason);
    }
  });

  it('takes only wst_ tokens, and never repeats a refused one in its reason', () => {
    const apiKey = 'service_live_S3cr3tS3cr3tS3cr3t';
    for (const data of [
      { parley: 1, kind: 'init', token: apiKey },
      { parley: 1, kind: 'command', command: 'identify', args: [{ token: apiKey }] },
    ]) {
      const refused = refusedFor(data);
      expect(refused.reason).toMatch(/wst_/);
      expect(refused.reason).not.toContain('S3cr3t');
    }
  });

  it('writes values into JavaScript source so that no value can break out of it', () => {
    const nasty = { text: '</script><script>alert(1)</script>\u2028\u2029&' };
    const literal = scriptLiteral(nasty);
    expect(literal).not.toMatch(/[<>&\u2028\u2029]/);
    expect(runInNewContext(`(${literal})`)).toEqual(nasty);
  });

  it('hands the init to the chat page only on the chat origin', () => {
    const init = initMessage({ token: 'wst_a.b.c', locale: 'de' });
    const script = nativeInitScript(init, 'https://chat.example.com');
    const onChat: { location: { origin: string }; ParleyNative?: unknown } = {
      location: { origin: 'https://chat.example.com' },
    };
    runInNewContext(script, { window: onChat, location: onChat.location });
    expect(onChat.ParleyNative).toEqual({ init });
    const elsewhere: { location: { origin: string }; ParleyNative?: unknown } = {
      location: { origin: 'https://evil.example' },
    };
    runInNewContext(script, { window: elsewhere, location: elsewhere.location });
    expect(elsewhere.ParleyNative).toBeUndefined();
  });

  it('delivers a later command to ParleyBridge.receive only on the chat origin', () => {
    const message = commandMessage('identify', { token: 'wst_a.b.c' });
    const script = nativeDeliveryScript(message, 'https://chat.example.com');
    const received: unknown[] = [];
    const bridge = { receive: (value: unknown) => received.push(value) };
    runInNewContext(script, { window: { ParleyBridge: bridge }, location: { origin: 'https://chat.example.com' } });
    runInNewContext(script, { window: { ParleyBridge: bridge }, location: { origin: 'https://evil.example' } });
    // Before the page's script defined the bridge, nothing happens (and nothing throws).
    expect(runInNewContext(script, { window: {}, location: { origin: 'https://chat.example.com' } })).toBe(true);
    expect(received).toEqual([message]);
  });

  it('spells origins as location.origin does, and builds the chat URL without any query', () => {
    expect(originOf('https://Chat.Example.com:443/base/')).toBe('https://chat.example.com');
    expect(originOf('http://localhost:8080')).toBe('http://localhost:8080');
    expect(originOf('http://127.0.0.1:80/chat?x=1')).toBe('http://127.0.0.1');
    expect(originOf('https://user:pw@chat.example.com/')).toBeUndefined();
    expect(originOf('javascript:alert(1)')).toBeUndefined();
    expect(originOf('chat.example.com')).toBeUndefined();
    expect(hostedChatUrl('https://chat.example.com/')).toBe('https://chat.example.com/chat');
    expect(hostedChatUrl('https://example.com/parley?token=wst_x')).toBe('https://example.com/parley/chat');
  });
});
