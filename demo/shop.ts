import { randomBytes } from 'node:crypto';
import type { Sql } from '../shared/server/index.ts';
import { endSession, hashPassword, issueSession } from '../bff/helpdesk/store/credentials.ts';

/** What the shop's inbox shows (issue 16): its name, welcome, reply time, questions, email, greeting in Arabic. */
export const DEMO_SHOP = {
  name: 'Northwind Goods',
  welcome_title: 'Hello from Northwind Goods',
  welcome_tagline: 'Questions about an order, delivery or a return? Ask here, any time.',
  reply_time: 'in_a_few_minutes',
  suggested_questions: ['Where is my order?', 'How do I return an item?', 'Do you ship abroad?'],
  email: 'help@northwind.example',
  greeting_translations: { ar: 'مرحبًا! اسألني عن الطلبات والتوصيل والإرجاع والدفع.' },
};

/**
 * Dresses the demo inbox as the shop the README's screenshots show (`npm run screenshots` does the
 * same), as an administrator would: through the Application API, as the demo agent (an
 * administrator) with a session of one minute that ends at once after.
 */
export async function dressDemoShop(
  bffSql: Sql,
  baseUrl: string,
  demo: { accountId: number; agentId: number; inboxIdentifier: string },
): Promise<void> {
  const session = await issueSession(bffSql, demo.agentId, new Date(), 60_000);
  try {
    const headers = { api_access_token: session.token, 'content-type': 'application/json' };
    const inboxes = `${baseUrl}/api/v1/accounts/${demo.accountId}/inboxes`;
    const listed = await fetch(inboxes, { headers });
    if (!listed.ok) throw new Error(`the demo inboxes could not be read: ${listed.status}`);
    const { payload } = (await listed.json()) as { payload: { id: number; inbox_identifier: string | null }[] };
    const inbox = payload.find((one) => one.inbox_identifier === demo.inboxIdentifier);
    if (!inbox) throw new Error('the demo inbox is not in the demo account');
    const changed = await fetch(`${inboxes}/${inbox.id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify(DEMO_SHOP),
    });
    if (!changed.ok) throw new Error(`the demo shop could not be set: ${changed.status} ${await changed.text()}`);
  } finally {
    await endSession(bffSql, session.token);
  }
}

/**
 * Gives the demo agent a password for the console's sign-in form: DEMO_AGENT_PASSWORD when set,
 * else a new one at this start (printed beside the one-time link). Gives the password.
 */
export async function setDemoAgentPassword(bffSql: Sql, agentId: number, chosen: string | undefined): Promise<string> {
  const password = chosen ?? randomBytes(12).toString('base64url');
  await bffSql.query('UPDATE users SET password_hash = $2 WHERE id = $1', [agentId, await hashPassword(password)]);
  return password;
}
