import { describe, expect, it } from 'vitest';
import { shortcutOf, stepFrom } from './shortcut-keys.ts';

const page = { tagName: 'BODY' } as unknown as EventTarget;
const element = (tagName: string, type?: string) => ({ tagName, type }) as unknown as EventTarget;
const press = (key: string, target: EventTarget | null = page, mods = {}) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target,
  ...mods,
});

describe('the console keyboard shortcuts', () => {
  it('maps the keys to what they do', () => {
    expect(['j', 'k', 'r', 'n', 'a', 'e', '/', '?'].map((key) => shortcutOf(press(key)))).toEqual([
      'next',
      'previous',
      'reply',
      'note',
      'assign',
      'resolve',
      'search',
      'help',
    ]);
    expect(shortcutOf(press('x'))).toBeUndefined();
  });

  it('leaves keys to a field being written in, and to Ctrl or Cmd combinations', () => {
    const box = element('TEXTAREA');
    const field = element('INPUT', 'search');
    const check = element('INPUT', 'checkbox');
    expect(shortcutOf(press('j', box))).toBeUndefined();
    expect(shortcutOf(press('e', field))).toBeUndefined();
    expect(shortcutOf(press('j', check))).toBe('next');
    expect(shortcutOf(press('r', page, { ctrlKey: true }))).toBeUndefined();
    expect(shortcutOf(press('k', page, { metaKey: true }))).toBeUndefined();
  });

  it('steps through the list and stops at its ends', () => {
    expect(stepFrom([4, 5, 6], undefined, 1)).toBe(4);
    expect(stepFrom([4, 5, 6], 5, 1)).toBe(6);
    expect(stepFrom([4, 5, 6], 5, -1)).toBe(4);
    expect(stepFrom([4, 5, 6], 6, 1)).toBeUndefined();
    expect(stepFrom([], undefined, 1)).toBeUndefined();
  });
});
