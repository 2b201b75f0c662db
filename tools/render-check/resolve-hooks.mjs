// Module resolution of the render worker, as the console's bundler (vite) and the snapshot
// suite (vitest) resolve: a package without an `exports` map is entered by its `module`
// (ES) file rather than its `main` (CommonJS) one.
//
// Why: Node gives an ES module importing a CommonJS one its `module.exports` as the default
// export, whatever `__esModule` says; bundlers give `exports.default`. antd's date pickers
// are ES files (the console fetches `antd/es/date-picker` on demand) whose
// `@rc-component/picker` imports `@rc-component/trigger` by default import; entered by its
// CommonJS `main`, that default is `{ default: Trigger, … }`, and every picker threw
// "Element type is invalid … Check the render method of `PickerTrigger`" in the render
// check (not in vitest, not in the browser). Entered by its `module` file, it is Trigger.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const entries = new Map();

/** The package root and name of a bare specifier that names a package itself (no subpath), or null. */
function packageOnly(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.includes(':')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return name === specifier ? name : null;
}

/** The root folder of the package `name` a resolved file belongs to. */
function rootOf(file, name) {
  const marker = `/node_modules/${name}/`;
  const at = file.lastIndexOf(marker);
  return at < 0 ? null : file.slice(0, at + marker.length - 1);
}

/** The `module` entry of a package without `exports`, or null. */
function moduleEntry(root) {
  if (entries.has(root)) return entries.get(root);
  let entry = null;
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    if (!pkg.exports && typeof pkg.module === 'string') {
      const base = join(root, pkg.module);
      const found = [base, `${base}.js`, join(base, 'index.js')].find((f) => statSync(f, { throwIfNoEntry: false })?.isFile());
      if (found) entry = pathToFileURL(found).href;
    }
  } catch {
    // no package.json: leave it to Node
  }
  entries.set(root, entry);
  return entry;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const name = packageOnly(specifier);
  // Only where the interop bites: an ES file of a package (antd/es, @rc-component/*/es)
  // importing a package. The runtime's own imports keep Node's resolution (CommonJS
  // entries load in half the time).
  const parent = context.parentURL ?? '';
  if (!name || !resolved.url.startsWith('file:') || !parent.includes('/node_modules/') || !/\/es\//.test(parent)) return resolved;
  const file = fileURLToPath(resolved.url);
  if (!file.endsWith('.js') && !file.endsWith('.cjs')) return resolved;
  const root = rootOf(file, name);
  const entry = root ? moduleEntry(root) : null;
  return entry && entry !== resolved.url ? { ...resolved, url: entry, format: 'module' } : resolved;
}

// A widget's style sheet (`import './x.css'`): the bundler injects it; a render in jsdom
// needs none of it (the snapshots do not either). Without this, a widget importing CSS never
// loaded in the worker and its screen timed out behind its skeleton (equipment control, maps).
const STYLE = /\.(css|less|scss)(\?.*)?$/;

export async function load(url, context, next) {
  if (STYLE.test(url)) return { format: 'module', source: 'export default {};', shortCircuit: true };
  return next(url, context);
}
