/** What a message carried beside its words, as the console shows it (from Chatwoot's `content_attributes`). */
import type { DeskMessage } from '../types.ts';

export interface MessageExtras {
  /** The suggestion buttons the customer saw under the AI's message. */
  buttons: string[];
  /** The AI's card, as the customer saw it. */
  card?: { title: string; fields: { label: string; value: string }[] } | undefined;
  /** The customer's answer to the survey: 1 to 5, and their words (empty when they wrote none). */
  rating?: { rating: number; comment: string } | undefined;
}

/** The survey's answer in `submitted_values`, when it is one (a rating from 1 to 5). */
function ratingOf(values: unknown): MessageExtras['rating'] {
  if (typeof values !== 'object' || values === null) return undefined;
  const response = (values as { csat_survey_response?: { rating?: unknown; feedback_message?: unknown } })
    .csat_survey_response;
  const rating = response?.rating;
  if (typeof rating !== 'number' || rating < 1 || rating > 5) return undefined;
  return { rating, comment: typeof response?.feedback_message === 'string' ? response.feedback_message : '' };
}

export function extrasOf(message: DeskMessage): MessageExtras {
  const attributes = message.content_attributes ?? {};
  const card = attributes.card;
  return {
    // A card shows as itself; its item is only its copy for Chatwoot's clients.
    buttons: card ? [] : (attributes.items ?? []).map((item) => item.title),
    card,
    rating: ratingOf(attributes.submitted_values),
  };
}

/** The rating in words, for the transcript and screen readers: "Rated 4 of 5: “Quick, thanks”". */
export function ratingText(rating: { rating: number; comment: string }): string {
  const stars = `Rated ${rating.rating} of 5`;
  return rating.comment ? `${stars}: “${rating.comment}”` : stars;
}
