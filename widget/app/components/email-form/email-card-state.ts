import { useEffect, useState } from 'preact/hooks';
import type { Chat } from '../../chat/chat.ts';
import { emailState, type EmailState, type MailWish } from '../../mail-wish.ts';

/**
 * The conversation's e-mail as the BFF says it, asked again when the conversation changes hands
 * or the customer opens a form; and whether the ask is due now (an ask due later, after a wait
 * for a person, re-renders at its time). `reload` asks again (after a change of the address).
 */
export function useEmailState(
  chat: Pick<Chat, 'call'>,
  conversationId: string,
  handledBy: Chat['state']['handledBy'],
  wished: MailWish['form'] | undefined,
) {
  const [known, setKnown] = useState<EmailState>();
  const [, setTick] = useState(0);
  useEffect(() => {
    void emailState(chat, conversationId, true).then(setKnown, () => setKnown(undefined));
  }, [conversationId, handledBy, wished]);
  const askAt = known?.ask_at ? Date.parse(known.ask_at) : undefined;
  useEffect(() => {
    if (askAt === undefined || askAt <= Date.now()) return;
    const timer = setTimeout(() => setTick((tick) => tick + 1), askAt - Date.now() + 50);
    return () => clearTimeout(timer);
  }, [askAt]);
  return {
    known,
    askDue: askAt !== undefined && askAt <= Date.now(),
    reload: async () => setKnown(await emailState(chat, conversationId, true)),
  };
}
