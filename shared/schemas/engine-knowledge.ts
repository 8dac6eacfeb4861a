import { z } from 'zod';

/**
 * Knowledge documents of the AI conversation API (SPEC "Knowledge": documents, added with a
 * person's approval). A document is markdown with a title and an optional address; the AI answers
 * only from approved documents, and any change to what a document says (its language too) takes its
 * approval away.
 */

export const KnowledgeDocumentId = z.string().regex(/^doc_[0-9A-Za-z]{16,64}$/, 'a knowledge document id (doc_…)');
export const KnowledgeDocumentParams = z.strictObject({ id: KnowledgeDocumentId });

/** The most characters a document's body holds. */
export const KNOWLEDGE_BODY_MAX = 100_000;

const Title = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('What the document is about; customers see it as the source of an answer.');
const Body = z
  .string()
  .trim()
  .min(1)
  .max(KNOWLEDGE_BODY_MAX)
  .describe(
    `Markdown, at most ${KNOWLEDGE_BODY_MAX} characters. Its ## headings make the sections the AI answers from.`,
  );
const Url = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .describe('Where customers can read the document; answers from it link there.');

/** The language of a document given none: the engine's accounts have no language of their own (issue 28). */
export const KNOWLEDGE_DEFAULT_LOCALE = 'en';

/**
 * The language a document is written in: a BCP 47 tag of a language and, optionally, its region.
 *
 * @example KnowledgeLocale.parse('pt-BR') // 'pt-BR'; 'PT-br', 'pt_BR' and 'deu' are refused
 */
export const KnowledgeLocale = z
  .string()
  .regex(
    /^[a-z]{2}(?:-[A-Z]{2})?$/,
    'a language tag such as de or pt-BR: two lower-case letters, optionally a hyphen and two upper-case letters',
  );
const LOCALE_MEANING =
  'The language the document is written in, a tag such as de or pt-BR. Kept and listed with the document; the retrieval brain does not read it yet and reads every document as English (issue 28).';

export const CreateKnowledgeRequest = z.strictObject({
  title: Title,
  body: Body,
  url: Url.optional(),
  locale: KnowledgeLocale.optional().describe(`${LOCALE_MEANING} ${KNOWLEDGE_DEFAULT_LOCALE} when left out.`),
});
export type CreateKnowledgeRequest = z.infer<typeof CreateKnowledgeRequest>;

export const UpdateKnowledgeRequest = z
  .strictObject({
    title: Title.optional(),
    body: Body.optional(),
    url: Url.nullable().optional().describe('null removes the address.'),
    locale: KnowledgeLocale.optional().describe(
      `${LOCALE_MEANING} A change takes the approval away, as one of the address does.`,
    ),
  })
  .refine((update) => Object.keys(update).length > 0, 'give at least one of title, body, url and locale');
export type UpdateKnowledgeRequest = z.infer<typeof UpdateKnowledgeRequest>;

export const KnowledgeDocument = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  url: z.string().nullable(),
  locale: z.string().describe(LOCALE_MEANING),
  approved: z.boolean().describe('Only approved documents answer customers.'),
  approved_at: z.string().nullable(),
  source: z.string().nullable().describe('The file a document was imported from (npm run engine:knowledge), or null.'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type KnowledgeDocument = z.infer<typeof KnowledgeDocument>;

/** The most documents one page holds. */
export const KNOWLEDGE_PAGE_MAX = 100;

export const KnowledgeListQuery = z.strictObject({
  after: KnowledgeDocumentId.optional().describe("The page before's next: the documents added after this one."),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(KNOWLEDGE_PAGE_MAX)
    .default(20)
    .describe(`Page size, at most ${KNOWLEDGE_PAGE_MAX}; 20 when left out.`),
  approved: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .describe('Only approved (true) or only unapproved (false) documents.'),
  locale: KnowledgeLocale.optional().describe('Only the documents in this language (de lists de, not de-AT).'),
});

export const KnowledgeList = z.object({
  documents: z.array(KnowledgeDocument),
  next: z
    .string()
    .nullable()
    .describe(
      'Pass as after for the next page: the last document of this page, or the after sent when it is empty; null only when there is nothing at all.',
    ),
  has_more: z.boolean().describe('Whether more documents follow.'),
});
export type KnowledgeList = z.infer<typeof KnowledgeList>;
