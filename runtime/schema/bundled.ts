/**
 * The documents bundled with the console: Vite inlines every JSON file under `schemas/`
 * at build time, so the console starts with the same set the repository holds. Node code
 * reads the folder instead (folder-source.ts).
 */
import { documentTypeOfPath, type DocumentSource, type SourceDocument } from './registry.ts';

const files = import.meta.glob('../../schemas/**/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

export const bundledSource: DocumentSource = {
  name: 'bundled',
  documents(): SourceDocument[] {
    const out: SourceDocument[] = [];
    for (const [path, content] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
      const file = path.replace(/^(\.\.\/)+/, '');
      const type = documentTypeOfPath(file);
      if (type) out.push({ file, type, content });
    }
    return out;
  },
};
