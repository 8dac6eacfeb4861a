import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { randomToken } from '../../shared/index.ts';
import { addSiteKey, createInbox } from '../../bff/store/inboxes.ts';
import { writeInterviewOffer } from '../../bff/store/interview-offers.ts';
import { request } from '../stack.ts';
import { useBrowserStack } from './browser-stack.ts';
import { SHORT, anyLauncher, hostPage, log, waitReady } from './widget-helpers.ts';

const INTERVIEW = {
  title: 'Delivery feedback',
  intro: 'Thanks for taking a minute: two short questions.',
  questions: [
    { id: 'satisfaction', text: 'How happy were you with the delivery?', choices: ['Very happy', 'Unhappy'] },
    { id: 'improve', text: 'What could we do better?' },
  ],
  closing: 'Thank you!',
};

/**
 * Issue 29 in Chromium: an inbox offers a research interview on the widget's home screen as one
 * button (the widget's own words when the inbox gives none); clicking it shows the AI's first
 * question with its choices as quick replies, and a choice gets the next question.
 */
describe('an interview offered on the widget home screen', () => {
  const harness = useBrowserStack({ pageServer: true });
  const widget = (page: Page) => page.locator('[data-parley]');

  it('starts the interview from the home screen and answers its first question with a quick reply', async () => {
    const { bffSql, engineUrl, apiKey } = harness.stack;
    const made = await request(`${engineUrl}/v1/interviews`, { token: apiKey, body: INTERVIEW });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const inbox = await createInbox(bffSql, { name: 'Garden shop', greeting: 'Hello! How can we help?' });
    await writeInterviewOffer(bffSql, inbox.id, { interview_id: made.body.id as string });
    const key = await addSiteKey(bffSql, inbox.id, 'sandbox');
    const { page, problems } = await harness.freshPage();
    await page.goto(harness.pages.set(`/${randomToken(8)}`, hostPage(harness.stack, { 'data-site-key': key.key })));
    await anyLauncher(page).click();
    await waitReady(page);

    await widget(page).getByRole('button', { name: 'Take our 1-minute survey' }).click();
    await log(page).getByText(INTERVIEW.questions[0]!.text).waitFor(SHORT);
    const choices = log(page).getByRole('group');
    await choices.getByRole('button', { name: 'Very happy' }).waitFor(SHORT);
    await choices.getByRole('button', { name: 'Very happy' }).click();
    await log(page).getByText(INTERVIEW.questions[1]!.text).waitFor(SHORT);
    expect(problems).toEqual([]);
  });
});
