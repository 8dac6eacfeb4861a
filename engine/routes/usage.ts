import { UsageResponse } from '../../shared/index.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import { monthUsage } from '../store/usage.ts';

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The UTC month that holds `at`: its `YYYY-MM`, its name, its first instant and the next month's. */
export function monthOf(at: Date): { month: string; name: string; from: Date; to: Date } {
  const year = at.getUTCFullYear();
  const index = at.getUTCMonth();
  return {
    month: `${year}-${String(index + 1).padStart(2, '0')}`,
    name: `${MONTH_NAMES[index]} ${year}`,
    from: new Date(Date.UTC(year, index, 1)),
    to: new Date(Date.UTC(year, index + 1, 1)),
  };
}

/** `GET /v1/usage`: this month's use by the key's account and environment, and its limits. */
export function addUsageRoutes(routes: ApiRoutes<EngineState>, { sql, now }: { sql: Sql; now: () => Date }): void {
  routes.add(
    {
      method: 'get',
      path: '/v1/usage',
      tag: 'Account',
      security: 'apiKey',
      summary: "This month's usage",
      description:
        'This month (UTC) for the key’s account and environment: conversations opened, messages (the customer’s, the AI’s replies, people’s answers), the LLM’s tokens, uploads; and the limits (requests a minute, shared by the account’s keys of this environment).',
      responses: { 200: { description: 'The month’s usage.', schema: UsageResponse } },
    },
    async (ctx) => {
      const { caller } = ctx.state;
      const month = monthOf(now());
      const usage: UsageResponse = {
        month: month.month,
        month_name: month.name,
        period: { from: month.from.toISOString(), to: month.to.toISOString() },
        ...(await monthUsage(sql, caller, month.month, month.from, month.to)),
        limits: { requests_per_minute: caller.requestsPerMinute },
      };
      ctx.body = usage;
    },
  );
}
