/** The files a person is about to send with an answer: the button that picks them, and the tray that shows them. */
import { useEffect, useState } from 'preact/hooks';
import { ACCEPTED, filesOf } from '../attach-files.ts';

/** Files dropped on the reply box are attached; while they are dragged over it, it says so (`dropping`). */
export function useDropZone(attach: (files: File[]) => void) {
  const [dropping, setDropping] = useState(false);
  const dropZone = {
    onDragOver: (event: DragEvent) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      setDropping(true);
    },
    onDragLeave: () => setDropping(false),
    onDrop: (event: DragEvent) => {
      setDropping(false);
      const dropped = filesOf(event.dataTransfer);
      if (dropped.length === 0) return;
      event.preventDefault();
      attach(dropped);
    },
  };
  return { dropping, dropZone };
}

/** The file input itself, drawn as a chip: the keyboard reaches it and a screen reader names it. */
export function AttachButton({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled: boolean }) {
  return (
    <label class="chip attach-button">
      <input
        type="file"
        class="visually-hidden"
        multiple
        accept={ACCEPTED}
        disabled={disabled}
        onChange={(event) => {
          onFiles([...(event.currentTarget.files ?? [])]);
          event.currentTarget.value = '';
        }}
      />
      Attach files
    </label>
  );
}

/** The picked files, photos as small previews, each with a button that takes it away again. */
export function AttachTray({ files, onRemove }: { files: readonly File[]; onRemove: (file: File) => void }) {
  if (files.length === 0) return null;
  return (
    <ul class="attach-tray" aria-label="Files to send">
      {files.map((file) => (
        <li key={`${file.name}|${file.size}|${file.lastModified}`} class="chip">
          {file.type.startsWith('image/') && <Preview file={file} />}
          <span>{file.name}</span>
          <button type="button" class="link" aria-label={`Remove ${file.name}`} onClick={() => onRemove(file)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A photo picked, from a `blob:` address of the console that goes when the preview does. */
function Preview({ file }: { file: File }) {
  const [address, setAddress] = useState<string>();
  useEffect(() => {
    const made = URL.createObjectURL(file);
    setAddress(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return address ? <img src={address} alt="" /> : null;
}
