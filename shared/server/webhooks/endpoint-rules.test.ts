import { describe, expect, it } from 'vitest';
import { ParleyError } from '../../errors.ts';
import { isPrivateException, PrivateExceptions, refusedHostName } from './endpoint-rules.ts';
import { checkEndpointHost, checkEndpointUrl } from './targets.ts';

describe('the host names an endpoint may never have (engine and helpdesk alike)', () => {
  it.each([
    'localhost.',
    'LOCALHOST..',
    'ip6-localhost',
    'ip6-loopback',
    'localhost.localdomain',
    'shop.localhost.',
    'intranet',
    'db.',
    '10.0.0.1.nip.io',
    '127-0-0-1.sslip.io',
    'app.localtest.me',
    'anything.lvh.me.',
  ])('refuses %s before any lookup', (host) => {
    expect(refusedHostName(host)).toBeDefined();
    const url = checkEndpointUrl(`https://${host}/hook`, 'sandbox');
    expect(() => checkEndpointHost(url, { allowedPrivateOrigins: [] })).toThrow(ParleyError);
  });

  it.each(['shop.example', 'hooks.shop.example.', 'nip.io.shop.example'])(
    'lets %s be saved (checked again at every connection)',
    (host) => {
      expect(refusedHostName(host)).toBeUndefined();
    },
  );

  it('refuses an IPv4 literal written with a trailing dot', () => {
    const url = checkEndpointUrl('https://127.0.0.1./hook', 'sandbox');
    expect(() => checkEndpointHost(url, { allowedPrivateOrigins: [] })).toThrow(/private address/);
  });
});

describe("the operator's private exceptions", () => {
  const exceptions = PrivateExceptions.parse('http://127.0.0.1:3000/v1/engine-webhooks/, http://10.0.0.9');

  it('are origins, or origins with the path that URLs must be at or under', () => {
    expect(exceptions).toEqual(['http://127.0.0.1:3000/v1/engine-webhooks', 'http://10.0.0.9']);
    expect(isPrivateException(new URL('http://127.0.0.1:3000/v1/engine-webhooks'), exceptions)).toBe(true);
    expect(isPrivateException(new URL('http://127.0.0.1:3000/v1/engine-webhooks/7'), exceptions)).toBe(true);
    expect(isPrivateException(new URL('http://10.0.0.9/anything'), exceptions)).toBe(true);
  });

  it("reach no other path of the operator's service, and no other port", () => {
    for (const url of [
      'http://127.0.0.1:3000/',
      'http://127.0.0.1:3000/api/v1/accounts/1/webhooks',
      'http://127.0.0.1:3000/v1/engine-webhooks-admin',
      'http://127.0.0.1:3000/v1/engine-webhook',
      'http://127.0.0.1:3001/v1/engine-webhooks',
    ])
      expect(isPrivateException(new URL(url), exceptions), url).toBe(false);
    const outside = checkEndpointUrl('http://127.0.0.1:3000/store/admin', 'sandbox');
    expect(() => checkEndpointHost(outside, { allowedPrivateOrigins: exceptions })).toThrow(/private address/);
  });

  it('refuses an entry with a query, a fragment or a password', () => {
    for (const entry of ['http://10.0.0.9/?a=1', 'http://10.0.0.9/#x', 'http://u:p@10.0.0.9', 'ftp://10.0.0.9'])
      expect(PrivateExceptions.safeParse(entry).success, entry).toBe(false);
  });
});
