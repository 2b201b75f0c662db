/**
 * The table body of every list: @tanstack/react-table holds the headless column state
 * (columns, visibility, sorting) and this component draws it with antd's tokens and
 * controls. Pages longer than VIRTUAL_FROM rows are virtualised with
 * @tanstack/react-virtual in both directions (spacer rows above and below, spacer cells
 * left and right of the rendered window; fixed columns always render), so a page of
 * 10,000 rows × 50 columns renders only what the viewport shows; shorter pages render
 * every cell, which keeps them searchable by the browser and by tests.
 *
 * The rows are drawn straight from the page's records: no row model of 10,000 row
 * objects is built for a page the server already sorted and cut. The selection lives in
 * a small store keyed by row id (`SelectionStore`); each row subscribes to its own key,
 * so selecting a row re-renders that row and the select-all box, not the page.
 */
import { Checkbox, Empty, Radio, Spin, theme } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { getCoreRowModel, useReactTable, type ColumnDef, type RowSelectionState, type SortingState, type VisibilityState } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore, type CSSProperties, type ReactNode } from 'react';
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
  /** The selection (row id → true); the grid keeps its own when absent. */
  selected?: SelectionStore;
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
  /** A row's highlight (the schema's `rowHighlight`): its cells take the tone's background. */
  rowTone?: (row: GridRow) => RowTone | undefined;
}

export type RowTone = 'danger' | 'warning' | 'success' | 'info';

export const VIRTUAL_FROM = 100;
const ROW_HEIGHT = 40;
const SELECT_WIDTH = 48;
const DEFAULT_WIDTH = 150;

const STYLE_ID = 'schema-grid-style';
const HEX = /^#([0-9a-f]{6})$/i;
/** The mid-point of two #rrggbb colours (`tone` unchanged when either is another notation). */
export function halfTone(tone: string, base: string): string {
  if (!HEX.test(tone) || !HEX.test(base)) return tone;
  const channel = (c: string, i: number) => Number.parseInt(c.slice(1 + 2 * i, 3 + 2 * i), 16);
  return `#${[0, 1, 2].map((i) => Math.round((channel(tone, i) + channel(base, i)) / 2).toString(16).padStart(2, '0')).join('')}`;
}

const CSS = `
.sg-scroll{overflow:auto;position:relative;border:1px solid var(--sg-border);border-radius:var(--sg-radius)}
.sg-table{border-collapse:separate;border-spacing:0;table-layout:fixed;font-size:var(--sg-font);color:var(--sg-text)}
.sg-table th{position:sticky;top:0;z-index:2;background:linear-gradient(var(--sg-head-bg),var(--sg-head-bg)),var(--sg-bg);font-weight:600;text-align:left;padding:0 12px;height:${ROW_HEIGHT + 6}px;border-bottom:1px solid var(--sg-border)}
.sg-table td{padding:0 12px;height:${ROW_HEIGHT}px;border-bottom:1px solid var(--sg-border);background:var(--sg-bg);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.sg-table tr:hover>td{background:linear-gradient(var(--sg-hover),var(--sg-hover)),var(--sg-bg)}
.sg-table tr.sg-selected>td{background:linear-gradient(var(--sg-selected),var(--sg-selected)),var(--sg-bg)}
.sg-table tr.sg-selected>td:first-child{box-shadow:inset 3px 0 0 var(--sg-primary)}
.sg-table td.sg-sticky,.sg-table th.sg-sticky{box-shadow:inset 1px 0 0 var(--sg-border)}
.sg-table .sg-wrap{white-space:normal}
.sg-table tr.sg-tone-danger>td{background:var(--sg-danger)}
.sg-table tr.sg-tone-danger>td:first-child{box-shadow:inset 3px 0 0 var(--sg-danger-edge)}
.sg-table tr.sg-tone-warning>td{background:var(--sg-warning)}
.sg-table tr.sg-tone-warning>td:first-child{box-shadow:inset 3px 0 0 var(--sg-warning-edge)}
.sg-table tr.sg-tone-success>td{background:var(--sg-success)}
.sg-table tr.sg-tone-info>td{background:var(--sg-info)}
.sg-table .sg-sticky{position:sticky;z-index:1}
.sg-table th.sg-sticky{z-index:3}
.sg-sort{all:unset;cursor:pointer;display:inline-flex;gap:4px;align-items:center}
.sg-sort:focus-visible,.sg-scroll:focus-visible{outline:2px solid var(--sg-primary)}
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

/** Row id → selected, with subscriptions per change; rows read their own key. */
export interface SelectionStore {
  get(): RowSelectionState;
  set(next: RowSelectionState): void;
  subscribe(listener: () => void): () => void;
}

const NO_SELECTION: RowSelectionState = Object.freeze({}) as RowSelectionState;

export function createSelectionStore(initial: RowSelectionState = NO_SELECTION): SelectionStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(next) {
      if (next === state) return;
      state = next;
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The whole selection (toolbars, batch actions); re-renders on every change. */
export function useSelection(store: SelectionStore): RowSelectionState {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

function toggleRow(store: SelectionStore, id: string, on: boolean, single: boolean): void {
  if (single) {
    store.set(on ? { [id]: true } : NO_SELECTION);
    return;
  }
  const next = { ...store.get() };
  if (on) next[id] = true;
  else delete next[id];
  store.set(next);
}

const NO_ROWS: GridRow[] = [];

export function DataGrid(props: DataGridProps) {
  ensureStyle();
  const { token } = theme.useToken();
  const { t } = useTranslation();
  const selection = props.selection ?? 'none';
  const scrollRef = useRef<HTMLDivElement>(null);
  const [ownStore] = useState(createSelectionStore);
  const store = props.selected ?? ownStore;

  const defs = useMemo<ColumnDef<GridRow>[]>(
    () => props.columns.map((c) => ({ id: c.id, header: c.title, enableSorting: !!c.sortable, accessorFn: (r) => c.text(r), meta: c })),
    [props.columns],
  );
  // Only the column state goes through tanstack: the page is already sorted and cut by the
  // server, so its core row model (one object per record) would be built for nothing.
  const table = useReactTable<GridRow>({
    data: NO_ROWS,
    columns: defs,
    state: { sorting: props.sorting ?? [], columnVisibility: props.visibility ?? {} },
    onSortingChange: (u) => props.onSortingChange?.(typeof u === 'function' ? u(props.sorting ?? []) : u),
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    // Ascending first, as when tanstack guessed it from the (always text) cell values of rows it no longer holds.
    sortDescFirst: false,
    manualPagination: true,
    enableRowSelection: false,
    enableSortingRemoval: true,
  });

  const visible = table.getVisibleLeafColumns().map((c) => c.columnDef.meta as GridColumn);
  const layout = useMemo(() => columnLayout(visible, selection !== 'none', !!props.rowActions, props.actionsWidth), [visible.map((c) => c.id).join('|'), props.columns, selection, !!props.rowActions, props.actionsWidth]); // eslint-disable-line react-hooks/exhaustive-deps -- new columns (labels that arrived) must reach the memoised rows
  const rows = props.rows;
  const rowKey = props.rowKey;
  const virtual = rows.length > VIRTUAL_FROM;
  const height = props.height ?? 560;
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT + 1,
    overscan: 8,
    initialRect: { width: 1200, height },
  });

  // Columns: fixed ones (selection, fixed left, fixed right, actions) always render; the
  // scrolling ones render when they are in (or near) the viewport.
  const bands = useMemo(() => columnBands(layout), [layout]);
  const colVirtualizer = useVirtualizer({
    horizontal: true,
    count: virtual ? bands.middle.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => bands.middle[i]?.width ?? DEFAULT_WIDTH,
    paddingStart: bands.leadWidth,
    overscan: 2,
    initialRect: { width: 1200, height },
  });
  useEffect(() => colVirtualizer.measure(), [bands, colVirtualizer]);

  let rendered: RenderedCells = { cells: layout.cells, padLeft: 0, padRight: 0 };
  if (virtual) {
    const cols = colVirtualizer.getVirtualItems();
    const first = cols.length ? cols[0] : undefined;
    const last = cols.length ? cols[cols.length - 1] : undefined;
    const middleEnd = bands.leadWidth + bands.middleWidth;
    rendered = {
      cells: [...bands.lead, ...cols.map((c) => bands.middle[c.index]), ...bands.tail],
      padLeft: first ? first.start - bands.leadWidth : 0,
      padRight: last ? middleEnd - last.end : bands.middleWidth,
    };
  }
  const cellsKey = useMemo(() => rendered.cells.map((c) => c.key).join('|'), [rendered.cells]);
  // Stable identity while the window of columns is the same, so memoised rows stay put.
  const renderedCells = useMemo(() => rendered, [cellsKey, rendered.padLeft, rendered.padRight, layout]); // eslint-disable-line react-hooks/exhaustive-deps -- keyed by the window, not by the array

  const items = virtual ? virtualizer.getVirtualItems() : [];
  const padTop = virtual && items.length ? items[0].start : 0;
  const padBottom = virtual && items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const shown: GridRow[] = virtual ? items.map((i) => rows[i.index]) : rows;
  const span = renderedCells.cells.length + (renderedCells.padLeft > 0 ? 1 : 0) + (renderedCells.padRight > 0 ? 1 : 0);

  const cssVars = useMemo(
    () =>
      ({
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
        // Tones at half strength over the row's background: links and tags in a
        // highlighted row keep a 4.5:1 contrast (antd's error background alone gives 4.25).
        '--sg-danger': halfTone(token.colorErrorBg, token.colorBgContainer),
        '--sg-danger-edge': token.colorError,
        '--sg-warning': halfTone(token.colorWarningBg, token.colorBgContainer),
        '--sg-warning-edge': token.colorWarning,
        '--sg-success': halfTone(token.colorSuccessBg, token.colorBgContainer),
        '--sg-info': halfTone(token.colorInfoBg, token.colorBgContainer),
      }) as CSSProperties,
    [token],
  );
  const selectLabel = t('screens.table.selectRow');

  return (
    // Focusable, so a keyboard can scroll a table wider than its box (axe: scrollable-region-focusable).
    // biome-ignore lint/a11y/useSemanticElements lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so a keyboard can scroll it (axe scrollable-region-focusable)
    <div className="sg-scroll" ref={scrollRef} style={{ ...cssVars, maxHeight: virtual ? height : undefined }} tabIndex={0} role="region" aria-label={props.caption}>
      <table className="sg-table" style={{ width: layout.total, minWidth: '100%' }} aria-rowcount={rows.length + 1} aria-busy={props.loading || undefined}>
        {props.caption ? <caption style={{ position: 'absolute', left: -10000 }}>{props.caption}</caption> : null}
        <colgroup>
          {renderedCells.cells.map((c, i) => (
            <ColWithSpacers key={c.key} cell={c} index={i} cells={renderedCells} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {renderedCells.cells.map((cell, i) => {
              const sticky = stickyStyle(cell);
              let th: ReactNode;
              if (cell.kind === 'select')
                th = (
                  <th key={cell.key} className={sticky ? 'sg-sticky' : undefined} style={sticky}>
                    {selection === 'multiple' ? <SelectAll store={store} rows={rows} rowKey={rowKey} label={t('screens.table.selectAll')} /> : null}
                  </th>
                );
              else if (cell.kind === 'actions')
                th = (
                  <th key={cell.key} className="sg-sticky" style={sticky}>
                    {props.actionsTitle}
                  </th>
                );
              else {
                const col = table.getColumn(cell.key)!;
                const dir = col.getIsSorted();
                const meta = cell.column!;
                th = (
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
              }
              return withSpacers(th, cell, i, renderedCells, 'th');
            })}
          </tr>
        </thead>
        <tbody>
          {padTop > 0 ? (
            <tr aria-hidden>
              <td colSpan={span} style={{ height: padTop, padding: 0, border: 0 }} />
            </tr>
          ) : null}
          {shown.map((data) => {
            const id = rowKey(data);
            return <GridRowView key={id} id={id} data={data} store={store} selection={selection} cells={renderedCells} rowActions={props.rowActions} selectLabel={selectLabel} tone={props.rowTone?.(data)} />;
          })}
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
        <div className="sg-overlay" role="status" aria-label={t('screens.loading')}>
          <Spin />
        </div>
      ) : null}
    </div>
  );
}

/** The header's box: all rows of the page selected, some, or none. */
function SelectAll({ store, rows, rowKey, label }: { store: SelectionStore; rows: GridRow[]; rowKey: (r: GridRow) => string; label: string }) {
  const sel = useSelection(store);
  let count = 0;
  for (const k in sel) if (sel[k]) count++;
  const all = rows.length > 0 && count >= rows.length;
  return (
    <Checkbox
      aria-label={label}
      checked={all}
      indeterminate={!all && count > 0}
      disabled={!rows.length}
      onChange={(e) => {
        if (!e.target.checked) return store.set(NO_SELECTION);
        const next: RowSelectionState = {};
        for (const r of rows) next[rowKey(r)] = true;
        store.set(next);
      }}
    />
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

interface RenderedCells {
  cells: LayoutCell[];
  /** Widths of the columns left out before and after the rendered window (virtual mode). */
  padLeft: number;
  padRight: number;
}

interface Bands {
  lead: LayoutCell[];
  middle: LayoutCell[];
  tail: LayoutCell[];
  leadWidth: number;
  middleWidth: number;
}

/** Cells sticking left, scrolling cells, cells sticking right (in that order). */
function columnBands(layout: Layout): Bands {
  const lead = layout.cells.filter((c) => c.left !== undefined);
  const tail = layout.cells.filter((c) => c.left === undefined && c.right !== undefined);
  const middle = layout.cells.filter((c) => c.left === undefined && c.right === undefined);
  const width = (cs: LayoutCell[]) => cs.reduce((s, c) => s + c.width, 0);
  return { lead, middle, tail, leadWidth: width(lead), middleWidth: width(middle) };
}

/** The spacer before the first scrolling cell and after the last one, around `node`. */
function withSpacers(node: ReactNode, cell: LayoutCell, i: number, r: RenderedCells, tag: 'th' | 'td'): ReactNode {
  if (!r.padLeft && !r.padRight) return node;
  const Tag = tag;
  const before = r.padLeft > 0 && isFirstScrolling(cell, i, r) ? <Tag key="__padLeft" aria-hidden /> : null;
  const after = r.padRight > 0 && isLastScrolling(cell, i, r) ? <Tag key="__padRight" aria-hidden /> : null;
  return before || after ? [before, node, after] : node;
}

function isScrolling(c: LayoutCell | undefined): boolean {
  return !!c && c.left === undefined && c.right === undefined;
}
function isFirstScrolling(cell: LayoutCell, i: number, r: RenderedCells): boolean {
  return isScrolling(cell) && !isScrolling(r.cells[i - 1]);
}
function isLastScrolling(cell: LayoutCell, i: number, r: RenderedCells): boolean {
  return isScrolling(cell) && !isScrolling(r.cells[i + 1]);
}

function ColWithSpacers({ cell, index, cells }: { cell: LayoutCell; index: number; cells: RenderedCells }) {
  const col = <col style={{ width: cell.width }} />;
  if (!cells.padLeft && !cells.padRight) return col;
  return (
    <>
      {cells.padLeft > 0 && isFirstScrolling(cell, index, cells) ? <col style={{ width: cells.padLeft }} /> : null}
      {col}
      {cells.padRight > 0 && isLastScrolling(cell, index, cells) ? <col style={{ width: cells.padRight }} /> : null}
    </>
  );
}

interface GridRowViewProps {
  id: string;
  data: GridRow;
  store: SelectionStore;
  selection: 'none' | 'single' | 'multiple';
  cells: RenderedCells;
  rowActions?: (row: GridRow) => ReactNode;
  selectLabel: string;
  tone?: RowTone;
}

/** One row; memoised and subscribed to its own selection key, so selecting a row re-renders that row only. */
const GridRowView = memo(function GridRowView({ id, data, store, selection, cells, rowActions, selectLabel, tone }: GridRowViewProps) {
  const selected = useSyncExternalStore(
    store.subscribe,
    () => !!store.get()[id],
    () => !!store.get()[id],
  );
  return (
    <tr className={[selected ? 'sg-selected' : '', tone ? `sg-tone-${tone}` : ''].join(' ').trim() || undefined} aria-selected={selection === 'none' ? undefined : selected} data-row-key={id} data-tone={tone}>
      {cells.cells.map((cell, i) => {
        const sticky = stickyStyle(cell);
        const cls = sticky ? 'sg-sticky' : undefined;
        let td: ReactNode;
        if (cell.kind === 'select')
          td = (
            <td key={cell.key} className={cls} style={sticky}>
              {selection === 'single' ? (
                <Radio aria-label={selectLabel} checked={selected} onChange={() => toggleRow(store, id, true, true)} />
              ) : (
                <Checkbox aria-label={selectLabel} checked={selected} onChange={(e) => toggleRow(store, id, e.target.checked, false)} />
              )}
            </td>
          );
        else if (cell.kind === 'actions')
          td = (
            <td key={cell.key} className="sg-sticky" style={sticky}>
              {rowActions?.(data)}
            </td>
          );
        else {
          const c = cell.column!;
          const text = c.text(data);
          td = (
            <td key={cell.key} className={c.ellipsis === false ? `sg-wrap ${cls ?? ''}` : cls} style={sticky || c.align ? { ...sticky, textAlign: c.align } : undefined} title={c.ellipsis ? text : undefined}>
              {c.render ? c.render(data) : text}
            </td>
          );
        }
        return withSpacers(td, cell, i, cells, 'td');
      })}
    </tr>
  );
});
