import { z } from 'zod';
import { IdParam } from './fields.ts';

// Labels (Chatwoot's): the account keeps them; a conversation carries some, by title.

/** Lower case letters, digits, _ and - (Chatwoot's); a title is lowered before it is checked. */
export const LabelTitle = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9_-]+$/, 'letters, digits, _ or -');
const Color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour such as #1f93ff');

export const LabelParams = z.strictObject({ account_id: IdParam, id: IdParam });
export const LabelCreate = z.strictObject({
  title: LabelTitle,
  description: z.string().trim().max(1000).optional(),
  color: Color.optional(),
  show_on_sidebar: z.boolean().optional(),
});
export const LabelUpdate = LabelCreate.partial();
export const Label = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  color: z.string(),
  show_on_sidebar: z.boolean(),
});
export type Label = z.infer<typeof Label>;
export const LabelList = z.object({ payload: z.array(Label) });

/** `POST conversations/{id}/labels`: the labels the conversation has from now on (the set is replaced). */
export const ConversationLabelsSet = z.strictObject({ labels: z.array(LabelTitle).max(50) });
export const ConversationLabels = z.object({ payload: z.array(z.string()) });
