import { afterEach, describe, expect, it } from 'vitest';
import { dayLabel, sameDay, timeOfDay } from './when.ts';

// The widget counts days and shows times in the browser's time zone; Node takes it from TZ, set per test.
const zone = process.env['TZ'];
const inZone = (timeZone: string) => (process.env['TZ'] = timeZone);
afterEach(() => {
  if (zone === undefined) delete process.env['TZ'];
  else process.env['TZ'] = zone;
});
const at = (iso: string) => new Date(iso);

describe('when a message was written', () => {
  it('shows the time of day in the locale and the time zone of the browser', () => {
    const date = at('2026-11-24T13:05:00Z');
    inZone('UTC');
    expect(timeOfDay('en', date)).toBe('1:05 PM');
    inZone('Europe/Berlin');
    expect(timeOfDay('de', date)).toBe('14:05');
    inZone('Asia/Tokyo');
    expect(timeOfDay('ja', date)).toBe('22:05');
  });

  it('says Today and Yesterday in the widget language, capitalised', () => {
    inZone('UTC');
    const now = at('2026-11-24T10:00:00Z');
    expect(dayLabel('en', at('2026-11-24T01:00:00Z'), now)).toBe('Today');
    expect(dayLabel('en', at('2026-11-23T23:59:00Z'), now)).toBe('Yesterday');
    expect(dayLabel('de', at('2026-11-23T12:00:00Z'), now)).toBe('Gestern');
    expect(dayLabel('fr', at('2026-11-24T12:00:00Z'), now)).toBe('Aujourd’hui');
    expect(dayLabel('es', at('2026-11-24T12:00:00Z'), now)).toBe('Hoy');
    expect(dayLabel('ja', at('2026-11-23T12:00:00Z'), now)).toBe('昨日');
    expect(dayLabel('ar', at('2026-11-24T12:00:00Z'), now)).toBe('اليوم');
  });

  it('gives an older day its date, with the year only when it is another year', () => {
    inZone('UTC');
    const now = at('2026-11-24T10:00:00Z');
    expect(dayLabel('en', at('2026-11-20T10:00:00Z'), now)).toBe('Friday, November 20');
    expect(dayLabel('en', at('2025-12-31T10:00:00Z'), now)).toBe('Wednesday, December 31, 2025');
    expect(dayLabel('de', at('2026-11-20T10:00:00Z'), now)).toBe('Freitag, 20. November');
  });

  it('counts days where the customer is, not in UTC', () => {
    // 23:30 UTC on the 23rd is already the 24th in Tokyo, the same day as 10:00 UTC on the 24th.
    const late = at('2026-11-23T23:30:00Z');
    const now = at('2026-11-24T10:00:00Z');
    inZone('UTC');
    expect(sameDay(late, now)).toBe(false);
    inZone('Asia/Tokyo');
    expect(sameDay(late, now)).toBe(true);
    expect(dayLabel('en', late, now)).toBe('Today');
    inZone('America/New_York');
    expect(dayLabel('en', late, now)).toBe('Yesterday');
  });

  it('keeps whole days across a change to summer time', () => {
    inZone('Europe/Berlin');
    // Berlin moved its clocks on 29 March 2026: the 28th is still yesterday seen from the 29th.
    expect(dayLabel('en', at('2026-03-28T12:00:00Z'), at('2026-03-29T12:00:00Z'))).toBe('Yesterday');
  });
});
