import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from './webhook-signature.ts';

describe('webhook signatures', () => {
  const secret = 'whsec_test_secret';
  const body = '{"id":"evt_1","type":"conversation.reply"}';
  const now = 1_767_225_600_000;
  const ts = Math.floor(now / 1000);

  it('signs <timestamp>.<raw body> with HMAC-SHA256 as sha256=<hex>', async () => {
    const expected = `sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`;
    expect(await signWebhook(secret, ts, body)).toBe(expected);
  });

  it('accepts a genuine request within 300 seconds either way', async () => {
    for (const offset of [0, -300, 300]) {
      const signature = await signWebhook(secret, ts + offset, body);
      expect(await verifyWebhook(secret, String(ts + offset), signature, body, now)).toBeUndefined();
    }
  });

  it.each([
    ['no headers', async () => [undefined, undefined, body]],
    ['a timestamp that is not a number', async () => ['soon', await signWebhook(secret, ts, body), body]],
    [
      'a signature without the sha256= prefix',
      async () => [String(ts), (await signWebhook(secret, ts, body)).slice(7), body],
    ],
    ['a timestamp 301 s old', async () => [String(ts - 301), await signWebhook(secret, ts - 301, body), body]],
    ['a timestamp 301 s ahead', async () => [String(ts + 301), await signWebhook(secret, ts + 301, body), body]],
    ['another secret', async () => [String(ts), await signWebhook('whsec_other', ts, body), body]],
    ['a changed body', async () => [String(ts), await signWebhook(secret, ts, body), body.replace('reply', 'closed')]],
    [
      're-serialised JSON',
      async () => [String(ts), await signWebhook(secret, ts, body), JSON.stringify(JSON.parse(body), null, 1)],
    ],
    ['a replay with a new timestamp', async () => [String(ts + 5), await signWebhook(secret, ts, body), body]],
  ] as const)('refuses %s', async (_name, make) => {
    const [timestamp, signature, raw] = await make();
    expect(await verifyWebhook(secret, timestamp, signature, raw ?? body, now)).toBeDefined();
  });
});
