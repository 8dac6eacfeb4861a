import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSecretBox, parseSecretKeys, SecretBox } from './secret-box.ts';

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64url');

describe('sealed secrets (SecretBox)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'parley-secrets-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('seals a secret so that the stored text does not show it, and opens it again', () => {
    const box = new SecretBox(parseSecretKeys(`k1:${key(1)}`));
    const sealed = box.seal('whsec_abcdef0123456789');
    expect(sealed).toMatch(/^sealed:v1:k1:/);
    expect(sealed).not.toContain('whsec_abcdef0123456789');
    expect(box.seal('whsec_abcdef0123456789')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('whsec_abcdef0123456789');
    // A value stored before sealing began comes back as it is.
    expect(box.open('whsec_plain')).toBe('whsec_plain');
  });

  it('rotates: a new key first seals, the old one still opens; without the old one a value sealed with it does not open', () => {
    const old = new SecretBox(parseSecretKeys(`k1:${key(1)}`));
    const sealedOld = old.seal('secret-a');
    const rotated = new SecretBox(parseSecretKeys(`k2:${key(2)},k1:${key(1)}`));
    expect(rotated.seal('secret-b')).toMatch(/^sealed:v1:k2:/);
    expect(rotated.open(sealedOld)).toBe('secret-a');
    expect(() => new SecretBox(parseSecretKeys(`k2:${key(2)}`)).open(sealedOld)).toThrow(/k1/);
  });

  it('refuses a sealed value that was changed (the tag does not match)', () => {
    const box = new SecretBox(parseSecretKeys(`k1:${key(1)}`));
    const sealed = box.seal('secret');
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow();
  });

  it.each([
    ['an empty set', ''],
    ['a key of 16 bytes', `k1:${Buffer.alloc(16).toString('base64url')}`],
    ['no kid', `:${key(1)}`],
    ['a kid with a space', `k 1:${key(1)}`],
  ])('refuses %s', (_name, text) => {
    expect(() => parseSecretKeys(text)).toThrow(TypeError);
  });

  it('keeps a key of its own in DATA_DIR/secrets.key, readable by its owner only, and the same one at the next start', () => {
    const first = openSecretBox(undefined, folder);
    const sealed = first.seal('engine-key');
    expect(statSync(join(folder, 'secrets.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(folder, 'secrets.key'), 'utf8')).toMatch(/^local:[\w-]{43}\n$/);
    expect(openSecretBox(undefined, folder).open(sealed)).toBe('engine-key');
    // SECRETS_KEYS, when set, is used instead.
    expect(openSecretBox(parseSecretKeys(`k9:${key(9)}`), folder).seal('x')).toMatch(/^sealed:v1:k9:/);
  });
});
