import { describe, expect, it } from 'vitest';
import { browserName, cityOfTimeZone, visitorTimeZone } from './visitor-traits.ts';

// User-Agent headers as these browsers send them (desktop and phone).
const AGENTS: [string, string][] = [
  [
    'Chrome',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  ],
  [
    'Chrome',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  ],
  ['Firefox', 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0'],
  [
    'Safari',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  ],
  [
    'Edge',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.61',
  ],
  [
    'Opera',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0',
  ],
  [
    'Samsung Internet',
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  ],
  ['a browser', 'curl/8.5.0'],
  ['a browser', ''],
];

describe('what a visitor’s browser tells', () => {
  it.each(AGENTS)('names %s from its User-Agent', (name, agent) => {
    expect(browserName(agent)).toBe(name);
  });

  it('says "a browser" without a User-Agent', () => {
    expect(browserName(undefined)).toBe('a browser');
  });

  it('keeps an IANA time zone of a place and ignores anything else', () => {
    expect(visitorTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(visitorTimeZone('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
    for (const ignored of [
      'UTC',
      'Etc/GMT+2',
      'Europe',
      '<b>Berlin</b>',
      'Europe/Berlin/x/y',
      `Europe/${'B'.repeat(64)}`,
      42,
    ])
      expect(visitorTimeZone(ignored)).toBeUndefined();
  });

  it('names the place a time zone is named after', () => {
    expect(cityOfTimeZone('Europe/Berlin')).toBe('Berlin');
    expect(cityOfTimeZone('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
  });
});
