import { z } from 'zod';
import type { MediaType } from '../../shared/server/index.ts';
import { extensionOf } from './file-names.ts';

/**
 * An attachment as Chatwoot's APIs show it (`Attachment#push_event_data`, shared/reference/
 * chatwoot-client-api.md): the Client API's and the Application API's messages carry these in
 * `attachments`, only when they have some. `thumb_url` is `data_url` for images (Parley keeps no
 * resized copy) and empty for files; `file_name` is Parley's own addition.
 */
export const PublicAttachment = z.object({
  id: z.number().int(),
  message_id: z.number().int(),
  file_type: z.enum(['image', 'file']),
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

/** What a shape needs of an attachment (a stored record, or a widget message's attachment). */
export interface AttachmentFacts {
  id: number;
  contentType: MediaType;
  name: string;
  size: number;
  width: number | null;
  height: number | null;
}

export function publicAttachmentShape(
  attachment: AttachmentFacts,
  where: { messageId: number; accountId: number | null; dataUrl: string },
): PublicAttachment {
  const image = attachment.contentType !== 'application/pdf';
  return {
    id: attachment.id,
    message_id: where.messageId,
    file_type: image ? 'image' : 'file',
    account_id: where.accountId,
    extension: extensionOf(attachment.contentType),
    data_url: where.dataUrl,
    thumb_url: image ? where.dataUrl : '',
    file_size: attachment.size,
    width: attachment.width,
    height: attachment.height,
    file_name: attachment.name,
  };
}

/** The Client API's address of an attachment: under the contact, whose identifier is the capability as on every Client API route. */
export const clientAttachmentUrl = (
  base: string,
  place: { inboxIdentifier: string; sourceId: string; conversationId: number; id: number },
): string =>
  `${base}/public/api/v1/inboxes/${encodeURIComponent(place.inboxIdentifier)}/contacts/${encodeURIComponent(place.sourceId)}/conversations/${place.conversationId}/attachments/${place.id}`;

/** A message's attachments as the people's APIs show them (the Application API, the helpdesk's webhooks). */
export function deskAttachmentShapes(
  attachments: readonly AttachmentFacts[],
  where: { messageId: number; accountId: number; conversationId: number; base: string },
): PublicAttachment[] {
  return attachments.map((attachment) =>
    publicAttachmentShape(attachment, {
      messageId: where.messageId,
      accountId: where.accountId,
      dataUrl: deskAttachmentUrl(where.base, { ...where, id: attachment.id }),
    }),
  );
}

/** The Application API's address of an attachment (the person's token in `api_access_token`). */
export const deskAttachmentUrl = (
  base: string,
  place: { accountId: number; conversationId: number; id: number },
): string => `${base}/api/v1/accounts/${place.accountId}/conversations/${place.conversationId}/attachments/${place.id}`;
