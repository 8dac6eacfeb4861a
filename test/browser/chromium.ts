import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, headless, with the flags this machine needs (no sandbox as root, no calls home). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export const ARTIFACTS_DIR = 'test-results';
