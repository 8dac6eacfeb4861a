import { describe, expect, it } from 'vitest';
import { callLine } from './call-line.ts';

describe('the transcript line of an ended call', () => {
  it('says minutes and seconds', () => expect(callLine(192)).toBe('Call, 3 min 12 s'));
  it('says seconds alone under a minute', () => expect(callLine(42)).toBe('Call, 42 s'));
  it('leaves out no seconds', () => expect(callLine(120)).toBe('Call, 2 min'));
  it('says a call that never really ran as 0 s', () => expect(callLine(0)).toBe('Call, 0 s'));
});
