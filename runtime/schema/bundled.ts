/**
 * The documents bundled with the console: Vite inlines every JSON file under `schemas/`
 * at build time, so the console starts with the same set the repository holds. Node code
 * reads the folder instead (folder-source.ts).
 *
 * Trusted: the build checks them all (the `console:schemas-checked` plugin of
 * vite.config.ts fails the build on any error, as schemas:check does), so the console
 * does not validate them again at every start (except under the development server).
 */
import { documentTypeOfPath, type DocumentSource, type SourceDocument } from './registry-core.ts';

const files = import.meta.glob('../../schemas/**/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

export const bundledSource: DocumentSource = {
  name: 'bundled',
  // Under the development server (HMR) documents change while it runs and no build has
  // checked them: there they are validated at start like any other source.
  trusted: !import.meta.hot,
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
