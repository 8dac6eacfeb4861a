import type { ActionDefinition } from '../engine/index.ts';

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
