import { siteStorage } from '../app/storage.ts';

/**
 * The link of an e-mail digest (`/chat?site_key=…#continue=<token>`, issue 32): the page trades
 * the token, once, for a session of the conversation's customer (`POST /v1/email-continuations`)
 * and stores it, with the conversation, where the chat looks for them, so the chat opens that
 * conversation. The token rides in the fragment, which no server sees, and leaves the address bar
 * at once; a used or expired one changes nothing (the chat opens as this device knows it).
 */
export async function continueFromLink(baseUrl: string, siteKey: string | undefined): Promise<void> {
  const token = /^#continue=([0-9a-f]{40})$/.exec(location.hash)?.[1];
  if (!token || !siteKey) return;
  history.replaceState(history.state, '', location.pathname + location.search);
  const response = await fetch(new URL('v1/email-continuations', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  }).catch(() => undefined);
  if (!response?.ok) return;
  const { conversation_id: conversationId, ...session } = (await response.json()) as {
    conversation_id: string;
    token: string;
  };
  const storage = siteStorage(siteKey);
  storage.setJson('session', session);
  storage.set('conversation', conversationId);
}
