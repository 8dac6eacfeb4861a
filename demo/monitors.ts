import type { CreateMonitorInput } from '../shared/schemas/monitors.ts';

/**
 * The demo's monitors (issue 29): the team sees their findings on a conversation and in the
 * console's Findings list. A customer who mentions a lawyer or a chargeback is worth a look at once;
 * an AI that says "guarantee" may have promised more than the shop can keep.
 */
export const DEMO_MONITORS: readonly CreateMonitorInput[] = [
  {
    name: 'Customer mentions a lawyer or a chargeback',
    criteria: { keywords: ['lawyer', 'chargeback', 'attorney'] },
    scope: 'customer_messages',
    severity: 'high',
  },
  {
    name: 'The AI says "guarantee"',
    criteria: { keywords: ['guarantee'] },
    scope: 'ai_messages',
    severity: 'medium',
  },
];
