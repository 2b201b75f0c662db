/**
 * Icons by the name data gives them ("PlusOutlined"), each loaded on demand as a file of
 * its own. Menus and schemas name icons in data, so any of @ant-design/icons may be asked
 * for; importing the package's index for that brought the whole set (930 kB, 188 kB gzip)
 * to every session. Here each icon is one small chunk (Vite's glob makes one per file),
 * fetched the first time something names it and remembered afterwards.
 */
import type { ComponentType } from 'react';

export type IconComponent = ComponentType<{ 'aria-hidden'?: boolean }>;

let files: Promise<Map<string, () => Promise<IconComponent>>> | undefined;
function iconFiles(): Promise<Map<string, () => Promise<IconComponent>>> {
  files ??= import('./icon-files.ts').then(
    (m) => m.iconFiles,
    (err: unknown) => {
      files = undefined;
      throw err;
    },
  );
  return files;
}

const ICON_NAME = /^[A-Z][A-Za-z0-9]*(Outlined|Filled|TwoTone)$/;
const loaded = new Map<string, IconComponent | null>();
const pending = new Map<string, Promise<IconComponent | null>>();

/** The icon if it has already loaded; undefined while unknown or in flight, null for no such icon. */
export function loadedIcon(name: string): IconComponent | null | undefined {
  if (!ICON_NAME.test(name)) return null;
  return loaded.get(name);
}

/** Loads the icon named `name` (once); null for a name that is no icon. */
export function loadIcon(name: string): Promise<IconComponent | null> {
  const known = loaded.get(name);
  if (known !== undefined) return Promise.resolve(known);
  if (!ICON_NAME.test(name)) return Promise.resolve(null);
  let p = pending.get(name);
  if (!p) {
    p = iconFiles()
      .then((byName) => byName.get(name)?.() ?? null)
      .then(
        (icon) => {
          loaded.set(name, icon);
          return icon;
        },
        () => {
          // A failed fetch (offline, new deployment) is tried again next time.
          pending.delete(name);
          return null;
        },
      );
    pending.set(name, p);
  }
  return p;
}

/** Loads every named icon (tests render synchronously once they are in). */
export async function preloadIcons(names: Iterable<string>): Promise<void> {
  await Promise.all([...new Set(names)].map(loadIcon));
}
