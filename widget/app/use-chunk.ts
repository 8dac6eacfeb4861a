import { useEffect, useState } from 'preact/hooks';

const chunks = new Map<unknown, Promise<unknown>>();

/** The header's options menu and the preview card above the launcher (popups.ts). */
export const popups = () => import('./popups.ts');

/**
 * A chunk loaded the first time it is needed, with its styles adopted into the shadow root once,
 * however many components ask for it (they pass the same `load`).
 */
export function useChunk<T extends { CSS: string }>(
  load: () => Promise<T>,
  needed: boolean,
  root: () => Node | null,
): T | undefined {
  const [loaded, setLoaded] = useState<T | undefined>();
  useEffect(() => {
    if (needed && !loaded) void loadChunk(load, root()).then(setLoaded);
  }, [needed, loaded]);
  return loaded;
}

/** The same outside components: loads the chunk once and adopts its styles into `root`'s shadow root. */
export function loadChunk<T extends { CSS: string }>(load: () => Promise<T>, root: Node | null): Promise<T> {
  if (!chunks.has(load)) {
    chunks.set(
      load,
      load().then((module) => {
        const shadow = root?.getRootNode();
        if (shadow instanceof ShadowRoot) {
          const sheet = new CSSStyleSheet();
          sheet.replaceSync(module.CSS);
          shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet];
        }
        return module;
      }),
    );
  }
  return chunks.get(load) as Promise<T>;
}
