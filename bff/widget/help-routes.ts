import { HelpArticle, HelpArticleList, HelpArticleParams, HelpArticlesQuery } from '../../shared/index.ts';
import type { ApiRoutes } from '../../shared/server/index.ts';
import type { HelpArticles } from './help-articles.ts';
import type { WidgetState } from './session-auth.ts';

const tag = 'Widget';
const security = 'sessionToken';

/**
 * `/v1/widget/help/articles`: the widget's search of the knowledge base's titles before the first
 * message (issue 16). Approved articles only, in the widget's language, of the engine account the
 * customer's environment uses; the session token and the widget's rate limit apply as on every
 * `/v1/widget` route.
 */
export function addWidgetHelpRoutes(routes: ApiRoutes<WidgetState>, help: HelpArticles): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/widget/help/articles',
        tag,
        security,
        summary: 'Search the titles of the approved help articles',
        description:
          "At most 10 approved articles whose titles hold every word of q (case and accents ignored), in the knowledge base's order. " +
          'Only the articles in the language of locale (de-AT reads de), or the English ones when none is approved in it. ' +
          'Without q: its first articles, which the widget offers when the inbox sets no suggested questions. Titles are read from the engine at most once a minute.',
        query: HelpArticlesQuery,
        responses: { 200: { description: 'The matching articles.', schema: HelpArticleList } },
        errors: ['upstream_unavailable'],
      },
      async (ctx, { query }) => {
        ctx.body = { articles: await help.search(ctx.state.session, query) };
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/widget/help/articles/:id',
        tag,
        security,
        summary: 'One approved help article',
        description: 'Its markdown body; an unapproved or unknown article is a 404.',
        params: HelpArticleParams,
        responses: { 200: { description: 'The article.', schema: HelpArticle } },
        errors: ['not_found', 'upstream_unavailable'],
      },
      async (ctx, { params }) => {
        ctx.body = await help.article(ctx.state.session, params.id);
      },
    );
}
