import { describe, expect, it } from 'vitest';
import { ipv4Of, ipv6Groups } from './ip-address.ts';

describe('IPv6 groups', () => {
  it.each([
    ['::', [0, 0, 0, 0, 0, 0, 0, 0]],
    ['::1', [0, 0, 0, 0, 0, 0, 0, 1]],
    ['2001:DB8::a:b', [0x2001, 0xdb8, 0, 0, 0, 0, 0xa, 0xb]],
    ['1:2:3:4:5:6:7:8', [1, 2, 3, 4, 5, 6, 7, 8]],
    ['fe80::1%eth0', [0xfe80, 0, 0, 0, 0, 0, 0, 1]],
    ['::ffff:10.0.0.1', [0, 0, 0, 0, 0, 0xffff, 0xa00, 1]],
    ['1:2:3:4:5:6:192.168.0.1', [1, 2, 3, 4, 5, 6, 0xc0a8, 1]],
    ['2002:a00:1::', [0x2002, 0xa00, 1, 0, 0, 0, 0, 0]],
  ])('reads %s', (address, groups) => {
    expect(ipv6Groups(address)).toEqual(groups);
  });

  it.each(['10.0.0.1', 'not an address', '1::2::3', '::ffff:01.2.3.4', ''])('is undefined for %j', (address) => {
    expect(ipv6Groups(address)).toBeUndefined();
  });

  it('turns two groups into an IPv4 address', () => {
    expect(ipv4Of(0xc0a8, 0x0101)).toBe('192.168.1.1');
  });
});
