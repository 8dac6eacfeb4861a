import type { DeskStore } from '../desk-store.ts';

/** "Available": whether the person is there to answer (presence online or offline); the widget's header follows it. */
export function AvailableSwitch({ store, available }: { store: DeskStore; available: boolean }) {
  return (
    <button
      type="button"
      role="switch"
      class="switch"
      aria-checked={available}
      onClick={() => void store.setAvailable(!available)}
    >
      <span class="knob" aria-hidden="true" />
      Available
    </button>
  );
}
