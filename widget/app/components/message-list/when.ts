/**
 * When a message was written, in the widget's language and the browser's time zone: a time for
 * each group, and a separator between days that says "Today", "Yesterday" or the date. The words
 * come from Intl (RelativeTimeFormat says "today" in every language), so no catalogue carries them.
 */

/** The calendar day where the customer is, as a number that goes up by one a day. */
const dayNumber = (date: Date) => Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / 864e5;

/** The message's time of day, e.g. "14:05" in German or "2:05 PM" in English. */
export const timeOfDay = (locale: string, date: Date): string =>
  date.toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit' });

/** True when `a` and `b` fall on the same calendar day where the customer is. */
export const sameDay = (a: Date, b: Date): boolean => dayNumber(a) === dayNumber(b);

/**
 * The day separator's words: "Today", "Yesterday", else the date ("Friday, November 20" this year,
 * with the year before that).
 */
export function dayLabel(locale: string, date: Date, now = new Date()): string {
  const daysAgo = dayNumber(now) - dayNumber(date);
  if (daysAgo < 2) {
    const words = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-daysAgo, 'day');
    return words[0]!.toLocaleUpperCase(locale) + words.slice(1);
  }
  return date.toLocaleDateString(locale, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: date.getFullYear() === now.getFullYear() ? undefined : 'numeric',
  });
}
