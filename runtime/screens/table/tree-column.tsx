/**
 * A tree table's first column (docs/schema-language.md, "Tree tables"): the page's rows
 * flattened in the order the grid shows them (tree-rows.ts), and the first column's cell
 * indented by depth with the expand / collapse toggle of a branch. Branches are expanded
 * unless `tree.expanded` is false; the set holds those the user toggled away from that.
 */
import { CaretDownOutlined, CaretRightOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TreeTable } from '../../schema/screen.ts';
import type { GridColumn, GridRow } from '../DataGrid.tsx';
import { flattenTree } from '../tree-rows.ts';

/** Without a tree: the rows and columns as they are. */
export function useTreeColumn(
  tree: TreeTable | undefined,
  pageRows: GridRow[],
  rowKey: (r: GridRow) => string,
  columns: GridColumn[],
): { rows: GridRow[]; columns: GridColumn[] } {
  const { t } = useTranslation();
  const [toggled, setToggled] = useState<ReadonlySet<string>>(new Set());
  const flat = useMemo(() => {
    if (!tree) return null;
    const all = flattenTree(pageRows, tree, rowKey, new Set());
    const collapsed = tree.expanded === false ? new Set(all.branches.filter((b) => !toggled.has(b))) : toggled;
    return flattenTree(pageRows, tree, rowKey, collapsed);
  }, [tree, pageRows, rowKey, toggled]);
  const shown = useMemo<GridColumn[]>(() => {
    if (!flat || !columns.length) return columns;
    const [first, ...rest] = columns;
    const isExpanded = (key: string) => (tree?.expanded === false ? toggled.has(key) : !toggled.has(key));
    const toggle = (key: string) =>
      setToggled((prev) => {
        const next = new Set(prev);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      });
    const cell = (r: GridRow) => {
      const key = rowKey(r);
      const info = flat.info.get(key) ?? { depth: 0, hasChildren: false };
      const open = isExpanded(key);
      return (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4, paddingLeft: info.depth * 20 }}>
          {info.hasChildren ? (
            <Button
              type="text"
              size="small"
              aria-expanded={open}
              aria-label={t(open ? 'screens.table.collapse' : 'screens.table.expand')}
              icon={open ? <CaretDownOutlined /> : <CaretRightOutlined />}
              onClick={() => toggle(key)}
            />
          ) : (
            <span style={{ display: 'inline-block', width: 24 }} />
          )}
          {first.render ? first.render(r) : first.text(r)}
        </span>
      );
    };
    return [{ ...first, render: cell }, ...rest];
  }, [flat, columns, rowKey, toggled, tree, t]);
  return { rows: flat ? flat.rows : pageRows, columns: shown };
}
