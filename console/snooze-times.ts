/** The snooze choices the console offers; `next_reply` is until the customer writes again. */
export const SNOOZE_CHOICES = [
  ['hour', 'For 1 hour'],
  ['tomorrow', 'Until tomorrow 9:00'],
  ['next_week', 'Until next Monday 9:00'],
  ['next_reply', 'Until the customer replies'],
] as const;

export type SnoozeChoice = (typeof SNOOZE_CHOICES)[number][0];

/**
 * When a snooze chosen at `nowMs` ends, in Unix seconds on the person's own clock; null for "until
 * the customer replies" (the API's snooze without a time).
 */
export function snoozeUntil(choice: SnoozeChoice, nowMs: number): number | null {
  if (choice === 'next_reply') return null;
  if (choice === 'hour') return Math.floor(nowMs / 1000) + 3600;
  const day = new Date(nowMs);
  day.setHours(9, 0, 0, 0);
  // Tomorrow is one day on; next Monday is 1–7 days on (a Monday goes to the Monday after).
  const days = choice === 'tomorrow' ? 1 : (8 - day.getDay()) % 7 || 7;
  day.setDate(day.getDate() + days);
  return Math.floor(day.getTime() / 1000);
}
