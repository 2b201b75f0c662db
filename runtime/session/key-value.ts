/** Where the session keeps a value: cookies or localStorage in the browser, memory in tests. */
export interface KeyValueStore {
  get(name: string): string | undefined;
  set(name: string, value: string, options?: { days?: number }): void;
  remove(name: string): void;
}

/**
 * document.cookie, path `/`, SameSite=Lax. Without `days` a cookie lives for the browser
 * session, as the token does; preferences (language, size, sidebar) pass `days`.
 */
export function browserCookies(doc: Document = document): KeyValueStore {
  return {
    get(name) {
      for (const part of doc.cookie.split(';')) {
        const eq = part.indexOf('=');
        if (eq < 0) continue;
        if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
      }
      return undefined;
    },
    set(name, value, options) {
      const expires = options?.days ? `; expires=${new Date(Date.now() + options.days * 86_400_000).toUTCString()}` : '';
      doc.cookie = `${name}=${encodeURIComponent(value)}; path=/; SameSite=Lax${expires}`;
    },
    remove(name) {
      doc.cookie = `${name}=; path=/; SameSite=Lax; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
    },
  };
}

export function browserLocalStorage(storage: Storage = localStorage): KeyValueStore {
  return {
    get: (name) => storage.getItem(name) ?? undefined,
    set: (name, value) => storage.setItem(name, value),
    remove: (name) => storage.removeItem(name),
  };
}

export function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { dump(): Record<string, string> } {
  const values = new Map(Object.entries(initial));
  return {
    get: (name) => values.get(name),
    set: (name, value) => void values.set(name, value),
    remove: (name) => void values.delete(name),
    dump: () => Object.fromEntries(values),
  };
}
