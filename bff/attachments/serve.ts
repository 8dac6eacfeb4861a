import type { Context } from 'koa';
import type { AttachmentRecord } from './store.ts';

/**
 * Answers with an attachment's bytes so that no browser takes them for anything but what they were
 * checked to be: the stored type (never the sender's), no sniffing, a sandbox with nothing allowed
 * (a PDF viewer or an image document opened from it runs no script of ours), images, voice
 * notes and videos inline (played in place) and PDFs as a download, cached only by the browser that asked (the credential is in a header).
 */
export function sendAttachment(ctx: Context, attachment: AttachmentRecord, bytes: Buffer): void {
  const inline = attachment.contentType !== 'application/pdf';
  ctx.set('Content-Type', attachment.contentType);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
  ctx.set('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', attachment.name));
  ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
  ctx.set('Cache-Control', 'private, max-age=3600');
  ctx.vary('Authorization');
  ctx.vary('api_access_token');
  ctx.body = bytes;
}

/**
 * RFC 6266: an ASCII `filename` for old clients and the real name as `filename*` (RFC 8187). The
 * name is safe already (`safeFileName`: no quotes, backslashes or control characters).
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
