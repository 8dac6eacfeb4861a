import { DESK_NAMESPACE, WIDGET_NAMESPACE } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { CLIENT_NAMESPACE } from '../client-api/realtime.ts';
import { countPending, pendingDeliveries } from '../store/backlog.ts';
import type { Metrics } from './metrics.ts';
import type { BffSockets } from './sockets.ts';

/** The gauges read when metrics are scraped: the relay's queue, the webhook backlog and this node's sockets. */
export function addBffGauges(metrics: Metrics, sql: Sql, sockets: Pick<BffSockets, 'connected'>): void {
  metrics.gauge(async () => [
    {
      name: 'parley_relay_queue_depth',
      help: 'Customer messages stored and waiting to reach the engine.',
      values: [{ value: await countPending(sql) }],
    },
    {
      name: 'parley_webhook_backlog',
      help: 'Helpdesk webhook deliveries not yet delivered.',
      values: [{ value: await pendingDeliveries(sql) }],
    },
    {
      name: 'parley_sockets',
      help: 'Socket.IO connections to this node, by namespace.',
      values: [WIDGET_NAMESPACE, CLIENT_NAMESPACE, DESK_NAMESPACE].map((namespace) => ({
        labels: { namespace },
        value: sockets.connected(namespace),
      })),
    },
  ]);
}
