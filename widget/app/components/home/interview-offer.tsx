import { useState } from 'preact/hooks';
import type { InterviewOffer as Offer, WidgetConversation } from '../../../../shared/index.ts';
import type { Chat } from '../../chat/chat.ts';
import { useI18n } from '../../i18n/context.ts';

interface Props {
  chat: Pick<Chat, 'call' | 'enterConversation'>;
  offer: Offer;
}

/**
 * The research interview the inbox offers (issue 29), as one button of the home screen. It starts
 * the interview (`POST /v1/widget/interviews`) and opens the conversation the answer gives at once
 * (the BFF has kept the AI's first words before it answers): its questions show as any answer
 * does, choices as quick replies.
 */
export function InterviewOffer({ chat, offer }: Props) {
  const { t, locale } = useI18n();
  const [busy, setBusy] = useState(false);

  async function start(): Promise<void> {
    setBusy(true);
    try {
      const conversation = await chat.call<WidgetConversation>('interviews', 'POST', {
        interview_id: offer.interview_id,
        locale,
      });
      await chat.enterConversation(conversation);
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
