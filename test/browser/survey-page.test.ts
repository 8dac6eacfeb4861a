import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createInbox, enableClientApi } from '../../bff/index.ts';
import { request } from '../stack.ts';
import { useBrowserStack } from './browser-stack.ts';
import { AXE_PATH, AXE_TAGS, SHORT } from './widget-helpers.ts';

/**
 * The satisfaction survey page `/survey/responses/{conversation_uuid}` in Chromium: server-rendered,
 * themed by the inbox, usable with the keyboard, without axe violations, and working as a plain form
 * post with JavaScript off as well as on.
 */

describe('the survey page at /survey/responses/{conversation_uuid}', () => {
  const harness = useBrowserStack();

  /** A resolved Client API conversation of `inbox` (the demo inbox unless given): it has a survey to answer. */
  async function resolvedConversation(inbox = harness.stack.inboxIdentifier): Promise<{ uuid: string }> {
    const base = `${harness.stack.url}/public/api/v1/inboxes/${inbox}`;
    const contact = await request(`${base}/contacts`, { body: { name: 'Survey taker' } });
    expect(contact.status).toBe(200);
    const conversation = await request(`${base}/contacts/${contact.body.source_id}/conversations`, { body: {} });
    expect(conversation.status).toBe(200);
    const resolved = await request(
      `${base}/contacts/${contact.body.source_id}/conversations/${conversation.body.id}/toggle_status`,
      { method: 'POST' },
    );
    expect(resolved.status).toBe(200);
    return { uuid: conversation.body.uuid as string };
  }
  const surveyUrl = (uuid: string) => `${harness.stack.url}/survey/responses/${uuid}`;
  const storedAnswer = async (uuid: string) => {
    const response = await request(`${harness.stack.url}/public/api/v1/csat_survey/${uuid}`);
    expect(response.status).toBe(200);
    return response.body.csat_survey_response as { rating: number; feedback_message: string } | null;
  };

  const newPage = async (options: { javaScriptEnabled?: boolean; bypassCSP?: boolean } = {}): Promise<Page> =>
    (await harness.freshPage(options)).page;
  const focused = (page: Page) =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLInputElement | null;
      return element
        ? {
            tag: element.tagName.toLowerCase(),
            name: element.getAttribute('name'),
            value: element.getAttribute('value'),
            type: element.getAttribute('type'),
          }
        : null;
    });

  it("renders the inbox's name and a rating form, themed by the inbox, with the HTML escaped", async () => {
    const inbox = await createInbox(harness.stack.bffSql, { name: 'Garden <Tools> & Co', color: '#2e7d32' });
    const { identifier } = await enableClientApi(harness.stack.bffSql, inbox.id);
    const { uuid } = await resolvedConversation(identifier);
    const page = await newPage();
    const response = await page.goto(surveyUrl(uuid));
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    expect(await page.locator('h1').innerText()).toBe('How was your conversation with Garden <Tools> & Co?');
    expect(await page.title()).toContain('Garden <Tools> & Co');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.locator('input[type=radio][name=rating]').count()).toBe(5);
    expect(await page.locator('textarea[name=comment]').count()).toBe(1);
    expect(await page.locator('form').getAttribute('method')).toBe('post');
    // Themed: the inbox colour tops the card and fills the button.
    const colours = await page.evaluate(() => ({
      border: getComputedStyle(document.querySelector('main')!).borderTopColor,
      button: getComputedStyle(document.querySelector('button')!).backgroundColor,
    }));
    expect(colours).toEqual({ border: 'rgb(46, 125, 50)', button: 'rgb(46, 125, 50)' });
    // The demo inbox's page carries the demo inbox's name.
    const demo = await resolvedConversation();
    await page.goto(surveyUrl(demo.uuid));
    expect(await page.locator('h1').innerText()).toBe('How was your conversation with Demo store?');
  });

  it('has no axe-core violations (WCAG 2.x A and AA), before and after an answer', async () => {
    const { uuid } = await resolvedConversation();
    // The page's CSP allows no script; axe is put in by the test, so the CSP is bypassed for it.
    const page = await newPage({ bypassCSP: true });
    const check = async () => {
      await page.addScriptTag({ path: AXE_PATH });
      return page.evaluate(async (tags) => {
        const axe = (
          window as unknown as {
            axe: {
              run(
                context: Document,
                options: unknown,
              ): Promise<{ violations: { id: string; help: string; nodes: { target: unknown }[] }[] }>;
            };
          }
        ).axe;
        const result = await axe.run(document, { runOnly: tags });
        return result.violations.map((violation) => ({
          id: violation.id,
          help: violation.help,
          targets: violation.nodes.map((node) => node.target),
        }));
      }, AXE_TAGS);
    };
    await page.goto(surveyUrl(uuid));
    expect(await check()).toEqual([]);
    await page.locator('input[name=rating][value="4"]').check();
    await Promise.all([page.waitForURL(surveyUrl(uuid), SHORT), page.locator('button[type=submit]').click()]);
    await page.locator('h1', { hasText: 'Thank you!' }).waitFor(SHORT);
    expect(await check()).toEqual([]);
  });

  for (const javaScriptEnabled of [false, true]) {
    it(`is answered with the keyboard alone by a plain form post with JavaScript ${javaScriptEnabled ? 'on' : 'off'}, shows the thanks and stores the rating`, async () => {
      const { uuid } = await resolvedConversation();
      expect(await storedAnswer(uuid)).toBeNull();
      const page = await newPage({ javaScriptEnabled });
      await page.goto(surveyUrl(uuid));

      // Tab reaches the ratings first; arrow keys choose among them; Tab goes on to the comment, then the button.
      await page.keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ tag: 'input', name: 'rating', type: 'radio' });
      await page.keyboard.press('Space');
      for (let step = 1; step < 4; step++) await page.keyboard.press('ArrowRight');
      expect(await focused(page)).toMatchObject({ name: 'rating', value: '4' });
      expect(await page.locator('input[name=rating][value="4"]').isChecked()).toBe(true);
      await page.keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ tag: 'textarea', name: 'comment' });
      await page.keyboard.type('Friendly and quick');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ tag: 'button', type: 'submit' });

      const [answer] = await Promise.all([
        page.waitForResponse(
          (response) => response.url() === surveyUrl(uuid) && response.request().method() === 'POST',
          SHORT,
        ),
        page.keyboard.press('Enter'),
      ]);
      expect(answer.status()).toBe(200);
      expect(answer.request().headers()['content-type']).toBe('application/x-www-form-urlencoded');
      await page.locator('h1', { hasText: 'Thank you!' }).waitFor(SHORT);
      expect(await page.locator('main').innerText()).toContain('Your rating of 4 out of 5 has been saved.');
      expect(await storedAnswer(uuid)).toMatchObject({ rating: 4, feedback_message: 'Friendly and quick' });
    });
  }

  it('shows the answer given so far when the page is opened again, and takes a changed rating', async () => {
    const { uuid } = await resolvedConversation();
    const page = await newPage({ javaScriptEnabled: false });
    await page.goto(surveyUrl(uuid));
    await page.locator('input[name=rating][value="2"]').check();
    await page.locator('textarea[name=comment]').fill('Too slow');
    await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST', SHORT),
      page.locator('button[type=submit]').click(),
    ]);
    expect(await storedAnswer(uuid)).toMatchObject({ rating: 2, feedback_message: 'Too slow' });

    await page.goto(surveyUrl(uuid));
    expect(await page.locator('input[name=rating][value="2"]').isChecked()).toBe(true);
    expect(await page.locator('textarea[name=comment]').inputValue()).toBe('Too slow');
    await page.locator('input[name=rating][value="3"]').check();
    await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST', SHORT),
      page.locator('button[type=submit]').click(),
    ]);
    expect(await storedAnswer(uuid)).toMatchObject({ rating: 3, feedback_message: 'Too slow' });
  });

  it('re-renders the form with an alert and stores nothing when the rating is not 1 to 5', async () => {
    const { uuid } = await resolvedConversation();
    const page = await newPage();
    await page.goto(surveyUrl(uuid));
    // A browser keeps to the offered values; a tampered form sends another.
    await page.evaluate(() => {
      const option = document.querySelector<HTMLInputElement>('input[name=rating][value="5"]')!;
      option.value = '9';
      option.checked = true;
    });
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST', SHORT),
      page.locator('button[type=submit]').click(),
    ]);
    expect(answer.status()).toBe(422);
    const alert = page.getByRole('alert');
    await alert.waitFor(SHORT);
    expect(await alert.innerText()).toContain('Please choose a rating from 1 to 5.');
    expect(await page.locator('form input[name=rating]').count()).toBe(5);
    expect(await storedAnswer(uuid)).toBeNull();

    // Without a rating at all, a plain post (no JavaScript, no browser validation in the way) is refused the same way.
    const posted = await fetch(surveyUrl(uuid), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'comment=no+rating',
    });
    expect(posted.status).toBe(422);
    expect(await posted.text()).toContain('role="alert"');
    expect(await storedAnswer(uuid)).toBeNull();
  });

  it('gives a 404 page for an unknown uuid, a malformed one, and a conversation not asked for a rating', async () => {
    const base = `${harness.stack.url}/public/api/v1/inboxes/${harness.stack.inboxIdentifier}`;
    const contact = await request(`${base}/contacts`, { body: {} });
    const open = await request(`${base}/contacts/${contact.body.source_id}/conversations`, { body: {} });
    expect(open.status).toBe(200);
    const page = await newPage({ javaScriptEnabled: false });
    for (const uuid of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', open.body.uuid as string]) {
      const response = await page.goto(surveyUrl(uuid));
      expect(response?.status(), uuid).toBe(404);
      expect(response?.headers()['content-type']).toMatch(/^text\/html/);
      expect(await page.locator('h1').innerText()).toBe('Survey not found');
      expect(await page.locator('form').count()).toBe(0);
    }
  });

  it('answers a form post to a survey that does not exist with the 404 page, storing nothing', async () => {
    const base = `${harness.stack.url}/public/api/v1/inboxes/${harness.stack.inboxIdentifier}`;
    const contact = await request(`${base}/contacts`, { body: {} });
    const open = await request(`${base}/contacts/${contact.body.source_id}/conversations`, { body: {} });
    expect(open.status).toBe(200);
    for (const uuid of ['00000000-0000-4000-8000-000000000000', open.body.uuid as string]) {
      const posted = await fetch(surveyUrl(uuid), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'rating=5',
      });
      expect(posted.status, uuid).toBe(404);
      expect(posted.headers.get('content-type'), uuid).toMatch(/^text\/html/);
      expect(await posted.text(), uuid).toContain('Survey not found');
    }
    const [row] = await harness.stack.bffSql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM surveys s JOIN conversations c ON c.id = s.conversation_id WHERE c.uuid = $1',
      [open.body.uuid],
    );
    expect(row!.n).toBe(0);
  });
});
