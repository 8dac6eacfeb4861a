/**
 * What the widget remembers per site key on this device. Storage may be unavailable (private
 * modes, blocked third-party storage); the widget then works for the page's lifetime only.
 *
 * Until the visitor consents (`Parley('consent', false)` … `Parley('consent', true)`, issue 35) it
 * holds everything in memory and writes nothing to the device; consent moves it to localStorage,
 * and consent withdrawn moves it back and leaves nothing stored.
 */
export function siteStorage(siteKey: string) {
  const prefix = `parley:${siteKey}:`;
  // Set while consent is withheld: what would be stored, by name.
  let held: Map<string, string> | undefined;
  const keys = () => {
    try {
      return Object.keys(localStorage).filter((key) => key.startsWith(prefix));
    } catch {
      return [];
    }
  };
  return {
    get(name: string): string | undefined {
      try {
        return (held ? held.get(name) : localStorage.getItem(prefix + name)) ?? undefined;
      } catch {
        return undefined;
      }
    },
    getJson<T>(name: string, fallback: T): T {
      try {
        // Nothing stored (undefined) does not parse either.
        return JSON.parse(this.get(name)!) as T;
      } catch {
        return fallback;
      }
    },
    set(name: string, value: string): void {
      try {
        if (held) held.set(name, value);
        else localStorage.setItem(prefix + name, value);
      } catch {
        // Storage is full or blocked: keep going without it.
      }
    },
    setJson(name: string, value: unknown): void {
      this.set(name, JSON.stringify(value));
    },
    remove(name: string): void {
      held?.delete(name);
      try {
        localStorage.removeItem(prefix + name);
      } catch {
        // As above.
      }
    },
    /**
     * Resolves once `name` holds a value on this page: at once, when another tab's write reaches
     * this one (localStorage reaches other tabs a little later, in a `storage` event), or after
     * `timeoutMs`.
     */
    whenSet(name: string, timeoutMs: number): Promise<void> {
      return new Promise((resolve) => {
        if (this.get(name) !== undefined) return resolve();
        // The listener goes when the time is up (a value that came first already resolved).
        const signal = AbortSignal.timeout(timeoutMs);
        signal.onabort = () => resolve();
        addEventListener('storage', (event) => event.key === prefix + name && event.newValue && resolve(), { signal });
      });
    },
    /** Forgets everything stored for this site. */
    clear(): void {
      held?.clear();
      for (const key of keys()) this.remove(key.slice(prefix.length));
    },
    /** Given, what was held moves to the device; withheld, what the device has moves into memory. */
    consent(given: boolean): void {
      if (given === !held) return;
      const moving = new Map<string, string>(
        held ?? keys().map((key) => [key.slice(prefix.length), localStorage.getItem(key)!]),
      );
      this.clear();
      held = given ? undefined : moving;
      for (const [name, value] of moving) this.set(name, value);
    },
  };
}

export type SiteStorage = ReturnType<typeof siteStorage>;
