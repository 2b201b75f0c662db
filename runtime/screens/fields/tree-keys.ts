/**
 * The checkbox tree's model, pure so it is testable without rendering: nodes read from a
 * reply, and what checking or unchecking a node does to the selection. A permission tree
 * is not a set of independent boxes: a menu entry needs its section and an element code
 * needs its entry, so checking a node checks its ancestors and unchecking one unchecks
 * everything below it.
 */
import { valueAt } from '../../schema/conditions.ts';
import type { TreeSource } from '../../schema/screen.ts';
import { isI18nText, textOf, type Lang } from '../../schema/texts.ts';

export interface TreeNode {
  key: string;
  title: string;
  /** Whether the key belongs to the leaf field rather than to the field itself. */
  leaf: boolean;
  children: TreeNode[];
}

/** The nodes of a reply's data, by the tree source's property names. */
export function treeNodes(data: unknown, source: TreeSource, lang: Lang): TreeNode[] {
  const list = source.rows ? valueAt(data, source.rows) : data;
  const keyOf = source.key ?? 'key';
  const labelOf = source.label ?? 'title';
  const childrenOf = source.children ?? 'children';
  const label = (n: unknown) => {
    const v = valueAt(n, labelOf);
    return isI18nText(v) ? textOf(v, lang) : v === undefined || v === null ? String(valueAt(n, keyOf) ?? '') : String(v);
  };
  const build = (items: unknown, leaf: boolean): TreeNode[] =>
    (Array.isArray(items) ? items : []).map((n) => ({
      key: String(valueAt(n, keyOf) ?? ''),
      title: label(n),
      leaf,
      children: [...(source.leaves ? build(valueAt(n, source.leaves), true) : []), ...(leaf ? [] : build(valueAt(n, childrenOf), false))],
    }));
  return build(list, false);
}

function index(nodes: TreeNode[]): { parent: Map<string, string | null>; node: Map<string, TreeNode> } {
  const parent = new Map<string, string | null>();
  const node = new Map<string, TreeNode>();
  const walk = (list: TreeNode[], p: string | null) => {
    for (const n of list) {
      parent.set(n.key, p);
      node.set(n.key, n);
      walk(n.children, n.key);
    }
  };
  walk(nodes, null);
  return { parent, node };
}

/** The selection after (un)checking `key`: ancestors come with a checked node, descendants go with an unchecked one. */
export function toggleKey(nodes: TreeNode[], selected: readonly string[], key: string, checked: boolean): string[] {
  const { parent, node } = index(nodes);
  const out = new Set(selected);
  if (checked) {
    for (let k: string | null | undefined = key; k; k = parent.get(k)) out.add(k);
  } else {
    const drop = (n: TreeNode | undefined) => {
      if (!n) return;
      out.delete(n.key);
      n.children.forEach(drop);
    };
    if (node.has(key)) drop(node.get(key));
    else out.delete(key);
  }
  return [...out];
}

/** Splits a selection into the field's keys and the leaf field's keys, each in tree order. */
export function splitKeys(nodes: TreeNode[], selected: readonly string[]): { own: string[]; leaves: string[] } {
  const chosen = new Set(selected);
  const own: string[] = [];
  const leaves: string[] = [];
  const walk = (list: TreeNode[]) => {
    for (const n of list) {
      if (chosen.has(n.key)) (n.leaf ? leaves : own).push(n.key);
      walk(n.children);
    }
  };
  walk(nodes);
  return { own, leaves };
}

/** Every key of a node that has children: what "expand all" opens. */
export function branchKeys(nodes: TreeNode[]): string[] {
  const out: string[] = [];
  const walk = (list: TreeNode[]) => {
    for (const n of list) {
      if (n.children.length) out.push(n.key);
      walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

/** A node and everything below it, in tree order. */
export function subtreeKeys(node: TreeNode): string[] {
  return [node.key, ...node.children.flatMap(subtreeKeys)];
}

/**
 * The tree narrowed to what matches `query` (title or key, case-insensitive): a matching
 * node keeps its whole subtree, and every match keeps its ancestors so it is shown where
 * it lives. `matches` are the keys whose own title or key matched, for highlighting.
 */
export function filterTree(nodes: TreeNode[], query: string): { nodes: TreeNode[]; matches: Set<string> } {
  const q = query.trim().toLowerCase();
  const matches = new Set<string>();
  if (!q) return { nodes, matches };
  const hit = (n: TreeNode) => n.title.toLowerCase().includes(q) || n.key.toLowerCase().includes(q);
  const mark = (n: TreeNode) => {
    if (hit(n)) matches.add(n.key);
    n.children.forEach(mark);
  };
  const keep = (list: TreeNode[]): TreeNode[] =>
    list.flatMap((n) => {
      if (hit(n)) {
        mark(n);
        return [n];
      }
      const children = keep(n.children);
      return children.length ? [{ ...n, children }] : [];
    });
  return { nodes: keep(nodes), matches };
}

/** What a save grants and removes within one top-level node (a menu section). */
export interface SectionChange {
  key: string;
  title: string;
  /** Names of the granted nodes; an element code reads «entry › element». */
  granted: string[];
  removed: string[];
}

/** The difference between two selections, by name, grouped under the top-level node it falls in, in tree order. */
export function changeSummary(nodes: TreeNode[], before: readonly string[], after: readonly string[]): SectionChange[] {
  const was = new Set(before);
  const now = new Set(after);
  const out: SectionChange[] = [];
  for (const section of nodes) {
    const change: SectionChange = { key: section.key, title: section.title, granted: [], removed: [] };
    const walk = (n: TreeNode, parent: TreeNode | null) => {
      const name = n.leaf && parent ? `${parent.title} › ${n.title}` : n.title;
      if (now.has(n.key) && !was.has(n.key)) change.granted.push(name);
      if (was.has(n.key) && !now.has(n.key)) change.removed.push(name);
      for (const c of n.children) walk(c, n);
    };
    walk(section, null);
    if (change.granted.length || change.removed.length) out.push(change);
  }
  return out;
}
