import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from './targets.ts';

/**
 * Issue 12: IPv6 spellings that reach a private IPv4 host, and old private IPv6 ranges, passed as
 * public, so a webhook could be pointed at the service's own network. Each is given in its dotted
 * and its hex form where it has both.
 */
describe('private addresses inside IPv6', () => {
  it.each([
    // IPv4-compatible ::/96 (deprecated): never routed, private whatever it holds.
    ['::10.0.0.1', 'IPv4-compatible, dotted'],
    ['::a00:1', 'IPv4-compatible, hex'],
    ['::8.8.8.8', 'IPv4-compatible, even to a public IPv4'],
    ['0:0:0:0:0:0:a00:1', 'IPv4-compatible, written out'],
    // SIIT ::ffff:0:0:0/96.
    ['::ffff:0:10.0.0.1', 'SIIT, dotted'],
    ['::ffff:0:a00:1', 'SIIT, hex'],
    ['::ffff:0:7f00:1', 'SIIT to loopback'],
    // IPv4-mapped ::ffff:0:0/96.
    ['::ffff:10.0.0.1', 'mapped, dotted'],
    ['::ffff:a00:1', 'mapped, hex'],
    ['0000:0000:0000:0000:0000:ffff:0a00:0001', 'mapped, written out'],
    ['::FFFF:A9FE:A9FE', 'mapped to the metadata address, upper case'],
    // NAT64: the well-known prefix to a private IPv4; the local-use /48 always.
    ['64:ff9b::10.0.0.1', 'NAT64, dotted'],
    ['64:ff9b::a00:1', 'NAT64, hex'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['64:ff9b:1::8.8.8.8', 'local-use NAT64 (a network of its own, whatever it holds)'],
    ['64:ff9b:1:ffff::1', 'local-use NAT64, end of the /48'],
    // 6to4 2002::/16 wrapping a private IPv4 in bits 16-47.
    ['2002:0a00:0001::', '6to4 to 10.0.0.1'],
    ['2002:a00:1::1', '6to4 to 10.0.0.1, short'],
    ['2002:c0a8:101:5::1', '6to4 to 192.168.1.1'],
    ['2002:7f00:1::', '6to4 to 127.0.0.1'],
    ['2002:a9fe:a9fe::', '6to4 to 169.254.169.254'],
    // Teredo 2001::/32: the client's IPv4 inverted in the last 32 bits (here 10.0.0.1).
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'Teredo to a private client'],
    // Site-local fec0::/10.
    ['fec0::1', 'site-local'],
    ['FEC0:0:0:1::1', 'site-local, upper case'],
    ['feff:ffff::1', 'site-local, end of the /10'],
    // Already private before issue 12: still so.
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fd00::1', 'unique local'],
  ])('%s (%s) is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    ['2606:4700::1111', 'a public IPv6 address'],
    ['2606:4700:4700::1111', 'a public IPv6 address, longer'],
    ['2001:4860:4860::8888', 'a public IPv6 address of 2001::/16 outside Teredo'],
    ['2002:0808:0808::', '6to4 to 8.8.8.8'],
    ['2002:808:808:1::1', '6to4 to 8.8.8.8, short'],
    ['::ffff:8.8.8.8', 'mapped to 8.8.8.8, dotted'],
    ['::ffff:808:808', 'mapped to 8.8.8.8, hex'],
    ['::ffff:0:8.8.8.8', 'SIIT to 8.8.8.8'],
    ['64:ff9b::8.8.8.8', 'NAT64 to 8.8.8.8, dotted'],
    ['64:ff9b::808:808', 'NAT64 to 8.8.8.8, hex'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo between public IPv4 addresses'],
    ['8.8.8.8', 'a public IPv4 address'],
  ])('%s (%s) is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it.each(['not-an-ip', '', '2002:a00:1::1::', '::ffff:010.0.0.1', '[::1]'])(
    '%j, not an address, is treated as private',
    (address) => {
      expect(isPrivateAddress(address)).toBe(true);
    },
  );
});
