import { useState } from 'preact/hooks';
import type { InterviewOffer as Offer, WidgetConversation } from '../../../../shared/index.ts';
import type { Chat } from '../../chat/chat.ts';
import { useI18n } from '../../i18n/context.ts';

interface Props {
  chat: Pick<Chat, 'call' | 'state' | 'subscribe' | 'openConversation'>;
  offer: Offer;
}

/**
 * The research interview the inbox offers (issue 29), as one button of the home screen. It starts
 * the interview (`POST /v1/widget/interviews`) and shows its conversation once listed: the AI's
 * first words pushed for it bring it into the list, and its questions show as any answer does,
 * choices as quick replies.
 */
export function InterviewOffer({ chat, offer }: Props) {
  const { t, locale } = useI18n();
  const [busy, setBusy] = useState(false);

  async function start(): Promise<void> {
    setBusy(true);
    try {
      const { id } = await chat.call<WidgetConversation>('interviews', 'POST', {
        interview_id: offer.interview_id,
        locale,
      });
      showWhenListed(chat, id);
    } catch {
      setBusy(false);
    }
  }

  return (
    // Drawn as the suggested questions are (their styles): no styles of its own in the home chunk.
    <div class="asks">
      <button type="button" disabled={busy} onClick={() => void start()}>
        {offer.label ?? t('homeInterview')}
      </button>
    </div>
  );
}

/** Shows the conversation `id` as soon as the customer's list holds it (at once when it already does). */
function showWhenListed(chat: Props['chat'], id: string): void {
  const show = (): boolean => {
    if (chat.state.conversationId === id) return true;
    if (!chat.state.conversations.some((conversation) => conversation.id === id)) return false;
    void chat.openConversation(id);
    return true;
  };
  if (show()) return;
  const stop = chat.subscribe(() => {
    if (show()) stop();
  });
}
