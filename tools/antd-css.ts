/**
 * antd's extracted CSS (`antd/dist/antd.css`, 1 MB, 107 kB gzip) cut by component, so that
 * a route loads the styles of the antd components it loads and no others (issue 28).
 *
 * The file is read once per build and split into its top-level rules. Each rule goes to the
 * components its selectors name first (`.ant-btn…` → `btn`, `.ant-input-number…` →
 * `input-number`: the longest prefix some antd module claims with `getPrefixCls('…')`);
 * rules of `@media`, `@supports` and `@container` blocks likewise, one block per component.
 * Everything else — the theme's CSS variables, the `a` reset, keyframes, the motion classes,
 * classes no module claims by a literal prefix — is the base, which replaces the whole file
 * in `runtime/shell/frame/antd-styles.css` (loaded with antd's frame). Every antd module
 * that calls `getPrefixCls('x')` gets `import 'antd-css:x'`, a CSS file of its own, so
 * Rolldown puts each component's CSS beside the chunk that holds the component.
 *
 * All of it stays in the cascade layer `antd`, so the console's own CSS wins as before.
 * Order across components now follows the order the chunks load; within a component it is
 * antd's. Build only: the development server and the tests keep the whole file.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

const PREFIX_CALL = /getPrefixCls\(\s*['"]([a-z0-9-]+)['"]/g;
const ID = 'antd-css:';

/** The top-level rules of a CSS text (braces matched, strings and comments skipped). */
export function topLevelRules(css: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '/' && css[i + 1] === '*') i = css.indexOf('*/', i + 2) + 1;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      rules.push(css.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  return rules.filter(Boolean);
}

/** The components a selector list belongs to: for each selector, the owner of its first antd class. */
function ownersOf(selector: string, owner: (cls: string) => string | null): Set<string> {
  const out = new Set<string>();
  for (const part of selector.split(',')) {
    const m = /\.ant-([a-z0-9-]+)/.exec(part);
    const o = m ? owner(m[1]) : null;
    // One selector of the list that no component owns keeps the whole rule in the base.
    if (!o) return new Set();
    out.add(o);
  }
  return out;
}

export interface AntdCssSplit {
  base: string;
  byComponent: Map<string, string>;
}

/** Splits antd's CSS among the `prefixes` that modules claim; the rest is the base. */
export function splitAntdCss(css: string, prefixes: Iterable<string>): AntdCssSplit {
  const sorted = [...new Set(prefixes)].sort((a, b) => b.length - a.length);
  const cache = new Map<string, string | null>();
  const owner = (cls: string) => {
    let o = cache.get(cls);
    if (o === undefined) {
      o = sorted.find((p) => cls === p || cls.startsWith(`${p}-`)) ?? null;
      cache.set(cls, o);
    }
    return o;
  };
  const base: string[] = [];
  const parts = new Map<string, string[]>();
  const put = (o: string, text: string) => parts.set(o, [...(parts.get(o) ?? []), text]);
  for (const rule of topLevelRules(css)) {
    const head = rule.slice(0, rule.indexOf('{'));
    if (/^@(media|supports|container)\b/.test(head)) {
      // Inner rules by owner, each owner's in a block of the same condition.
      const inner = topLevelRules(rule.slice(rule.indexOf('{') + 1, -1));
      const groups = new Map<string, string[]>();
      for (const r of inner) {
        const owners = ownersOf(r.slice(0, r.indexOf('{')), owner);
        const keys = owners.size ? [...owners] : [''];
        for (const k of keys) groups.set(k, [...(groups.get(k) ?? []), r]);
      }
      for (const [k, rs] of groups) {
        const block = `${head}{${rs.join('')}}`;
        if (k) put(k, block);
        else base.push(block);
      }
    } else if (head.startsWith('@')) {
      base.push(rule);
    } else {
      const owners = ownersOf(head, owner);
      if (owners.size) for (const o of owners) put(o, rule);
      else base.push(rule);
    }
  }
  return { base: base.join('\n'), byComponent: new Map([...parts].map(([k, v]) => [k, v.join('\n')])) };
}

const layered = (css: string) => `@layer antd{\n${css}\n}\n`;

/** The Vite plugin (build only): see the module comment. */
export function antdCssByComponent(opts: { stylesEntry: RegExp }): Plugin {
  const require = createRequire(import.meta.url);
  let dir = '';
  let base = '';
  let claimed = new Set<string>();
  return {
    name: 'console:antd-css-by-component',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      const antdRoot = dirname(require.resolve('antd/package.json'));
      const cssFile = join(antdRoot, 'dist', 'antd.css');
      const css = readFileSync(cssFile, 'utf8');
      // The prefixes antd's modules claim by a literal.
      claimed = new Set();
      const walk = (d: string) => {
        for (const e of readdirSync(d, { withFileTypes: true })) {
          const p = join(d, e.name);
          if (e.isDirectory()) walk(p);
          else if (e.name.endsWith('.js')) for (const m of readFileSync(p, 'utf8').matchAll(PREFIX_CALL)) claimed.add(m[1]);
        }
      };
      walk(join(antdRoot, 'es'));
      const key = createHash('sha256').update(css).update([...claimed].sort().join(',')).digest('hex').slice(0, 12);
      dir = join(antdRoot, '..', '.cache', 'antd-css', key);
      const split = splitAntdCss(css, claimed);
      base = layered(split.base);
      if (!existsSync(join(dir, 'done'))) {
        mkdirSync(dir, { recursive: true });
        for (const p of claimed) writeFileSync(join(dir, `${p}.css`), layered(split.byComponent.get(p) ?? ''));
        writeFileSync(join(dir, 'done'), '');
      }
    },
    resolveId(source) {
      if (!source.startsWith(ID)) return null;
      return join(dir, `${source.slice(ID.length)}.css`);
    },
    transform(code, id) {
      const file = id.split('?')[0];
      if (opts.stylesEntry.test(file)) return { code: base, map: null };
      if (!/[\\/]node_modules[\\/]antd[\\/]es[\\/].+\.js$/.test(file)) return null;
      const wanted = new Set([...code.matchAll(PREFIX_CALL)].map((m) => m[1]).filter((p) => claimed.has(p)));
      if (!wanted.size) return null;
      return { code: `${[...wanted].map((p) => `import '${ID}${p}';`).join('\n')}\n${code}`, map: null };
    },
  };
}
