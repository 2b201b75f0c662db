/**
 * The table body of every list: @tanstack/react-table holds the headless state (columns,
 * visibility, sorting, selection) and this component draws it with antd's tokens and
 * controls. Pages longer than VIRTUAL_FROM rows are virtualised with
 * @tanstack/react-virtual (spacer rows above and below the rendered window), so a page of
 * 10,000 rows renders only what the viewport shows; shorter pages render every row, which
 * keeps them searchable by the browser and by tests.
 */
import { Checkbox, Empty, Radio, Spin, theme } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import {
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type Row,
  type RowSelectionState,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type GridRow = Record<string, unknown>;

export interface GridColumn {
  id: string;
  title: string;
  width?: number;
  sortable?: boolean;
  fixed?: 'left' | 'right';
  align?: 'left' | 'center' | 'right';
  ellipsis?: boolean;
  /** Plain text of the cell (exports, tooltips). */
  text: (row: GridRow) => string;
  /** The cell's content; text when absent. */
  render?: (row: GridRow) => ReactNode;
}

export interface DataGridProps {
  columns: GridColumn[];
  rows: GridRow[];
  rowKey: (row: GridRow) => string;
  selection?: 'none' | 'single' | 'multiple';
  selected?: RowSelectionState;
  onSelectedChange?: (next: RowSelectionState) => void;
  sorting?: SortingState;
  onSortingChange?: (next: SortingState) => void;
  visibility?: VisibilityState;
  /** Buttons of a row (row actions); the column is fixed right. */
  rowActions?: (row: GridRow) => ReactNode;
  actionsWidth?: number;
  actionsTitle?: string;
  loading?: boolean;
  /** Shown instead of the empty state (an error with its retry). */
  failure?: ReactNode;
  /** Height of the scrolling body when virtualised; default 560 px. */
  height?: number;
  caption?: string;
}

export const VIRTUAL_FROM = 100;
const ROW_HEIGHT = 40;
const SELECT_WIDTH = 48;
const DEFAULT_WIDTH = 150;

const STYLE_ID = 'schema-grid-style';
const CSS = `
.sg-scroll{overflow:auto;position:relative;border:1px solid var(--sg-border);border-radius:var(--sg-radius)}
.sg-table{border-collapse:separate;border-spacing:0;table-layout:fixed;font-size:var(--sg-font);color:var(--sg-text)}
.sg-table th{position:sticky;top:0;z-index:2;background:linear-gradient(var(--sg-head-bg),var(--sg-head-bg)),var(--sg-bg);font-weight:600;text-align:left;padding:0 12px;height:${ROW_HEIGHT + 6}px;border-bottom:1px solid var(--sg-border)}
.sg-table td{padding:0 12px;height:${ROW_HEIGHT}px;border-bottom:1px solid var(--sg-border);background:var(--sg-bg);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.sg-table tr:hover>td{background:linear-gradient(var(--sg-hover),var(--sg-hover)),var(--sg-bg)}
.sg-table tr.sg-selected>td{background:linear-gradient(var(--sg-selected),var(--sg-selected)),var(--sg-bg)}
.sg-table td.sg-sticky,.sg-table th.sg-sticky{box-shadow:inset 1px 0 0 var(--sg-border)}
.sg-table .sg-wrap{white-space:normal}
.sg-table .sg-sticky{position:sticky;z-index:1}
.sg-table th.sg-sticky{z-index:3}
.sg-sort{all:unset;cursor:pointer;display:inline-flex;gap:4px;align-items:center}
.sg-sort:focus-visible{outline:2px solid var(--sg-primary)}
.sg-sort-icon{color:var(--sg-primary);font-size:12px}
.sg-overlay{position:absolute;inset:0;display:grid;place-items:center;background:var(--sg-mask);z-index:4}
.sg-empty{padding:32px 0}
`;

function ensureStyle(): void {
  if (typeof document === 'undefined' || document.getElementById(STYLE_ID)) return;
  const el = document.createElement('style');
  el.id = STYLE_ID;
  el.textContent = CSS;
  document.head.appendChild(el);
}

export function DataGrid(props: DataGridProps) {
  ensureStyle();
  const { token } = theme.useToken();
  const { t } = useTranslation();
  const selection = props.selection ?? 'none';
  const scrollRef = useRef<HTMLDivElement>(null);

  const defs = useMemo<ColumnDef<GridRow>[]>(
    () => props.columns.map((c) => ({ id: c.id, header: c.title, enableSorting: !!c.sortable, accessorFn: (r) => c.text(r), meta: c })),
    [props.columns],
  );
  const table = useReactTable<GridRow>({
    data: props.rows,
    columns: defs,
    state: { sorting: props.sorting ?? [], rowSelection: props.selected ?? {}, columnVisibility: props.visibility ?? {} },
    onSortingChange: (u) => props.onSortingChange?.(typeof u === 'function' ? u(props.sorting ?? []) : u),
    onRowSelectionChange: (u) => props.onSelectedChange?.(typeof u === 'function' ? u(props.selected ?? {}) : u),
    getRowId: (r) => props.rowKey(r),
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    enableRowSelection: selection !== 'none',
    enableMultiRowSelection: selection === 'multiple',
    enableSortingRemoval: true,
  });

  const visible = table.getVisibleLeafColumns().map((c) => c.columnDef.meta as GridColumn);
  const layout = useMemo(() => columnLayout(visible, selection !== 'none', !!props.rowActions, props.actionsWidth), [visible.map((c) => c.id).join('|'), props.columns, selection, !!props.rowActions, props.actionsWidth]); // eslint-disable-line react-hooks/exhaustive-deps -- new columns (labels that arrived) must reach the memoised rows
  const rows = table.getRowModel().rows;
  const virtual = rows.length > VIRTUAL_FROM;
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT + 1,
    overscan: 8,
    initialRect: { width: 1200, height: props.height ?? 560 },
  });
  const items = virtual ? virtualizer.getVirtualItems() : [];
  const padTop = virtual && items.length ? items[0].start : 0;
  const padBottom = virtual && items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const shown: Row<GridRow>[] = virtual ? items.map((i) => rows[i.index]) : rows;
  const span = layout.cells.length;

  const cssVars = {
    '--sg-border': token.colorBorderSecondary,
    '--sg-radius': `${token.borderRadiusLG}px`,
    '--sg-font': `${token.fontSize}px`,
    '--sg-text': token.colorText,
    '--sg-head-bg': token.colorFillAlter,
    '--sg-bg': token.colorBgContainer,
    '--sg-hover': token.controlItemBgHover,
    '--sg-selected': token.controlItemBgActive,
    '--sg-primary': token.colorPrimary,
    '--sg-mask': 'rgba(255,255,255,0.55)',
  } as CSSProperties;

  const allSelected = table.getIsAllRowsSelected();
  const someSelected = table.getIsSomeRowsSelected();

  return (
    <div className="sg-scroll" ref={scrollRef} style={{ ...cssVars, maxHeight: virtual ? (props.height ?? 560) : undefined }}>
      <table className="sg-table" style={{ width: layout.total, minWidth: '100%' }} aria-rowcount={rows.length + 1} aria-busy={props.loading || undefined}>
        {props.caption ? <caption style={{ position: 'absolute', left: -10000 }}>{props.caption}</caption> : null}
        <colgroup>
          {layout.cells.map((c) => (
            <col key={c.key} style={{ width: c.width }} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {layout.cells.map((cell) => {
              const sticky = stickyStyle(cell);
              if (cell.kind === 'select')
                return (
                  <th key={cell.key} className={sticky ? 'sg-sticky' : undefined} style={sticky}>
                    {selection === 'multiple' ? (
                      <Checkbox
                        aria-label={t('screens.table.selectAll')}
                        checked={allSelected}
                        indeterminate={!allSelected && someSelected}
                        disabled={!rows.length}
                        onChange={(e) => table.toggleAllRowsSelected(e.target.checked)}
                      />
                    ) : null}
                  </th>
                );
              if (cell.kind === 'actions')
                return (
                  <th key={cell.key} className="sg-sticky" style={sticky}>
                    {props.actionsTitle}
                  </th>
                );
              const col = table.getColumn(cell.key)!;
              const dir = col.getIsSorted();
              const meta = cell.column!;
              return (
                <th
                  key={cell.key}
                  className={sticky ? 'sg-sticky' : undefined}
                  style={{ ...sticky, textAlign: meta.align }}
                  aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}
                >
                  {meta.sortable ? (
                    <button type="button" className="sg-sort" onClick={col.getToggleSortingHandler()} title={t('screens.table.sort')}>
                      {meta.title}
                      {dir === 'asc' ? <ArrowUpOutlined className="sg-sort-icon" /> : dir === 'desc' ? <ArrowDownOutlined className="sg-sort-icon" /> : null}
                    </button>
                  ) : (
                    meta.title
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {padTop > 0 ? (
            <tr aria-hidden>
              <td colSpan={span} style={{ height: padTop, padding: 0, border: 0 }} />
            </tr>
          ) : null}
          {shown.map((row) => (
            <GridRowView
              key={row.id}
              row={row}
              selected={row.getIsSelected()}
              selection={selection}
              layout={layout}
              rowActions={props.rowActions}
              selectLabel={t('screens.table.selectRow')}
            />
          ))}
          {padBottom > 0 ? (
            <tr aria-hidden>
              <td colSpan={span} style={{ height: padBottom, padding: 0, border: 0 }} />
            </tr>
          ) : null}
          {!rows.length && !props.loading ? (
            <tr>
              <td colSpan={span} className="sg-wrap" style={{ height: 'auto' }}>
                {props.failure ?? <Empty className="sg-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('screens.table.empty')} />}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {props.loading ? (
        <div className="sg-overlay">
          <Spin aria-label={t('screens.loading')} />
        </div>
      ) : null}
    </div>
  );
}

interface LayoutCell {
  key: string;
  kind: 'select' | 'data' | 'actions';
  width: number;
  column?: GridColumn;
  left?: number;
  right?: number;
}

interface Layout {
  cells: LayoutCell[];
  total: number;
}

function columnLayout(columns: GridColumn[], selectable: boolean, actions: boolean, actionsWidth = 160): Layout {
  const cells: LayoutCell[] = [];
  let left = 0;
  const anyLeft = columns.some((c) => c.fixed === 'left');
  if (selectable) {
    cells.push({ key: '__select', kind: 'select', width: SELECT_WIDTH, left: anyLeft ? 0 : undefined });
    left = SELECT_WIDTH;
  }
  // Fixed-left columns first, in order, each sticking after the previous one.
  const ordered = [...columns.filter((c) => c.fixed === 'left'), ...columns.filter((c) => c.fixed !== 'left')];
  for (const c of ordered) {
    const width = c.width ?? DEFAULT_WIDTH;
    const cell: LayoutCell = { key: c.id, kind: 'data', width, column: c };
    if (c.fixed === 'left') {
      cell.left = left;
      left += width;
    }
    cells.push(cell);
  }
  let right = actions ? actionsWidth : 0;
  for (let i = cells.length - 1; i >= 0; i--) {
    const c = cells[i];
    if (c.column?.fixed === 'right') {
      c.right = right;
      right += c.width;
    }
  }
  if (actions) cells.push({ key: '__actions', kind: 'actions', width: actionsWidth, right: 0 });
  return { cells, total: cells.reduce((s, c) => s + c.width, 0) };
}

function stickyStyle(cell: LayoutCell): CSSProperties | undefined {
  if (cell.left !== undefined) return { left: cell.left };
  if (cell.right !== undefined) return { right: cell.right };
  return undefined;
}

interface GridRowViewProps {
  row: Row<GridRow>;
  selected: boolean;
  selection: 'none' | 'single' | 'multiple';
  layout: Layout;
  rowActions?: (row: GridRow) => ReactNode;
  selectLabel: string;
}

/** One row; memoised so that selecting a row re-renders that row, not the page. */
const GridRowView = memo(function GridRowView({ row, selected, selection, layout, rowActions, selectLabel }: GridRowViewProps) {
  const data = row.original;
  return (
    <tr className={selected ? 'sg-selected' : undefined} aria-selected={selection === 'none' ? undefined : selected} data-row-key={row.id}>
      {layout.cells.map((cell) => {
        const sticky = stickyStyle(cell);
        const cls = sticky ? 'sg-sticky' : undefined;
        if (cell.kind === 'select')
          return (
            <td key={cell.key} className={cls} style={sticky}>
              {selection === 'single' ? (
                <Radio aria-label={selectLabel} checked={selected} onChange={() => row.toggleSelected(true)} />
              ) : (
                <Checkbox aria-label={selectLabel} checked={selected} onChange={(e) => row.toggleSelected(e.target.checked)} />
              )}
            </td>
          );
        if (cell.kind === 'actions')
          return (
            <td key={cell.key} className="sg-sticky" style={sticky}>
              {rowActions?.(data)}
            </td>
          );
        const c = cell.column!;
        const text = c.text(data);
        return (
          <td key={cell.key} className={c.ellipsis === false ? `sg-wrap ${cls ?? ''}` : cls} style={{ ...sticky, textAlign: c.align }} title={c.ellipsis ? text : undefined}>
            {c.render ? c.render(data) : text}
          </td>
        );
      })}
    </tr>
  );
});
