import type { ReplyTime } from '../../shared/index.ts';

/**
 * What an inbox shows before the first message and in the widget's header (issue 16): kept in the
 * columns of migration 023, read by the widget's config, the Application API and the Client API.
 */

/** One day of Chatwoot's weekly schedule (`OutOfOffisable#weekly_schedule`); day 0 is Sunday. */
export interface WorkingDay {
  day_of_week: number;
  closed_all_day: boolean;
  open_all_day: boolean;
  open_hour: number | null;
  open_minutes: number | null;
  close_hour: number | null;
  close_minutes: number | null;
}

export interface InboxPresentation {
  avatarUrl: string;
  welcomeTitle: string;
  welcomeTagline: string;
  replyTime: ReplyTime | null;
  suggestedQuestions: string[];
  greetingTranslations: Record<string, string>;
  /** The welcome and the questions in the widget's other languages, by language (migration 027). */
  welcomeTitleTranslations: Record<string, string>;
  welcomeTaglineTranslations: Record<string, string>;
  suggestedQuestionsTranslations: Record<string, string[]>;
  email: string;
  /** Null while never set: the week is open all day. */
  workingHours: WorkingDay[] | null;
}

export const PRESENTATION_COLUMNS =
  'avatar_url, welcome_title, welcome_tagline, reply_time, suggested_questions, greeting_translations, email, working_hours, ' +
  'welcome_title_translations, welcome_tagline_translations, suggested_questions_translations';

export interface PresentationRow {
  avatar_url: string;
  welcome_title: string;
  welcome_tagline: string;
  reply_time: ReplyTime | null;
  suggested_questions: string[];
  greeting_translations: Record<string, string> | string;
  email: string;
  working_hours: WorkingDay[] | string | null;
  welcome_title_translations: Record<string, string> | string;
  welcome_tagline_translations: Record<string, string> | string;
  suggested_questions_translations: Record<string, string[]> | string;
}

/** jsonb comes back parsed from both drivers; text is parsed for safety should a driver hand it back raw. */
const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

export const toPresentation = (row: PresentationRow): InboxPresentation => ({
  avatarUrl: row.avatar_url,
  welcomeTitle: row.welcome_title,
  welcomeTagline: row.welcome_tagline,
  replyTime: row.reply_time,
  suggestedQuestions: row.suggested_questions,
  greetingTranslations: json(row.greeting_translations),
  welcomeTitleTranslations: json(row.welcome_title_translations),
  welcomeTaglineTranslations: json(row.welcome_tagline_translations),
  suggestedQuestionsTranslations: json(row.suggested_questions_translations),
  email: row.email,
  workingHours: row.working_hours === null ? null : json(row.working_hours),
});

/** Chatwoot's week when no hours are set: open every day, all day. */
export const ALWAYS_OPEN: readonly WorkingDay[] = Array.from({ length: 7 }, (_, day) => ({
  day_of_week: day,
  closed_all_day: false,
  open_hour: null,
  open_minutes: null,
  close_hour: null,
  close_minutes: null,
  open_all_day: true,
}));

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * Whether `at` falls outside the working hours, read in the inbox's time zone. A day missing from
 * the schedule counts as closed; a day's hours are [open, close).
 */
export function isAway(workingHours: readonly WorkingDay[], timeZone: string, at: Date): boolean {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
  const day = workingHours.find((entry) => entry.day_of_week === WEEKDAYS.indexOf(part('weekday')));
  if (!day || day.closed_all_day) return true;
  if (day.open_all_day) return false;
  const minute = Number(part('hour')) * 60 + Number(part('minute'));
  const opens = (day.open_hour ?? 0) * 60 + (day.open_minutes ?? 0);
  const closes = (day.close_hour ?? 24) * 60 + (day.close_minutes ?? 0);
  return minute < opens || minute >= closes;
}

/**
 * A setting in `locale` when the inbox has it (pt-BR falls back to pt), else the setting itself:
 * `inLocale('Hello', { de: 'Hallo' }, 'de-AT')` is 'Hallo'.
 */
export function inLocale<T>(own: T, translations: Record<string, T>, locale: string | undefined): T {
  if (!locale) return own;
  const lower = locale.toLowerCase();
  // Own keys only: a map parsed from JSON still inherits Object's (`valueOf`…).
  const given = (tag: string) => (Object.hasOwn(translations, tag) ? translations[tag] : undefined);
  return given(lower) ?? given(lower.split('-')[0]!) ?? own;
}
