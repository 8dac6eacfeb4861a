/**
 * A one-way notice between parts of a composition root: the part built first emits, parts built
 * later listen. It lets every part be built after what it calls, with no closure reaching forward
 * to a part not built yet (STYLE "object cycles through forward references").
 *
 * @example const committed = createSignal<Event[]>(); const service = createService({ onCommitted: committed.emit }); committed.listen(later.handle);
 */
export interface Signal<T> {
  emit(value: T): void;
  listen(listener: (value: T) => void): void;
}

export function createSignal<T>(): Signal<T> {
  const listeners: ((value: T) => void)[] = [];
  return {
    emit: (value) => {
      for (const listener of listeners) listener(value);
    },
    listen: (listener) => {
      listeners.push(listener);
    },
  };
}
