import type { ActionDefinition } from '../engine/index.ts';
import type { PutActionRequest } from '../shared/schemas/engine-actions.ts';

/** The demo store's actions: the AI may ask the store's server to look up or cancel an order. */
export const DEMO_ACTIONS: ActionDefinition[] = [
  {
    name: 'lookup_order',
    description: 'Look up the status of an order',
    triggers: [
      ['where', 'order'],
      ['order', 'status'],
      ['track', 'order'],
      ['order', 'shipped'],
      ['order', 'arrive'],
      ['look', 'order'],
    ],
    inputs: [
      {
        name: 'order_number',
        description: 'The order number, as on the order confirmation',
        pattern: '(?:#|\\b)(\\d{4,12})\\b',
        required: true,
        ask: 'I can check that for you. What is your order number? You will find it in your order confirmation email.',
      },
    ],
    reply: 'Order {order_number} is {status}. It travels with {carrier} and should arrive {estimated_delivery}.',
    card: {
      title: 'Order {order_number}',
      fields: [
        { label: 'Status', field: 'status' },
        { label: 'Carrier', field: 'carrier' },
        { label: 'Arrives', field: 'estimated_delivery' },
      ],
    },
  },
  {
    name: 'cancel_order',
    description: 'Cancel an order',
    triggers: [['cancel', 'order']],
    inputs: [
      {
        name: 'order_number',
        description: 'The order number, as on the order confirmation',
        pattern: '(?:#|\\b)(\\d{4,12})\\b',
        required: true,
        ask: 'I can cancel it for you. What is the order number?',
      },
      {
        name: 'reason',
        description: 'Why the customer cancels, in their words',
        pattern: '\\b(?:because|since|as|reason(?:\\s+is)?:?)\\s+(.{3,300})',
        required: false,
        ask: 'May I ask why you are cancelling?',
      },
    ],
    reply:
      'Done: order {order_number} is cancelled. Your refund of {refund_amount} will reach your original payment method within {refund_days} business days.',
  },
];

/** Sandbox results, so the demo answers without a store server behind it. */
export const DEMO_FIXTURES: Record<string, Record<string, unknown>> = {
  lookup_order: { status: 'on its way', carrier: 'DHL', estimated_delivery: 'on Thursday' },
  cancel_order: { refund_amount: '49.00 euros', refund_days: 5 },
};

/**
 * The demo store's orders as its own server knows them: what a live customer's action request is
 * answered from (storefront.ts), where a sandbox customer gets the fixtures above.
 */
export const DEMO_ORDERS: Readonly<
  Record<string, { status: string; carrier: string; estimated_delivery: string; total: string; shipped: boolean }>
> = {
  '1001': {
    status: 'on its way',
    carrier: 'DHL',
    estimated_delivery: 'on Thursday',
    total: '49.00 euros',
    shipped: true,
  },
  '1002': {
    status: 'being packed',
    carrier: 'UPS',
    estimated_delivery: 'next Monday',
    total: '129.90 euros',
    shipped: false,
  },
  '1003': { status: 'delivered', carrier: 'DHL', estimated_delivery: 'already', total: '15.50 euros', shipped: true },
};

/** Business days a refund takes to reach the customer's payment method. */
const REFUND_DAYS = 5;

/**
 * The store's answer to a live customer's action request: the result the AI tells from, or a
 * failure (`status: "failed"`) whose error the AI says in plain words. Undefined for an action the
 * store does not run.
 */
export function answerDemoAction(action: string, inputs: Record<string, unknown>): Record<string, unknown> | undefined {
  if (action !== 'lookup_order' && action !== 'cancel_order') return undefined;
  const number = typeof inputs['order_number'] === 'string' ? inputs['order_number'] : '';
  const order = Object.hasOwn(DEMO_ORDERS, number) ? DEMO_ORDERS[number] : undefined;
  if (!order) return { status: 'failed', error: `the store has no order ${number || 'without a number'}` };
  if (action === 'lookup_order')
    return { status: order.status, carrier: order.carrier, estimated_delivery: order.estimated_delivery };
  if (order.shipped)
    return { status: 'failed', error: `order ${number} has left the warehouse and can only be returned` };
  return { refund_amount: order.total, refund_days: REFUND_DAYS };
}

/**
 * The demo's actions as `PUT /v1/actions/{name}` takes them (with a live key), posted to `url(name)`
 * for live customers: the same definitions the seed stores, with inputs as JSON Schema.
 */
export function demoActionRequests(url: (name: string) => string): { name: string; body: PutActionRequest }[] {
  return DEMO_ACTIONS.map((action) => ({
    name: action.name,
    body: {
      description: action.description,
      parameters: {
        type: 'object',
        properties: Object.fromEntries(
          action.inputs.map((input) => [
            input.name,
            { type: 'string', description: input.description, pattern: input.pattern, 'x-ask': input.ask },
          ]),
        ),
        required: action.inputs.filter((input) => input.required).map((input) => input.name),
      },
      triggers: action.triggers,
      ...(action.reply ? { reply: action.reply } : {}),
      ...(action.card ? { card: action.card } : {}),
      url: url(action.name),
      // A new secret at every start: the storefront of this process is the only one that checks it.
      rotate_secret: true,
    },
  }));
}
