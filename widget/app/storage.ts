/**
 * What the widget remembers per site key on this device. Storage may be unavailable (private
 * modes, blocked third-party storage); the widget then works for the page's lifetime only.
 */
export function siteStorage(siteKey: string) {
  const prefix = `parley:${siteKey}:`;
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
        return localStorage.getItem(prefix + name) ?? undefined;
      } catch {
        return undefined;
      }
    },
    getJson<T>(name: string, fallback: T): T {
      const text = this.get(name);
      if (!text) return fallback;
      try {
        return JSON.parse(text) as T;
      } catch {
        return fallback;
      }
    },
    set(name: string, value: string): void {
      try {
        localStorage.setItem(prefix + name, value);
      } catch {
        // Storage is full or blocked: keep going without it.
      }
    },
    setJson(name: string, value: unknown): void {
      this.set(name, JSON.stringify(value));
    },
    remove(name: string): void {
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
        const done = () => {
          removeEventListener('storage', written);
          clearTimeout(timer);
          resolve();
        };
        const written = (event: StorageEvent) => {
          if (event.key === prefix + name && event.newValue) done();
        };
        const timer = setTimeout(done, timeoutMs);
        addEventListener('storage', written);
      });
    },
    /** Forgets everything stored for this site. */
    clear(): void {
      for (const key of keys()) {
        try {
          localStorage.removeItem(key);
        } catch {
          // As above.
        }
      }
    },
  };
}

export type SiteStorage = ReturnType<typeof siteStorage>;
