import { useRef } from 'preact/hooks';
import type { Chat } from '../../chat/chat.ts';
import { useMailWish } from '../../mail-wish.ts';
import { useChunk } from '../../use-chunk.ts';

// The e-mail card, its words in every language and its styles: loaded only when it may show.
const emailChunk = () => import('../../email.ts');

interface Props {
  chat: Chat;
  state: Chat['state'];
}

/**
 * Where the e-mail card goes, above the composer (issue 32). It comes with the answers chunk and
 * loads the card's own chunk only when the card may show: the customer chose an e-mail item of
 * the options menu, or a person is to answer (after a handover, or while the inbox is away), when
 * the BFF decides whether and when to ask "Get the reply by e-mail?".
 */
export function MailSlot({ chat, state }: Props) {
  const wish = useMailWish();
  const root = useRef<HTMLDivElement>(null);
  const id = state.conversationId;
  const wished = wish && wish.conversationId === id ? wish.form : undefined;
  const inbox = state.config?.inbox;
  const mayAsk = !state.resolved && (state.handledBy === 'human' || !!inbox?.away || inbox?.people_available === false);
  const shown = !!id && state.messages.length > 0 && (!!wished || mayAsk);
  const card = useChunk(emailChunk, shown, () => root.current);
  if (!shown) return null;
  return (
    <div ref={root}>{card && <card.EmailCard chat={chat} state={state} conversationId={id} wished={wished} />}</div>
  );
}
