import { ParleyError, type WidgetConfig } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { givenCustomerRef } from './customer-refs.ts';
import type { Session } from './sessions.ts';
import { ALWAYS_OPEN, inLocale, isAway } from '../store/inbox-presentation.ts';
import { findInbox, type Inbox } from '../store/inboxes.ts';
import { readInterviewOffer } from '../store/interview-offers.ts';
import { peopleAvailable } from '../helpdesk/inbox-availability.ts';
import { readCallsEnabled } from '../calls/calls-setting.ts';
import { inboxEngineSpeaks } from '../calls/ai-call-speech.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';

/**
 * What the widget shows before anyone writes: the inbox's look and words, its features, and who
 * the customer is. `locale` is the language the widget shows: the greeting, welcome title, tagline
 * and suggested questions come in it when the inbox has them (chosen here, not in the widget, whose
 * first download has no room for every language's). Unset settings are left out, so the widget
 * shows nothing for them rather than empty text.
 */
export async function widgetConfig(
  { sql, now, engines }: { sql: Sql; now: () => Date; engines: Pick<EngineAccounts, 'forInbox'> },
  session: Session,
  locale?: string,
): Promise<WidgetConfig> {
  const inbox = await findInbox(sql, session.inboxId);
  if (!inbox) throw new ParleyError('not_found', 'The inbox of this session no longer exists.');
  const shown = inbox.presentation;
  const given = (value: string) => value || undefined;
  const questions = inLocale(shown.suggestedQuestions, shown.suggestedQuestionsTranslations, locale);
  const at = now();
  const speaks = () => inboxEngineSpeaks(engines, inbox.id, session.environment, at);
  const { available, away, calls } = await inboxAvailability(sql, inbox, at, speaks);
  return {
    inbox: {
      name: inbox.name,
      greeting: inLocale(inbox.greeting, shown.greetingTranslations, locale),
      color: inbox.color,
      locale: inbox.locale,
      avatar_url: given(shown.avatarUrl),
      reply_time: shown.replyTime ?? undefined,
      welcome_title: given(inLocale(shown.welcomeTitle, shown.welcomeTitleTranslations, locale)),
      welcome_tagline: given(inLocale(shown.welcomeTagline, shown.welcomeTaglineTranslations, locale)),
      suggested_questions: questions.length ? questions : undefined,
      email: given(shown.email),
      people_available: available,
      interview_offer: (await readInterviewOffer(sql, inbox.id)) ?? undefined,
      ...(away ? { away: true, out_of_office_message: given(inbox.outOfOfficeMessage) } : {}),
    },
    features: {
      survey: inbox.surveyEnabled,
      prechat_form: inbox.prechatEnabled && !session.verified,
      several_conversations: true,
      ...(calls ? { calls: true } : {}),
    },
    // The reference as the site's server gave it (a sandbox customer's own space is the BFF's business).
    customer: {
      customer_ref: givenCustomerRef(session.customerRef),
      verified: session.verified,
      name: session.name ?? null,
    },
  };
}

/**
 * Whether people answer the inbox now (undefined while presence is not in use), whether it is
 * outside its working hours, and so whether the customer may call: what the config says, and what
 * `availability:changed` pushes when a person switches "Available" (issue 31). `aiSpeaks` tells
 * whether the inbox's engine takes calls with the AI (bff/calls/ai-call-speech.ts); it is asked
 * only when the inbox takes calls and nobody can answer.
 */
export async function inboxAvailability(sql: Sql, inbox: Inbox, now: Date, aiSpeaks: () => Promise<boolean>) {
  const available = await peopleAvailable(sql, inbox.id);
  const away = inbox.workingHoursEnabled && isAway(inbox.presentation.workingHours ?? ALWAYS_OPEN, inbox.timezone, now);
  // Calls when someone is there to answer (presence in use and someone online, within working
  // hours), or when the AI can take them (issue 30): a conversation with a person then calls people only.
  const enabled = await readCallsEnabled(sql, inbox.id);
  const calls = enabled && ((available === true && !away) || (await aiSpeaks()));
  return { available, away, calls };
}
