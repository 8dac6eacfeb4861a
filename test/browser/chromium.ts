import { chromium, type Browser } from 'playwright-core';

/** A fake microphone and camera (a beep and a test pattern), granted without asking: voice notes and calls. */
export const FAKE_MEDIA = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

/** Debian's Chromium, headless, with the flags this machine needs (no sandbox as root, no calls home), and `extra`. */
export function launchChromium(extra: readonly string[] = []): Promise<Browser> {
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
      ...extra,
    ],
  });
}

export const ARTIFACTS_DIR = 'test-results';
