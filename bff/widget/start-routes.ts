import type { Context } from 'koa';
import { ParleyError, WidgetStart, WidgetStartRequest, type MessagesPage } from '../../shared/index.ts';
import type { ApiRoutes } from '../../shared/server/index.ts';
import type { DeskWebhooks } from '../helpdesk/desk-webhooks.ts';
import type { ConversationService } from './conversation-service.ts';
import type { Session } from './sessions.ts';
import type { WidgetState } from './session-auth.ts';

/**
 * `POST /v1/widget/start`: what the widget shows when it opens (the config, the customer's
 * conversations and the first page of the one this device shows) in one request, where it took
 * three, each after a CORS preflight (issue 34). It takes a form, so a browser sends it without a
 * preflight; the session token comes in the form (`sessionAuth` reads it), never in the URL. Like
 * the config, it tells the desk that the customer opened the chat.
 */
export function addWidgetStartRoute(
  routes: ApiRoutes<WidgetState>,
  conversations: ConversationService,
  opened: Pick<DeskWebhooks, 'widgetOpened'>,
): void {
  routes.add(
    {
      method: 'post',
      path: '/v1/widget/start',
      tag: 'Widget',
      security: 'sessionToken',
      summary: 'What the widget shows when it opens: the config, the conversations and one history',
      description:
        'Takes a form (application/x-www-form-urlencoded), so that a browser sends it without a CORS preflight: ' +
        'the session token then comes as the token field. The answer is what GET /v1/widget/config, ' +
        'GET /v1/widget/conversations and GET /v1/widget/conversations/{id}/messages give.',
      body: WidgetStartRequest,
      form: true,
      responses: {
        200: { description: 'The config, the conversations and the history asked for.', schema: WidgetStart },
      },
    },
    async (ctx, { body }) => {
      const { session } = ctx.state;
      const [config, list, history] = await Promise.all([
        conversations.config(session, body.locale),
        conversations.list(session),
        body.conversation_id ? firstPage(conversations, session, body.conversation_id) : null,
        opened.widgetOpened(session, openedFrom(ctx)),
      ]);
      ctx.body = { config, conversations: list, history };
    },
  );
}

/** Where and in which language the customer opened the chat, for the desk's `widget_opened`. */
export const openedFrom = (ctx: Pick<Context, 'get'>) => ({
  referer: ctx.get('referer') || ctx.get('origin') || null,
  language: ctx.get('accept-language').split(',')[0] || null,
});

/** The first page of a conversation's history; null when it is not the customer's (the list shows what is). */
async function firstPage(
  conversations: ConversationService,
  session: Session,
  id: string,
): Promise<MessagesPage | null> {
  try {
    return await conversations.messages(session, id);
  } catch (error) {
    if (error instanceof ParleyError && error.code === 'not_found') return null;
    throw error;
  }
}
