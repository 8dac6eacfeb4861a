import { useState } from 'preact/hooks';
import { useI18n } from '../../i18n/context.ts';

/** The satisfaction survey at the end of a conversation: 1 to 5, and a comment. */
export function Survey({ answered, onAnswer }: { answered: boolean; onAnswer: (rating: number, comment: string) => Promise<void> }) {
  const { t } = useI18n();
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  if (answered) return <p class="survey-thanks" role="status">{t('surveyThanks')}</p>;
  return (
    <form
      class="survey"
      onSubmit={(event) => {
        event.preventDefault();
        if (rating) void onAnswer(rating, comment.trim());
      }}
    >
      <fieldset>
        <legend>{t('surveyQuestion')}</legend>
        <div class="stars">
          {[1, 2, 3, 4, 5].map((value) => (
            <button key={value} type="button" class="star" aria-pressed={rating === value} aria-label={t('surveyRating', { rating: value })} onClick={() => setRating(value)}>
              {value <= rating ? '★' : '☆'}
            </button>
          ))}
        </div>
      </fieldset>
      <label class="field">
        {t('surveyComment')}
        <textarea rows={2} maxLength={2000} value={comment} onInput={(event) => setComment(event.currentTarget.value)} />
      </label>
      <button type="submit" class="primary" disabled={!rating}>
        {t('surveySubmit')}
      </button>
    </form>
  );
}
