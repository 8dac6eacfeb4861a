/**
 * What the options menu asks of the e-mail card (issue 32): "E-mail me this conversation" or the
 * address form, for one conversation; and what the BFF said about e-mail for each conversation,
 * so the menu offers the e-mail items only where e-mail is on. Shared by the menu (popups chunk)
 * and the card (answers and e-mail chunks); the first download carries none of it.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Chat } from './chat/chat.ts';

/** A conversation's e-mail as `GET /v1/widget/conversations/{id}/email` gives it. */
export interface EmailState {
  email: string | null;
  sending: boolean;
  ask_at: string | null;
}

export interface MailWish {
  conversationId: string;
  form: 'address' | 'transcript';
}

let wish: MailWish | undefined;
const listeners = new Set<() => void>();
const states = new Map<string, Promise<EmailState>>();

/** Asks for the e-mail card (or closes it, with undefined). */
export function wishMail(next: MailWish | undefined): void {
  wish = next;
  for (const listener of listeners) listener();
}

/** The card wished for now, re-rendering on each change. */
export function useMailWish(): MailWish | undefined {
  const [, setCount] = useState(0);
  useEffect(() => {
    const changed = () => setCount((count) => count + 1);
    listeners.add(changed);
    return () => void listeners.delete(changed);
  }, []);
  return wish;
}

/** The conversation's e-mail state, asked for once and kept (`fresh` asks again). */
export function emailState(chat: Pick<Chat, 'call'>, conversationId: string, fresh = false): Promise<EmailState> {
  let state = states.get(conversationId);
  if (!state || fresh) {
    state = chat.call<EmailState>(`conversations/${encodeURIComponent(conversationId)}/email`);
    states.set(conversationId, state);
    // A failure is not kept: the next call asks again.
    state.catch(() => states.delete(conversationId));
  }
  return state;
}
