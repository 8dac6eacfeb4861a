import type { RouterContext } from '@koa/router';
import { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import { readRawBody, type ApiRoutes } from '../../shared/server/index.ts';
import type { ClientService } from '../client-api/client-service.ts';
import { textOn } from '../../shared/contrast.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const params = z.strictObject({ uuid: z.string().max(64) });

/**
 * `/survey/responses/{conversation_uuid}`: the satisfaction survey as a server-rendered page that
 * works without JavaScript (a plain form post), themed by the inbox. An unknown uuid is a 404 page.
 */
export function addSurveyPageRoutes<State extends object>(routes: ApiRoutes<State>, client: ClientService): void {
  routes
    .add(
      {
        method: 'get',
        path: '/survey/responses/:uuid',
        tag: 'Survey',
        summary: 'The survey page',
        params,
        responses: { 200: { description: 'An HTML page.', schema: z.string(), contentType: 'text/html' } },
      },
      async (ctx, { params }) => {
        await renderSurveyPage(ctx, client, params.uuid);
      },
    )
    .add(
      {
        method: 'post',
        path: '/survey/responses/:uuid',
        tag: 'Survey',
        summary: 'The survey page, answered (form post)',
        params,
        responses: { 200: { description: 'An HTML page.', schema: z.string(), contentType: 'text/html' } },
      },
      async (ctx, { params }) => {
        await answerSurveyForm(ctx, client, params.uuid);
      },
    );
}

/** Keeps the rating and comment of the posted form; the page again with the problem when it is refused. */
async function answerSurveyForm(ctx: RouterContext, client: ClientService, uuid: string): Promise<void> {
  const form = new URLSearchParams((await readRawBody(ctx, 16 * 1024)).toString('utf8'));
  const rating = Number(form.get('rating'));
  const comment = (form.get('comment') ?? '').trim().slice(0, 2000);
  if (!Number.isInteger(rating) || rating < 1 || rating > 5) {
    ctx.status = 422;
    return renderSurveyPage(ctx, client, uuid, 'Please choose a rating from 1 to 5.');
  }
  try {
    await client.answerSurvey(uuid, rating, comment);
  } catch (error) {
    if (!(error instanceof ParleyError) || (error.code !== 'unprocessable' && error.code !== 'not_found')) throw error;
    if (error.code === 'unprocessable') ctx.status = 422;
    // renderSurveyPage() answers an unknown survey with the 404 page.
    return renderSurveyPage(ctx, client, uuid, error.message);
  }
  await renderSurveyPage(ctx, client, uuid, undefined, true);
}

/** The survey's page, themed by its inbox: the form (with `problem` above it), the thanks once answered, or the 404 page. */
async function renderSurveyPage(
  ctx: RouterContext,
  client: ClientService,
  uuid: string,
  problem?: string,
  thanked = false,
): Promise<void> {
  ctx.type = 'text/html; charset=utf-8';
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  );
  ctx.set('Referrer-Policy', 'no-referrer');
  let survey;
  try {
    survey = await client.survey(uuid);
  } catch (error) {
    if (!(error instanceof ParleyError) || error.code !== 'not_found') throw error;
    ctx.status = 404;
    ctx.body = page(
      'Survey not found',
      '#1f3a5f',
      '<h1>Survey not found</h1><p>This link is not (or no longer) valid.</p>',
    );
    return;
  }
  const { row, inbox } = survey;
  const color = /^#[0-9a-f]{3,6}$/i.test(inbox.color) ? inbox.color : '#1f3a5f';
  if (thanked) {
    ctx.body = page(
      inbox.name,
      color,
      `<h1>Thank you!</h1><p>Your rating of ${row.rating} out of 5 has been saved.</p>`,
    );
    return;
  }
  ctx.body = page(inbox.name, color, surveyForm(inbox.name, row, problem));
}

/** The form, with the rating and comment given before (when any) filled in. */
function surveyForm(
  inboxName: string,
  row: { rating: number | null; comment: string | null },
  problem: string | undefined,
): string {
  const options = [1, 2, 3, 4, 5]
    .map(
      (value) =>
        `<label class="option"><input type="radio" name="rating" value="${value}"${row.rating === value ? ' checked' : ''} required> <span>${value}</span><span class="visually-hidden"> out of 5</span></label>`,
    )
    .join('');
  return `<h1>How was your conversation with ${escape(inboxName)}?</h1>
      ${problem ? `<p class="problem" role="alert">${escape(problem)}</p>` : ''}
      <form method="post">
        <fieldset><legend>Your rating, from 1 (poor) to 5 (excellent)</legend><div class="options">${options}</div></fieldset>
        <label for="comment">Anything you would like to add? (optional)</label>
        <textarea id="comment" name="comment" rows="4" maxlength="2000">${escape(row.comment ?? '')}</textarea>
        <button type="submit">Send rating</button>
      </form>`;
}

function page(title: string, color: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} — rate your conversation</title>
<style>
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1d2330;background:#f6f5f2}
main{max-width:34rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;border-top:6px solid ${color}}
h1{font-size:1.4rem;margin-top:0}
fieldset{border:0;padding:0;margin:0 0 1rem}
legend{margin-bottom:.5rem}
.options{display:flex;gap:.5rem}
.option{display:flex;align-items:center;gap:.25rem;padding:.5rem .75rem;border:1px solid #8a94a3;border-radius:8px}
textarea{display:block;width:100%;box-sizing:border-box;margin:.25rem 0 1rem;font:inherit;padding:.5rem;border:1px solid #8a94a3;border-radius:8px}
button{font:inherit;font-weight:600;padding:.6rem 1.2rem;border:0;border-radius:8px;background:${color};color:${textOn(color)}}
:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}
.problem{padding:.5rem .75rem;background:#fdecea;color:#8a1c12;border-radius:8px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}
