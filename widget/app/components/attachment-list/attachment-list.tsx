import { useEffect, useState } from 'preact/hooks';
import type { WidgetAttachment } from '../../../../shared/index.ts';
import type { Chat } from '../../chat/chat.ts';
import { useI18n } from '../../i18n/context.ts';
import { attachmentStrings, fileSize } from '../../attachments-i18n.ts';

interface Props {
  items: WidgetAttachment[];
  chat: Pick<Chat, 'target'>;
}

/** The longest side of a thumbnail, in CSS pixels. */
const THUMB = 220;

/** A thumbnail's size, known before its bytes arrive (the BFF read it), so nothing moves when they do. */
function thumbSize(item: WidgetAttachment): { width: number; height: number } {
  const width = item.width ?? THUMB;
  const height = item.height ?? THUMB;
  const scale = Math.min(1, THUMB / width, THUMB / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * A message's files: photos as thumbnails that open full size in a new tab, voice notes and videos
 * in the browser's own player (keyboard and screen-reader usable), PDFs as a chip that downloads. The bytes are read with the session token in the header (never in a URL) and shown
 * from a `blob:` address of this page, so the image opened in a new tab is the checked file itself
 * and nothing of the BFF runs there.
 */
export function AttachmentList({ items, chat }: Props) {
  return (
    <div class="files">
      {items.map((item) => (
        <Attachment key={item.id} item={item} chat={chat} />
      ))}
    </div>
  );
}

function Attachment({ item, chat }: { item: WidgetAttachment; chat: Props['chat'] }) {
  const { locale } = useI18n();
  const t = attachmentStrings(locale);
  const [address, setAddress] = useState<string>();
  useEffect(() => {
    let made: string | undefined;
    let shown = true;
    void chat
      .target()
      .then(([token, baseUrl]) =>
        fetch(new URL(item.url.replace(/^\//, ''), baseUrl), { headers: { authorization: `Bearer ${token}` } }),
      )
      .then((response) => (response.ok ? response.blob() : undefined))
      .then((blob) => {
        if (blob && shown) setAddress((made = URL.createObjectURL(blob)));
      })
      .catch(() => undefined);
    return () => {
      shown = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [item.url]);

  if (item.kind === 'image') {
    const size = thumbSize(item);
    // Until its bytes are here, a grey box in the thumbnail's place and of its size.
    if (!address) return <svg class="thumb-wait" {...size} aria-hidden="true" />;
    return (
      <a
        class="thumb"
        href={address}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={t('openImage', { name: item.name })}
      >
        <img src={address} alt={item.name} {...size} />
      </a>
    );
  }
  if (item.kind === 'audio' || item.kind === 'video') return <Player item={item} address={address} label={t} />;
  // What it shows is its name: the file's name and size.
  const chip = (
    <>
      <span class="tray-kind" aria-hidden="true">
        PDF
      </span>
      <span dir="auto">{item.name}</span>
      <span>{fileSize(item.size, locale)}</span>
    </>
  );
  if (!address) return <span class="chip">{chip}</span>;
  return (
    <a class="chip" href={address} download={item.name}>
      {chip}
    </a>
  );
}

/**
 * A voice note or a video, played in place with the browser's own controls, named for screen
 * readers ("Voice note voice-note.ogg"); until its bytes are here, its name alone.
 */
function Player({
  item,
  address,
  label,
}: {
  item: WidgetAttachment;
  address: string | undefined;
  label: ReturnType<typeof attachmentStrings>;
}) {
  const name = label(item.kind === 'audio' ? 'voiceNote' : 'video', { name: item.name });
  if (!address) return <span class="chip">{name}</span>;
  return item.kind === 'audio' ? (
    <audio class="player" src={address} controls preload="metadata" aria-label={name} title={name} />
  ) : (
    <video class="player" src={address} controls preload="metadata" aria-label={name} title={name} />
  );
}
