import { useEffect, useRef } from 'preact/hooks';

/**
 * The end of the list: the next page is read when it scrolls into view (infinite scroll), and the
 * button does the same for a keyboard or a screen reader.
 */
export function LoadMore({ onMore }: { onMore: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = button.current;
    if (!element || !('IntersectionObserver' in window)) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) onMore();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [onMore]);
  return (
    <button type="button" class="more link" ref={button} onClick={onMore}>
      More conversations
    </button>
  );
}
