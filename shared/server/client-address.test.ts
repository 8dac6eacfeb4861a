import { describe, expect, it } from 'vitest';
import { clientAddress, clientLimitKey, limitKeyOf } from './client-address.ts';
import { MemoryRollingLimiter } from './rate-limiter.ts';

const request = (peer: string, forwarded?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  }) as never;

describe('the client address', () => {
  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress(request('::ffff:10.0.0.5', '1.2.3.4'), 0)).toBe('10.0.0.5');
  });

  it('is the N-th entry from the right with N trusted proxies', () => {
    expect(clientAddress(request('10.0.0.1', '203.0.113.7'), 1)).toBe('203.0.113.7');
    expect(clientAddress(request('10.0.0.1', '203.0.113.7, 10.0.0.9'), 2)).toBe('203.0.113.7');
  });

  it('cannot be spoofed by entries the client wrote on the left', () => {
    expect(clientAddress(request('10.0.0.1', '6.6.6.6, 203.0.113.7'), 1)).toBe('203.0.113.7');
  });

  it('falls back to the peer when the header is shorter than the proxy chain', () => {
    expect(clientAddress(request('10.0.0.1', '203.0.113.7'), 2)).toBe('10.0.0.1');
    expect(clientAddress(request('10.0.0.1'), 1)).toBe('10.0.0.1');
  });
});

describe('the key a per-address limit counts (issue 12)', () => {
  const hour = new Date('2026-11-22T10:00:00Z');
  /** The site-key limit as the BFF sets it: 20 an hour per client. */
  const siteKeyLimit = () => new MemoryRollingLimiter(20, 3_600_000);

  it('counts 30 requests from 30 addresses of one IPv6 /64 as one client: the 21st is refused', async () => {
    const limiter = siteKeyLimit();
    const decisions = [];
    for (let index = 1; index <= 30; index++) {
      const peer = `2001:db8:aa:bb:${index.toString(16)}:${((index * 7919) & 0xffff).toString(16)}::${index}`;
      decisions.push((await limiter.consume(clientLimitKey(request(peer), 0), hour)).allowed);
    }
    expect(decisions.filter(Boolean)).toHaveLength(20);
    expect(decisions.slice(20)).toEqual(new Array(10).fill(false));
  });

  it('counts two /64s as two clients, and takes the /64 from X-Forwarded-For behind trusted proxies', async () => {
    const limiter = siteKeyLimit();
    for (let index = 0; index < 20; index++)
      await limiter.consume(clientLimitKey(request('10.0.0.1', `2001:db8:aa:bb::${index}`), 1), hour);
    expect(
      (await limiter.consume(clientLimitKey(request('10.0.0.1', '2001:db8:aa:bb:ffff::1'), 1), hour)).allowed,
    ).toBe(false);
    expect((await limiter.consume(clientLimitKey(request('10.0.0.1', '2001:db8:aa:bc::1'), 1), hour)).allowed).toBe(
      true,
    );
  });

  it('keeps IPv4 addresses as they are, each its own client, however IPv6 spells them', () => {
    expect(limitKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(limitKeyOf('203.0.113.8')).toBe('203.0.113.8');
    expect(clientLimitKey(request('::ffff:203.0.113.7'), 0)).toBe('203.0.113.7');
    expect(clientLimitKey(request('10.0.0.1', '::ffff:cb00:7107'), 1)).toBe('203.0.113.7');
  });

  it('writes the /64 one way whatever the spelling', () => {
    for (const address of [
      '2001:db8:0:1::',
      '2001:DB8:0:1:ffff:ffff:ffff:ffff',
      '2001:0db8:0000:0001::1%eth0',
      '2001:db8:0:1:0:0:10.0.0.1',
    ]) {
      expect(limitKeyOf(address)).toBe('2001:db8:0:1::/64');
    }
    expect(limitKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(limitKeyOf('unknown')).toBe('unknown');
  });

  it('leaves the recorded address whole (the audit log keeps the exact address)', () => {
    expect(clientAddress(request('2001:db8:aa:bb:1:2:3:4'), 0)).toBe('2001:db8:aa:bb:1:2:3:4');
  });
});
