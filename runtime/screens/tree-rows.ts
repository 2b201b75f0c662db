/**
 * Rows of a tree table (docs/schema-language.md, "Tree tables") flattened into the order
 * the grid shows them: each row followed by its children while it is expanded, with its
 * depth and whether it has children. Rows come nested (`children`) or flat with a parent
 * field; a row whose parent is not among the rows is a root (and so is a row caught in
 * a parent cycle), so a filtered page still shows every row it holds, each once.
 */
import { valueAt } from '../schema/conditions.ts';
import type { TreeTable } from '../schema/screen.ts';

export type Row = Record<string, unknown>;

export interface TreeRowInfo {
  depth: number;
  hasChildren: boolean;
}

export interface FlatTree {
  rows: Row[];
  info: Map<string, TreeRowInfo>;
  /** Keys of every row with children (to expand or collapse all). */
  branches: string[];
}

export function flattenTree(rows: Row[], tree: TreeTable, rowKey: (r: Row) => string, collapsed: ReadonlySet<string>): FlatTree {
  const childrenOf = new Map<string, Row[]>();
  let roots: Row[];
  if (tree.parentField) {
    const keys = new Set(rows.map(rowKey));
    roots = [];
    for (const r of rows) {
      const p = valueAt(r, tree.parentField);
      const pk = p === undefined || p === null || p === '' ? null : String(p);
      if (pk === null || !keys.has(pk) || pk === rowKey(r)) roots.push(r);
      else childrenOf.set(pk, [...(childrenOf.get(pk) ?? []), r]);
    }
  } else {
    roots = rows;
    const field = tree.children ?? 'children';
    const collect = (list: Row[]) => {
      for (const r of list) {
        const kids = valueAt(r, field);
        if (Array.isArray(kids) && kids.length) {
          childrenOf.set(rowKey(r), kids as Row[]);
          collect(kids as Row[]);
        }
      }
    };
    collect(rows);
  }
  const out: Row[] = [];
  const info = new Map<string, TreeRowInfo>();
  const seen = new Set<string>();
  const walk = (list: Row[], depth: number) => {
    for (const r of list) {
      const key = rowKey(r);
      // A cycle in the data (a row listed under its own descendant) is shown once.
      if (seen.has(key)) continue;
      seen.add(key);
      const kids = childrenOf.get(key) ?? [];
      out.push(r);
      info.set(key, { depth, hasChildren: kids.length > 0 });
      if (kids.length && !collapsed.has(key)) walk(kids, depth + 1);
    }
  };
  walk(roots, 0);
  // Rows caught in a parent cycle have no root: they are shown as roots rather than lost.
  if (tree.parentField) for (const r of rows) if (!seen.has(rowKey(r))) walk([r], 0);
  return { rows: out, info, branches: [...childrenOf.keys()] };
}
