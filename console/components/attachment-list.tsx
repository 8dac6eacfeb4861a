import { useEffect, useState } from 'preact/hooks';
import type { DeskStore } from '../desk-store.ts';
import type { DeskAttachment } from '../types.ts';

/** 820 kB, 2.4 MB: a file's size counted in 1,024s, as file managers show it. */
function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} kB`;
}

/**
 * A customer's files in the transcript: photos as thumbnails that open full size in a new tab, voice
 * notes and videos in the browser's own player, PDFs as a chip that downloads. The bytes are read with the session's token (in a header, as every
 * call) and shown from a `blob:` address of the console, so nothing but the checked file opens.
 */
export function AttachmentList({ items, store }: { items: DeskAttachment[]; store: Pick<DeskStore, 'file'> }) {
  return (
    <div class="files">
      {items.map((item) => (
        <Attachment key={item.id} item={item} store={store} />
      ))}
    </div>
  );
}

function Attachment({ item, store }: { item: DeskAttachment; store: Pick<DeskStore, 'file'> }) {
  const [address, setAddress] = useState<string>();
  useEffect(() => {
    let made: string | undefined;
    let shown = true;
    void store.file(item.data_url).then((blob) => {
      if (blob && shown) setAddress((made = URL.createObjectURL(blob)));
    });
    return () => {
      shown = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [item.data_url]);

  if (item.file_type === 'image') {
    if (!address) return <span class="thumb-wait" aria-label={`Photo ${item.file_name}, loading`} role="img" />;
    return (
      <a
        class="thumb"
        href={address}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`Open ${item.file_name} full size`}
      >
        <img src={address} alt={item.file_name} width={item.width ?? undefined} height={item.height ?? undefined} />
      </a>
    );
  }
  if (item.file_type === 'audio' || item.file_type === 'video')
    return (
      <>
        <Player item={item} address={address} />
        {item.transcript && (
          <p class="heard" aria-label={`What was heard in ${item.file_name}`}>
            {item.transcript} <span class="visually-hidden">(only your team sees this)</span>
          </p>
        )}
      </>
    );
  // What it shows is its name: the file's name and size.
  const label = `${item.file_name}, ${sizeText(item.file_size)}`;
  if (!address) return <span class="chip">{label}</span>;
  return (
    <a class="chip" href={address} download={item.file_name}>
      {label}
    </a>
  );
}

/** A voice note or a video, played in place with the browser's own controls and named for screen readers. */
function Player({ item, address }: { item: DeskAttachment; address: string | undefined }) {
  const name = `${item.file_type === 'audio' ? 'Voice note' : 'Video'} ${item.file_name}`;
  if (!address) return <span class="chip">{`${name}, ${sizeText(item.file_size)}`}</span>;
  return item.file_type === 'audio' ? (
    <audio class="player" src={address} controls preload="metadata" aria-label={name} title={name} />
  ) : (
    <video class="player" src={address} controls preload="metadata" aria-label={name} title={name} />
  );
}
