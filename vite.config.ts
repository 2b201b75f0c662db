import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressPlugin } from './tools/precompress.ts';
import { antdCssByComponent } from './tools/antd-css.ts';

// The console: index.html at the root, runtime/main.tsx as the entry, dist/ as the output
// that the API server serves. In development /api goes to the API server (npm run dev).
export default defineConfig({
  // precompressPlugin: .br and .gz copies of every text file, served by server/http/static.ts.
  // antdCssByComponent: antd's static CSS cut by component, each beside its chunk (tools/antd-css.ts).
  plugins: [react(), iconsByFile(), screenHelpApart(), schemasChecked(), antdCssByComponent({ stylesEntry: /[\\/]runtime[\\/]shell[\\/]frame[\\/]antd-styles\.css$/ }), precompressPlugin()],
  publicDir: 'public',
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      '/api': { target: process.env.API_URL ?? 'http://localhost:8080', changeOrigin: true },
      // The consumer's trace page and its QR image are the server's, outside the console.
      '/t/': { target: process.env.API_URL ?? 'http://localhost:8080', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The whole icon set (loaded on demand for icons named in data) and antd are the two
    // chunks near a megabyte; anything larger is worth a warning.
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      output: {
        // The vendors every page stands on in chunks of their own, so a change of the
        // console's code leaves them cached. Libraries only a kind of screen uses (rjsf and
        // ajv with forms, echarts with charts, tanstack with tables) get no group: a group
        // also captures the small helpers they share with others (react-is, lodash...) and
        // then every route that needs one of those loads the whole group. Reached only
        // through dynamic imports (runtime/screens/ScreenView.tsx), they fall to the
        // automatic chunks of the screens that use them. antd gets no group either: the
        // login page renders without it, and each route takes the components it uses.
        codeSplitting: {
          groups: [
            { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 100 },
            { name: 'vendor-router', test: /node_modules[\\/](react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/, priority: 80 },
            { name: 'vendor-i18n', test: /node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements|use-sync-external-store)[\\/]/, priority: 80 },
          ],
        },
      },
    },
  },
});

/**
 * `import { UserOutlined } from '@ant-design/icons'` goes through the package's index, and
 * the index names every icon: since menus and schemas name icons in data, the whole set is
 * also loaded on demand (MenuIcon, SchemaIcon), and a static import of the index would make
 * that megabyte part of the first load. Named imports (ours and those of libraries such as
 * @rjsf/antd) are rewritten to one file per icon.
 */
export function iconsByFile(): Plugin {
  const named = /import\s*\{([^}]*)\}\s*from\s*['"]@ant-design\/icons['"];?/g;
  return {
    name: 'console:icons-by-file',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('node_modules/@ant-design/icons/') || !/\.[cm]?[jt]sx?$/.test(id.split('?')[0]) || !code.includes('@ant-design/icons')) return null;
      const out = code.replace(named, (_, names: string) =>
        names
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n && !n.startsWith('type '))
          .map((n) => {
            const [imported, local = imported] = n.split(/\s+as\s+/);
            return `import ${local} from '@ant-design/icons/es/icons/${imported}';`;
          })
          .join('\n'),
      );
      return out === code ? null : { code: out, map: null };
    },
  };
}

/**
 * The screens' quick guides (`help`, three languages of prose each) in a chunk of their own
 * (runtime/app/screen-help.ts), fetched when the instruction dialog opens, rather than in
 * the documents every route after login loads. A build takes `help` out of each screen
 * document it bundles; `<document>.json?help` is the document's id and help alone (a
 * module of its own, so that Vite's JSON handling never sees it). The development server
 * keeps the documents whole.
 */
export function screenHelpApart(): Plugin {
  const SCREEN = /[\\/]schemas[\\/]screens[\\/].+\.json$/;
  const PREFIX = '\0screen-help:';
  let build = false;
  return {
    name: 'console:screen-help',
    enforce: 'pre',
    configResolved(config) {
      build = config.command === 'build';
    },
    async resolveId(source, importer) {
      if (!source.endsWith('.json?help')) return null;
      const resolved = await this.resolve(source.slice(0, -'?help'.length), importer, { skipSelf: true });
      // Not ending in .json: the JSON transform (Vite's own) goes by the extension.
      return resolved ? `${PREFIX}${resolved.id}.js` : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const file = id.slice(PREFIX.length, -'.js'.length);
      this.addWatchFile(file);
      const doc = JSON.parse(readFileSync(file, 'utf8')) as { id?: string; help?: unknown };
      return `export default ${JSON.stringify({ id: doc.id ?? null, help: doc.help ?? null })};`;
    },
    transform(code, id) {
      if (!build || id.startsWith(PREFIX) || !SCREEN.test(id)) return null;
      const doc = JSON.parse(code) as Record<string, unknown>;
      if (!('help' in doc)) return null;
      delete doc.help;
      return { code: JSON.stringify(doc), map: null };
    },
  };
}

/**
 * The console takes the documents it bundles as they are (runtime/schema/bundled.ts): it
 * does not validate them at start. So the build validates them: meta-schemas and the rules
 * across documents, as schemas:check does (without the server's routes, which
 * schemas:check in `npm test` adds), and an error fails the build.
 */
function schemasChecked(): Plugin {
  return {
    name: 'console:schemas-checked',
    apply: 'build',
    async buildStart() {
      const { loadRegistry, formatProblems } = await import('./runtime/schema/registry.ts');
      const { folderSource } = await import('./runtime/schema/folder-source.ts');
      const registry = await loadRegistry([folderSource(import.meta.dirname)]);
      if (registry.errors.length) this.error(`the bundled schema documents have ${registry.errors.length} error(s); see npm run schemas:check\n${formatProblems(registry.errors)}`);
    },
  };
}
