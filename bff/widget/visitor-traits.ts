import type { Queryable } from '../../shared/server/index.ts';

/** What a visitor's browser tells of itself: its IANA time zone (when sent and well-formed) and its name. */
export interface VisitorTraits {
  timeZone: string | undefined;
  browser: string;
}

// An IANA zone names an area and a place ("Europe/Berlin", "America/Argentina/Buenos_Aires"); "UTC" and
// "Etc/GMT+2" name no place and are no use to the people's list.
const TIME_ZONE =
  /^(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific)(?:\/[A-Za-z][A-Za-z0-9_+-]*){1,2}$/;

/**
 * The time zone a widget sent, when it reads as an IANA zone of a place (at most 64 characters);
 * anything else is ignored (undefined), never refused: the widget's session matters more.
 *
 * @example visitorTimeZone('Europe/Berlin') // 'Europe/Berlin'; visitorTimeZone('<b>') // undefined
 */
export function visitorTimeZone(sent: unknown): string | undefined {
  return typeof sent === 'string' && sent.length <= 64 && TIME_ZONE.test(sent) ? sent : undefined;
}

// Most specific first: Edge, Opera and Samsung Internet also say "Chrome" and "Safari", Chrome says "Safari".
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|OPiOS|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

/**
 * The browser's name from its User-Agent header: Chrome, Firefox, Safari, Edge, Opera or Samsung
 * Internet, else "a browser".
 *
 * @example browserName('Mozilla/5.0 … Chrome/126.0.0.0 Safari/537.36') // 'Chrome'
 */
export function browserName(userAgent: string | undefined): string {
  const agent = (userAgent ?? '').slice(0, 1000);
  return BROWSERS.find(([pattern]) => pattern.test(agent))?.[1] ?? 'a browser';
}

/**
 * The place a time zone is named after, as people write it.
 *
 * @example cityOfTimeZone('America/Argentina/Buenos_Aires') // 'Buenos Aires'
 */
export const cityOfTimeZone = (timeZone: string): string => timeZone.split('/').at(-1)!.replaceAll('_', ' ');

/** Keeps what a visitor's browser told at the start of their session (the latest wins, a zone not sent keeps the one known). */
export async function keepVisitorTraits(
  db: Queryable,
  customer: { inboxId: string; customerRef: string },
  traits: VisitorTraits,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO visitor_traits AS v (inbox_id, customer_ref, time_zone, browser, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (inbox_id, customer_ref) DO UPDATE
       SET time_zone = COALESCE(EXCLUDED.time_zone, v.time_zone), browser = EXCLUDED.browser, updated_at = EXCLUDED.updated_at`,
    [customer.inboxId, customer.customerRef, traits.timeZone ?? null, traits.browser, now],
  );
}
