import { useState } from 'preact/hooks';
import { useI18n } from '../../i18n/context.ts';
import type { MessageKey } from '../../i18n/index.ts';

const RATINGS = [1, 2, 3, 4, 5] as const;

/**
 * The satisfaction survey at the end of a conversation: five rating buttons in one row (radios,
 * each named "1 – Very poor" … "5 – Excellent", arrow keys move between them), then an optional
 * comment beside Send. It stays a few lines tall, so the conversation above it stays readable.
 */
export function Survey({
  answered,
  onAnswer,
}: {
  answered: boolean;
  onAnswer: (rating: number, comment: string) => Promise<void>;
}) {
  const { t } = useI18n();
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  if (answered)
    return (
      <p class="survey-thanks" role="status">
        {t('surveyThanks')}
      </p>
    );
  const word = (value: number) => t(`rating${value}` as MessageKey);
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
        <div class="rating">
          {RATINGS.map((value) => (
            <label key={value}>
              <input
                type="radio"
                name="rating"
                value={value}
                checked={rating === value}
                aria-label={`${value} – ${word(value)}`}
                onChange={() => setRating(value)}
              />
              <span aria-hidden="true">{value}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {rating > 0 && (
        <div class="comment">
          <textarea
            rows={1}
            maxLength={2000}
            aria-label={t('surveyComment')}
            placeholder={t('surveyComment')}
            value={comment}
            onInput={(event) => setComment(event.currentTarget.value)}
          />
          <button type="submit" class="primary">
            {t('surveySubmit')}
          </button>
        </div>
      )}
    </form>
  );
}
