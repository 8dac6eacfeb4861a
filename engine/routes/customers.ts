import {
  CustomerParams,
  CustomerView,
  ForgetCustomerResponse,
  MergeCustomerRequest,
  ParleyError,
} from '../../shared/index.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import { forgetCustomer } from '../customer-erasure.ts';
import { findCustomer, mergeCustomers } from '../store/customers.ts';

const tag = 'Customers';
const security = 'apiKey';

/**
 * `/v1/customers/{customer_ref}`: what the engine remembers of a customer of the key's account and
 * environment, merging another reference into it, and forgetting it (SPEC "Customers").
 */
export function addCustomerRoutes(routes: ApiRoutes<EngineState>, { sql, now }: { sql: Sql; now: () => Date }): void {
  const customerOf = async (caller: EngineState['caller'], customerRef: string): Promise<CustomerView> => {
    const customer = await findCustomer(sql, caller, customerRef);
    if (!customer) throw new ParleyError('not_found', `No customer ${customerRef} for this key.`);
    return customer;
  };

  routes
    .add(
      {
        method: 'get',
        path: '/v1/customers/:customer_ref',
        tag,
        security,
        summary: 'What the engine remembers of a customer',
        description:
          "Their conversations (the newest 100) with what the AI remembers in each, when they were first and last seen, their language and the inputs they gave for actions. Only customers of the key's environment; a forgotten customer is not found.",
        params: CustomerParams,
        responses: { 200: { description: 'The customer.', schema: CustomerView } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        ctx.body = await customerOf(ctx.state.caller, params.customer_ref);
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/customers/:customer_ref/merge',
        tag,
        security,
        summary: 'Merge another reference into this customer',
        description:
          "The conversations of from, with what the AI remembers in them, become this customer's (for example a visitor's, once they signed in); from names no one afterwards. Both must be of the key's environment: from of another environment or account is not found. Events already sent keep the reference they were sent with.",
        params: CustomerParams,
        body: MergeCustomerRequest,
        responses: { 200: { description: 'The customer after the merge.', schema: CustomerView } },
        errors: ['not_found'],
      },
      async (ctx, { params, body }) => {
        await mergeCustomers(sql, ctx.state.caller, params.customer_ref, body.from, now());
        ctx.body = await customerOf(ctx.state.caller, params.customer_ref);
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/customers/:customer_ref/forget',
        tag,
        security,
        summary: 'Forget a customer',
        description:
          "Erases what the engine holds of the customer in the key's environment: every turn's text, what the AI remembered, action inputs and results, media, survey comments; their events keep only numbers, and their conversations stay only as counts for reports, closed, under a one-way hash. Then a customer.forgotten event ({customer_ref, conversation_ids}) tells every receiver (webhooks, the feed) to erase what it holds; that event names the customer for 7 days, then only its count remains. A reference the engine does not know is forgotten all the same (202, nothing to erase here, the event still sent), so a retry is always safe. The answer holds counts only.",
        params: CustomerParams,
        responses: {
          202: {
            description: 'Forgotten here; receivers erase on the customer.forgotten event.',
            schema: ForgetCustomerResponse,
          },
        },
      },
      async (ctx, { params }) => {
        ctx.status = 202;
        ctx.body = await forgetCustomer(sql, ctx.state.caller, params.customer_ref, now());
      },
    );
}
