import { describe, expect, it } from 'vitest';
import { snoozeUntil } from './snooze-times.ts';

const at = (text: string) => new Date(text).getTime();
const local = (seconds: number | null) => new Date(seconds! * 1000);

describe('snoozeUntil', () => {
  it('ends an hour later', () => {
    expect(snoozeUntil('hour', at('2026-11-27T10:15:30'))).toBe(Math.floor(at('2026-11-27T11:15:30') / 1000));
  });

  it('ends tomorrow at 9:00 on the person’s clock', () => {
    expect(local(snoozeUntil('tomorrow', at('2026-11-27T22:40:00')))).toEqual(new Date('2026-11-28T09:00:00'));
  });

  it('ends next Monday at 9:00, a week on when it is Monday already', () => {
    // 27 Nov 2026 is a Friday; 30 Nov a Monday.
    expect(local(snoozeUntil('next_week', at('2026-11-27T12:00:00')))).toEqual(new Date('2026-11-30T09:00:00'));
    expect(local(snoozeUntil('next_week', at('2026-11-30T08:00:00')))).toEqual(new Date('2026-12-07T09:00:00'));
  });

  it('has no time when it lasts until the customer replies', () => {
    expect(snoozeUntil('next_reply', at('2026-11-27T12:00:00'))).toBeNull();
  });
});
