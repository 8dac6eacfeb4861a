import { z } from 'zod';
import { InterviewAnswer, InterviewCompletedData } from '../events.ts';
import { ConversationId, CustomerRef, LocaleTag } from './engine.ts';

/**
 * Research interviews of the AI conversation API (issue 29): an interview is a title, an intro,
 * one to twenty questions and a closing line. `POST /v1/interviews/{id}/sessions` opens a
 * conversation in which the AI asks them one at a time; each session that ends is a response.
 */

export const InterviewId = z.string().regex(/^ivw_[0-9A-Za-z]{16,64}$/, 'an interview id (ivw_…)');
export const InterviewParams = z.strictObject({ id: InterviewId });

/** The most questions an interview holds. */
export const INTERVIEW_QUESTIONS_MAX = 20;
/**
 * The most choices a question offers: with the Skip button they fill the ten buttons a reply may
 * carry (shared/events.ts ReplyData).
 */
export const INTERVIEW_CHOICES_MAX = 9;

const Title = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('What the interview is about (for the team; customers do not see it).');
const Intro = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .describe("The AI's first words to the customer, before the first question.");
const Closing = z.string().trim().min(1).max(2000).describe('What the AI says after the last question.');
const Choice = z.string().trim().min(1).max(100);

export const InterviewQuestion = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and -, at most 64')
    .describe('Your name for the question; each answer carries it. Unique within the interview.'),
  text: z.string().trim().min(1).max(1000).describe('The question as the AI asks it.'),
  choices: z
    .array(Choice)
    .min(2)
    .max(INTERVIEW_CHOICES_MAX)
    .refine((choices) => new Set(choices.map((choice) => choice.toLowerCase())).size === choices.length, {
      message: 'choices must differ (case aside)',
    })
    .optional()
    .describe(
      `2 to ${INTERVIEW_CHOICES_MAX} answers shown as buttons; the customer may still answer in their own words. A reply that is one of them (case aside) is recorded as that choice.`,
    ),
});
export type InterviewQuestion = z.infer<typeof InterviewQuestion>;

const Questions = z
  .array(InterviewQuestion)
  .min(1)
  .max(INTERVIEW_QUESTIONS_MAX)
  .refine((questions) => new Set(questions.map((question) => question.id)).size === questions.length, {
    message: 'question ids must be unique',
  })
  .describe(`1 to ${INTERVIEW_QUESTIONS_MAX} questions, asked in this order.`);

export const CreateInterviewRequest = z.strictObject({
  title: Title,
  intro: Intro,
  questions: Questions,
  closing: Closing,
});
export type CreateInterviewRequest = z.infer<typeof CreateInterviewRequest>;

export const UpdateInterviewRequest = z
  .strictObject({
    title: Title.optional(),
    intro: Intro.optional(),
    questions: Questions.optional(),
    closing: Closing.optional(),
  })
  .refine((update) => Object.keys(update).length > 0, 'give at least one of title, intro, questions and closing');
export type UpdateInterviewRequest = z.infer<typeof UpdateInterviewRequest>;

export const Interview = z.object({
  id: z.string(),
  title: z.string(),
  intro: z.string(),
  questions: z.array(z.object({ id: z.string(), text: z.string(), choices: z.array(z.string()).optional() })),
  closing: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Interview = z.infer<typeof Interview>;

/** The most interviews or responses one page holds. */
export const INTERVIEW_PAGE_MAX = 100;

const Limit = z.coerce
  .number()
  .int()
  .min(1)
  .max(INTERVIEW_PAGE_MAX)
  .default(20)
  .describe(`Page size, at most ${INTERVIEW_PAGE_MAX}; 20 when left out.`);

export const InterviewListQuery = z.strictObject({
  after: InterviewId.optional().describe("The page before's next: the interviews made after this one."),
  limit: Limit,
});

const Next = z
  .string()
  .nullable()
  .describe(
    'Pass as after for the next page: the last item of this page, or the after sent when it is empty; null only when there is nothing at all.',
  );

export const InterviewList = z.object({
  interviews: z.array(Interview),
  next: Next,
  has_more: z.boolean().describe('Whether more interviews follow.'),
});
export type InterviewList = z.infer<typeof InterviewList>;

export const OpenInterviewSessionRequest = z.strictObject({
  customer_ref: CustomerRef,
  locale: LocaleTag.optional().describe(
    "The customer's language: the AI's own words (the Skip button, asking again, a stop) use it; the interview's texts are yours, as written.",
  ),
});
export type OpenInterviewSessionRequest = z.infer<typeof OpenInterviewSessionRequest>;

/** One ended session of an interview: who answered, how it ended, and each question asked with its answer. */
export const InterviewResponse = z.object({
  conversation_id: z.string(),
  customer_ref: z.string(),
  outcome: InterviewCompletedData.shape.outcome,
  started_at: z.string(),
  ended_at: z.string(),
  answers: z.array(InterviewAnswer),
});
export type InterviewResponse = z.infer<typeof InterviewResponse>;

export const InterviewResponsesQuery = z.strictObject({
  after: ConversationId.optional().describe("The page before's next: the responses that ended after this one."),
  limit: Limit,
});

export const InterviewResponseList = z.object({
  responses: z.array(InterviewResponse),
  next: Next,
  has_more: z.boolean().describe('Whether more responses follow.'),
});
export type InterviewResponseList = z.infer<typeof InterviewResponseList>;
