import { describe, expect, it } from 'vitest';
import { cannedKey, typedShortCode } from './canned-choice.ts';

describe('choosing a canned response from the keyboard', () => {
  it('reads the short code only when the draft is just a slash and a code', () => {
    expect(typedShortCode('/hal')).toBe('hal');
    expect(typedShortCode('/')).toBe('');
    expect(typedShortCode('hello /hal')).toBeUndefined();
    expect(typedShortCode('/hal there')).toBeUndefined();
  });

  it('moves the choice round with Up and Down', () => {
    expect(cannedKey('ArrowDown', 0, 3, false)).toEqual({ kind: 'move', to: 1 });
    expect(cannedKey('ArrowDown', 2, 3, false)).toEqual({ kind: 'move', to: 0 });
    expect(cannedKey('ArrowUp', 0, 3, false)).toEqual({ kind: 'move', to: 2 });
  });

  it('takes the choice with Enter or Tab and closes the list with Escape', () => {
    expect(cannedKey('Enter', 1, 3, false)).toEqual({ kind: 'take' });
    expect(cannedKey('Tab', 1, 3, false)).toEqual({ kind: 'take' });
    expect(cannedKey('Escape', 1, 3, false)).toEqual({ kind: 'close' });
  });

  it('leaves keys alone when nothing is offered, and Shift+Enter still breaks the line', () => {
    expect(cannedKey('Enter', 0, 0, false)).toEqual({ kind: 'none' });
    expect(cannedKey('Enter', 0, 2, true)).toEqual({ kind: 'none' });
    expect(cannedKey('a', 0, 2, false)).toEqual({ kind: 'none' });
  });
});
