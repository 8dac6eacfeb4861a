import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { writeCallsEnabled } from '../../bff/calls/calls-setting.ts';
import { desk } from '../helpdesk-client.ts';
import { fakeTranscriber } from '../fake-stt.ts';
import { fakeSpeaker } from '../fake-tts.ts';
import { engineConversationOf, request, startStack, type TestStack } from '../stack.ts';
import { until } from '../until.ts';
import { ARTIFACTS_DIR, FAKE_MEDIA, launchChromium } from './chromium.ts';
import { consoleAgent } from './console-agent.ts';
import { freshPage, launcher, log, messageBox, SHORT, waitReady } from './widget-helpers.ts';

/** The customer's words for the fake microphone: 1 s of quiet, 1.5 s of a 440 Hz tone, then quiet (48 kHz, 16-bit mono WAV). */
function spokenQuestion(): Buffer {
  const rate = 48_000;
  const samples = rate * 8;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = rate; i < rate * 2.5; i++)
    wav.writeInt16LE(Math.round(12_000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}

/** Every stretch of audio the page plays through Web Audio, kept for the test (the call keeps its own to itself). */
const KEEP_PLAYED = () => {
  const played: number[] = [];
  (window as unknown as { played: number[] }).played = played;
  const start = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (this: AudioBufferSourceNode, ...args: [number?, number?, number?]) {
    played.push(this.buffer?.duration ?? 0);
    return start.apply(this, args);
  };
};

const secondsPlayed = (page: Page): Promise<number> =>
  page.evaluate(() => (window as unknown as { played: number[] }).played.reduce((sum, seconds) => sum + seconds, 0));

/**
 * A call with the AI from the widget (issue 30), in Chromium whose fake microphone plays a
 * recording: the customer presses Call, speaks, and the stand-in transcription server (no speech
 * model runs here) hears the question; the AI's answer comes back as a message and as speech from
 * the stand-in speech server (real WAV over HTTP), which the widget plays; hanging up ends the call.
 */
describe('calls with the AI in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let stt: Awaited<ReturnType<typeof fakeTranscriber>>;
  let tts: Awaited<ReturnType<typeof fakeSpeaker>>;

  beforeAll(async () => {
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    const microphone = resolve(ARTIFACTS_DIR, 'ai-call-question.wav');
    await writeFile(microphone, spokenQuestion());
    [stt, tts] = await Promise.all([fakeTranscriber(), fakeSpeaker()]);
    [stack, browser] = await Promise.all([
      startStack(undefined, { STT_BASE_URL: stt.baseUrl, TTS_BASE_URL: tts.baseUrl }),
      launchChromium([...FAKE_MEDIA, `--use-file-for-fake-audio-capture=${microphone}%noloop`]),
    ]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await stt?.close();
    await tts?.close();
  });

  it('hears the spoken question, speaks the answer back, keeps the turns as messages, and ends on hang-up', async () => {
    stt.answer(() => ({ body: { text: 'How do I return an item?' } }));
    // The widget offers Call while the inbox takes calls and someone is there.
    const { user } = await consoleAgent(stack, 'Grace Hopper', 'grace@ai-calls.example');
    await desk(`${stack.url}/api/v1/profile`, user.access_token, {
      method: 'PATCH',
      body: { account_id: stack.accountId, availability: 'online' },
    });
    await writeCallsEnabled(stack.bffSql, stack.inboxId, true);

    const customer = await freshPage(browser);
    await customer.page.addInitScript(KEEP_PLAYED);
    await customer.page.goto(stack.url);
    await launcher(customer.page).click();
    await waitReady(customer.page);
    await messageBox(customer.page).fill('Hello, can I call?');
    await messageBox(customer.page).press('Enter');
    await log(customer.page).getByText('Hello, can I call?').waitFor(SHORT);

    await customer.page.getByRole('button', { name: 'Call', exact: true }).click();
    await customer.page.getByText('You are talking with our AI assistant.').waitFor(SHORT);
    await customer.page.getByRole('timer').waitFor(SHORT);

    // The fake microphone's tone is the customer's turn: heard, then answered in the chat and aloud.
    await log(customer.page).getByText('How do I return an item?', { exact: true }).waitFor({ timeout: 30_000 });
    const heard = stt.requests.at(-1)!;
    expect(heard.bytes.toString('latin1', 0, 4)).toBe('RIFF');
    expect(heard.bytes.readUInt32LE(24)).toBe(16_000);
    await until(
      () => tts.requests.filter((piece) => piece.audio.length > 0),
      (pieces) => pieces.length > 0,
      'the answer spoken',
      30_000,
    );
    const spoken = tts.requests.map((piece) => piece.input).join(' ');
    const expected = tts.requests.reduce((sum, piece) => sum + Math.max(1, piece.input.split(/\s+/).length) / 10, 0);
    await expect.poll(() => secondsPlayed(customer.page), { timeout: 20_000 }).toBeCloseTo(expected, 1);
    expect(spoken.length).toBeGreaterThan(0);
    // The answer is in the chat too (its first words, as spoken: without markdown).
    const firstWords = tts.requests[0]!.input.split(' ').slice(0, 4).join(' ');
    await log(customer.page).getByText(firstWords).last().waitFor({ timeout: 20_000 });
    await customer.page.screenshot({ path: `${ARTIFACTS_DIR}/widget-ai-call.png` });

    await customer.page.getByRole('button', { name: 'Hang up' }).click();
    await log(customer.page)
      .getByText(/^Call, \d+ s$/)
      .waitFor(SHORT);
    await customer.page.getByRole('button', { name: 'Call', exact: true }).waitFor(SHORT);
    const [row] = await stack.bffSql.query<{ uuid: string }>(
      "SELECT c.uuid FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE m.text = 'Hello, can I call?'",
    );
    const engineId = await engineConversationOf(stack, row!.uuid);
    const ended = await until(
      async () =>
        (
          (await request(`${stack.engineUrl}/v1/events?limit=1000`, { token: stack.apiKey })).body.events as {
            type: string;
            conversation_id: string;
            data: { ended_by?: string };
          }[]
        ).filter((event) => event.conversation_id === engineId && event.type === 'call.ended'),
      (found) => found.length > 0,
      'call.ended',
    );
    expect(ended[0]!.data.ended_by).toBe('customer');
    expect(customer.problems).toEqual([]);
  }, 150_000);
});
