import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressPlugin } from './tools/precompress.ts';

// The console: index.html at the root, runtime/main.tsx as the entry, dist/ as the output
// that the API server serves. In development /api goes to the API server (npm run dev).
export default defineConfig({
  // precompressPlugin: .br and .gz copies of every text file, served by server/http/static.ts.
  plugins: [react(), iconsByFile(), precompressPlugin()],
  publicDir: 'public',
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      '/api': { target: process.env.API_URL ?? 'http://localhost:8080', changeOrigin: true },
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
        // Big vendors in chunks of their own, so a change of the console's code leaves them
        // cached. The renderers (rjsf, echarts, the grid) are reached only through dynamic
        // imports (runtime/screens/ScreenView.tsx), so their vendor chunks load on demand.
        // antd takes only what the login page and the shell use; components that only
        // screens use fall to the automatic chunks of those screens.
        codeSplitting: {
          groups: [
            { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 100 },
            { name: 'vendor-ajv', test: /node_modules[\\/](ajv|ajv-formats|fast-deep-equal|fast-uri|json-schema-traverse|require-from-string)[\\/]/, priority: 90 },
            { name: 'vendor-router', test: /node_modules[\\/](react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/, priority: 80 },
            { name: 'vendor-i18n', test: /node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements|use-sync-external-store)[\\/]/, priority: 80 },
            { name: 'vendor-antd', test: /node_modules[\\/](antd|@ant-design[\\/](?!icons)|@rc-component|rc-[^\\/]+|@babel[\\/]runtime|classnames|dayjs|stylis|@emotion)[\\/]?/, tags: ['$initial'], priority: 70 },
            { name: 'vendor-rjsf', test: /node_modules[\\/](@rjsf|ajv-i18n|lodash|lodash-es|jsonpointer|json-schema-merge-allof|compute-[^\\/]+|validate\.io-[^\\/]+|markdown-to-jsx|nanoid|react-is)[\\/]/, priority: 60 },
            { name: 'vendor-echarts', test: /node_modules[\\/](echarts|zrender|tslib)[\\/]/, priority: 60 },
            { name: 'vendor-tanstack', test: /node_modules[\\/]@tanstack[\\/]/, priority: 60 },
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
function iconsByFile(): Plugin {
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
