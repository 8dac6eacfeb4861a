import { z } from 'zod';
import type { DeskAttachment, PublicAttachment } from '../../shared/index.ts';
import { attachmentKind, type MediaType } from '../../shared/server/index.ts';
import { extensionOf } from './file-names.ts';

/** What a shape needs of an attachment (a stored record, or a widget message's attachment). */
export interface AttachmentFacts {
  id: number;
  contentType: MediaType;
  name: string;
  size: number;
  width: number | null;
  height: number | null;
  /** What was heard in a voice note (kept for the team, never shown to customers). */
  transcript?: string | null | undefined;
}

export function publicAttachmentShape(
  attachment: AttachmentFacts,
  where: { messageId: number; accountId: number | null; dataUrl: string },
): PublicAttachment {
  const kind = attachmentKind(attachment.contentType);
  const image = kind === 'image';
  return {
    id: attachment.id,
    message_id: where.messageId,
    file_type: kind,
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

/** A message's attachments as the people's APIs show them (the Application API, the helpdesk's webhooks), with a voice note's transcript. */
export function deskAttachmentShapes(
  attachments: readonly AttachmentFacts[],
  where: { messageId: number; accountId: number; conversationId: number; base: string },
): DeskAttachment[] {
  return attachments.map((attachment) => ({
    ...publicAttachmentShape(attachment, {
      messageId: where.messageId,
      accountId: where.accountId,
      dataUrl: deskAttachmentUrl(where.base, { ...where, id: attachment.id }),
    }),
    ...(attachment.transcript ? { transcript: attachment.transcript } : {}),
  }));
}

/** The Application API's address of an attachment (the person's token in `api_access_token`). */
export const deskAttachmentUrl = (
  base: string,
  place: { accountId: number; conversationId: number; id: number },
): string => `${base}/api/v1/accounts/${place.accountId}/conversations/${place.conversationId}/attachments/${place.id}`;
