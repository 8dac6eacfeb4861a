import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { siteStorage } from './storage.ts';

/** localStorage as the browser has it: its keys are the object's own, its methods on the prototype. Node has none. */
class MemoryLocalStorage {
  getItem(key: string): string | null {
    return Object.hasOwn(this, key) ? (this as unknown as Record<string, string>)[key]! : null;
  }
  setItem(key: string, value: string): void {
    (this as unknown as Record<string, string>)[key] = value;
  }
  removeItem(key: string): void {
    delete (this as unknown as Record<string, string>)[key];
  }
}

describe('what the widget stores on the device, and consent (issue 35)', () => {
  let device: MemoryLocalStorage;
  beforeEach(() => {
    device = new MemoryLocalStorage();
    vi.stubGlobal('localStorage', device);
  });
  afterEach(() => void vi.unstubAllGlobals());

  it('stores under the site key while consent is not withheld', () => {
    const storage = siteStorage('pk_a');
    storage.setJson('session', { token: 't' });
    expect(Object.keys(device)).toEqual(['parley:pk_a:session']);
    expect(storage.getJson('session', undefined)).toEqual({ token: 't' });
  });

  it('writes nothing to the device while consent is withheld, and reads back what it holds', () => {
    const storage = siteStorage('pk_a');
    storage.consent(false);
    storage.set('conversation', 'c1');
    storage.setJson('outbox', [1]);
    storage.remove('outbox');
    expect(Object.keys(device)).toEqual([]);
    expect(storage.get('conversation')).toBe('c1');
    expect(storage.getJson('outbox', [])).toEqual([]);
  });

  it('moves what it held to the device once consent is given', () => {
    const storage = siteStorage('pk_a');
    storage.consent(false);
    storage.set('conversation', 'c1');
    storage.consent(true);
    expect({ ...device }).toEqual({ 'parley:pk_a:conversation': 'c1' });
    storage.set('sound', 'on');
    expect(device.getItem('parley:pk_a:sound')).toBe('on');
  });

  it("moves what the device has into memory when consent is withdrawn, leaving other sites' keys alone", () => {
    device.setItem('parley:pk_b:session', 'other site');
    const storage = siteStorage('pk_a');
    storage.set('conversation', 'c1');
    storage.consent(false);
    expect({ ...device }).toEqual({ 'parley:pk_b:session': 'other site' });
    expect(storage.get('conversation')).toBe('c1');
  });

  it('changes nothing when told what it already knows', () => {
    const storage = siteStorage('pk_a');
    storage.set('conversation', 'c1');
    const removed = vi.spyOn(device, 'removeItem');
    storage.consent(true);
    expect(removed).not.toHaveBeenCalled();
    storage.consent(false);
    storage.consent(false);
    expect(storage.get('conversation')).toBe('c1');
  });

  it('forgets what it holds and what the device has on clear', () => {
    const storage = siteStorage('pk_a');
    storage.set('session', 's');
    storage.consent(false);
    storage.set('conversation', 'c1');
    storage.clear();
    expect([storage.get('session'), storage.get('conversation'), Object.keys(device)]).toEqual([
      undefined,
      undefined,
      [],
    ]);
  });

  it('goes on without storage where the browser refuses it', () => {
    vi.stubGlobal('localStorage', undefined);
    const storage = siteStorage('pk_a');
    storage.set('session', 's');
    expect(storage.get('session')).toBeUndefined();
    storage.consent(false);
    storage.set('session', 's');
    expect(storage.get('session')).toBe('s');
  });
});
