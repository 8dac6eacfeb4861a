import { z } from 'zod';

/**
 * An attachment as Chatwoot's APIs show it (`Attachment#push_event_data`, shared/reference/
 * chatwoot-client-api.md): the Client API's and the Application API's messages carry these in
 * `attachments`, only when they have some. `thumb_url` is `data_url` for images (Parley keeps no
 * resized copy) and empty for files; `file_name` is Parley's own addition.
 */
export const PublicAttachment = z.object({
  id: z.number().int(),
  message_id: z.number().int(),
  file_type: z.enum(['image', 'file', 'audio', 'video']),
  account_id: z.number().int().nullable(),
  extension: z.string(),
  data_url: z
    .string()
    .describe('Where the bytes are served, to whoever may read the message (a path unless PUBLIC_URL is set)'),
  thumb_url: z.string(),
  file_size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  file_name: z.string(),
});
export type PublicAttachment = z.infer<typeof PublicAttachment>;

/**
 * An attachment as the people see it (the Application API): a customer's voice note also carries
 * what the engine heard in it (issue 30), once heard. Customers are shown `PublicAttachment` only.
 */
export const DeskAttachment = PublicAttachment.extend({
  transcript: z.string().optional().describe("What was heard in a customer's voice note (STT_BASE_URL), once heard"),
});
export type DeskAttachment = z.infer<typeof DeskAttachment>;
