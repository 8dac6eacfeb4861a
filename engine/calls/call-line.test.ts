import { describe, expect, it } from 'vitest';
import { callLine } from './call-line.ts';

describe('the line a call leaves in the conversation', () => {
  it('says minutes and seconds as the issue shows them', () => {
    expect(callLine(192)).toBe('Call, 3 min 12 s');
  });

  it('says seconds alone for a short call, and hours for a long one', () => {
    expect(callLine(0)).toBe('Call, 0 s');
    expect(callLine(45)).toBe('Call, 45 s');
    expect(callLine(3600 + 5)).toBe('Call, 1 h 0 min 5 s');
  });
});
