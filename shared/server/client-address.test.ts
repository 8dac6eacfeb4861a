import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.ts';

const request = (peer: string, forwarded?: string) => ({ socket: { remoteAddress: peer }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }) as never;

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
