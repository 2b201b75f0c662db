/**
 * The bundled documents read from a `schemas/` folder on disk, for Node (the server, the
 * tools, the tests). The browser uses bundled.ts, which Vite fills at build time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { documentTypeOfPath, type DocumentSource, type SourceDocument } from './registry.ts';

/** Every menus, resource and screen document under `root/schemas`, named by their path relative to `root`. */
export function folderSource(root: string, name = 'bundled'): DocumentSource {
  return {
    name,
    documents(): SourceDocument[] {
      const out: SourceDocument[] = [];
      const walk = (dir: string) => {
        for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
          const full = join(dir, entry.name);
          if (entry.isDirectory()) walk(full);
          else {
            const file = relative(root, full).split(sep).join('/');
            const type = documentTypeOfPath(file);
            if (type) out.push({ file, type, content: readFileSync(full, 'utf8') });
          }
        }
      };
      walk(join(root, 'schemas'));
      return out;
    },
  };
}
