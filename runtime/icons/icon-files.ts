/**
 * Every icon file of @ant-design/icons by name, each a chunk of its own. The table itself
 * (849 names, 170 kB raw) is a chunk too: by-name.ts imports it on the first icon asked
 * for, so the login page does not carry it.
 */
import type { IconComponent } from './by-name.ts';

const files = import.meta.glob<IconComponent>('/node_modules/@ant-design/icons/es/icons/*.js', { import: 'default' });

export const iconFiles = new Map<string, () => Promise<IconComponent>>();
for (const [path, load] of Object.entries(files)) iconFiles.set(path.slice(path.lastIndexOf('/') + 1, -'.js'.length), load);
