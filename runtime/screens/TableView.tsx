/**
 * A list bound to a resource (or to a page endpoint): the search form generated from the
 * filters (table/search-form.tsx), the toolbar, batch actions over the selection, the grid
 * with sorting, column visibility and row actions, a tree's first column
 * (table/tree-column.tsx), server paging (`pageIndex` from 1, `pageSize`), export of the
 * current query, and empty, loading and error states. The rows come through the query
 * hook (use-resource-query.ts). Used by table screens and by the related lists of detail
 * screens.
 */
import { DocumentLink } from './DocumentLink.tsx';
import { ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { Alert, App as AntApp, Button, Checkbox, Flex, Form, Pagination, Popover, Space, Typography } from 'antd';
import type { VisibilityState } from '@tanstack/react-table';
import { Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isHttpError } from '../http/errors.ts';
import type { QueryValue } from '../http/client.ts';
import { evaluate, valueAt } from '../schema/conditions.ts';
import type { Column, EndpointRef, ExportFormat, ImportAction, TableParts } from '../schema/screen.ts';
import { textOf, type I18nText, type Lang } from '../schema/texts.ts';
import { pluck, type ValueContext } from '../schema/values.ts';
import type { DataSource } from '../services/contract.ts';
import { useServices } from '../services/context.ts';
import { ActionButtons, ROW_INLINE_ACTIONS, targetUrl, type ActionScope } from './actions.tsx';
import { actionsWidth, columnEllipsis, columnWidth, hiddenByWidth } from './column-layout.ts';
import { createSelectionStore, DataGrid, useSelection, type GridColumn, type GridRow, type SelectionStore } from './DataGrid.tsx';
import { withFarmColumn } from './farm-column.ts';
import { download, exportBlob, fetchAllRows, safeFileName, type PageReply } from './export.ts';
import { lazyView } from './lazy-view.ts';
import { notifyResourceChanged } from './data-events.ts';
import { filterQuery, filterSpec, fixedQuery, sortParam } from './filters.ts';
import { RoutedScreenIdContext } from './routed-screen.ts';
import { formatScalar, hasOwnCell, useYesNo, ValueView } from './format.tsx';
import { useLang, useScreenHost, type ScreenHost } from './host.ts';
import { fieldSchemaOf, useOptionsList, type ResolvedOption } from './options.ts';
import { useListState, useViewportWidth } from './table/list-state.ts';
import { SearchForm } from './table/search-form.tsx';
import { useTreeColumn } from './table/tree-column.tsx';
import { useResourceQuery } from './use-resource-query.ts';

/** The import dialog is a chunk of its own: only those who import load it. */
const ImportDialog = lazyView(() => import('./ImportDialog.tsx').then((m) => m.ImportDialog));

export interface TableViewProps {
  /** Names the search form, so that its field ids are unique among the screens kept alive. */
  id: string;
  parts: TableParts;
  resource?: string;
  endpoint?: EndpointRef;
  title: I18nText;
  ctx: ValueContext;
  /** Caption for assistive technology and the default export file name. */
  exportName?: I18nText;
}

const DEFAULT_PAGE_SIZE = 10;

export function TableView({ id, parts, resource, endpoint, title, ctx }: TableViewProps) {
  const host = useScreenHost();
  const lang = useLang();
  const { t } = useTranslation();
  const { data } = useServices();
  const { message } = AntApp.useApp();
  const yesNo = useYesNo();
  const doc = resource ? host.registry.resource(resource) : undefined;

  const specs = useMemo(() => (parts.filters ?? []).map((f) => filterSpec(f, doc)), [parts.filters, doc]);
  const [form] = Form.useForm();
  // The list a route shows keeps its state in the address; related lists and embedded ones in memory.
  const inAddress = useContext(RoutedScreenIdContext) === id;
  const sortable = useMemo(() => new Set(parts.columns.filter((c) => c.sortable).map((c) => c.field)), [parts.columns]);
  const [list, updateList] = useListState(inAddress, specs, parts.pageSize ?? DEFAULT_PAGE_SIZE, sortable);
  const { pageIndex, pageSize, sorting } = list;
  const valuesKey = JSON.stringify(list.values);
  const applied = useMemo(() => filterQuery(specs, list.values), [specs, valuesKey]); // eslint-disable-line react-hooks/exhaustive-deps -- keyed by content
  // Back and forward change the address under the form: the form follows. Only on a real
  // change: a kept-alive list shown again re-runs its effects, and must keep what was typed.
  const syncedKey = useRef(valuesKey);
  useEffect(() => {
    if (syncedKey.current === valuesKey) return;
    syncedKey.current = valuesKey;
    form.setFieldsValue(Object.fromEntries(specs.map((s) => [s.filter.field, list.values[s.filter.field]])));
  }, [valuesKey, specs, form]); // eslint-disable-line react-hooks/exhaustive-deps -- keyed by content
  // The columns the user showed or hid; the viewport hides low-priority ones the user did not choose.
  const [chosen, setVisibility] = useState<VisibilityState>(() =>
    Object.fromEntries(parts.columns.filter((c) => c.visible === false).map((c) => [c.field, false])),
  );
  const viewport = useViewportWidth();
  const autoHidden = useMemo(() => hiddenByWidth(parts.columns, viewport), [parts.columns, viewport]);
  const visibility = useMemo<VisibilityState>(() => ({ ...Object.fromEntries([...autoHidden].map((f) => [f, false])), ...chosen }), [autoHidden, chosen]);
  // The selection lives outside React state: a row re-renders alone when it is (de)selected.
  const [selection] = useState(createSelectionStore);
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState<ImportAction | null>(null);
  // An endpoint answering a plain array (a tree, a short list) has no pages.
  const [unpaged, setUnpaged] = useState(false);

  const fixed = useMemo(() => fixedQuery(parts.fixedFilters, ctx), [parts.fixedFilters, ctx]);
  const source = useMemo<DataSource | null>(() => {
    const ref: EndpointRef | undefined = endpoint ?? (resource ? { operation: 'page', resource } : undefined);
    return ref ? { endpoint: ref, ctx, screenResource: resource } : null;
  }, [endpoint, resource, ctx]);

  const query = useMemo<Record<string, QueryValue> | null>(() => {
    if (!fixed) return null;
    return { ...applied, ...fixed, sort: sortParam(sorting) ?? parts.defaultSort };
  }, [applied, fixed, sorting, parts.defaultSort]);

  const rowsQuery = useResourceQuery<PageReply | PageReply['rows']>(query ? source : null, {
    params: query && (parts.paged === false ? query : { ...query, pageIndex, pageSize }),
    refreshOn: resource,
    initiallyLoading: true,
    onData: (reply) => {
      setUnpaged(Array.isArray(reply));
      // A selection refers to rows shown: a ticked row that another page, a filter or a delete
      // took away is dropped, while the same rows read again (a refresh, a late answer, a
      // kept-alive tab revisited) keep what was ticked.
      selection.set(keptSelection(selection.get(), Array.isArray(reply) ? reply : reply.rows, parts.rowKey ?? 'id'));
    },
  });
  const reload = rowsQuery.refresh;
  const failure = rowsQuery.failure;
  const loading = rowsQuery.loading;
  const page = useMemo<PageReply | null>(() => {
    // Nothing to ask (a fixed filter without its value, an endpoint missing a parameter): an empty list.
    if (!query || !source || rowsQuery.unresolvable) return { rows: [], total: 0, pageIndex: 1, pageSize };
    const reply = rowsQuery.data;
    if (reply === undefined) return null;
    return Array.isArray(reply) ? { rows: reply, total: reply.length, pageIndex: 1, pageSize: reply.length } : reply;
  }, [query, source, rowsQuery.unresolvable, rowsQuery.data, pageSize]);

  // Column labels: one options request per enumerated column.
  const optionSources = useMemo(() => parts.columns.map((c) => ({ e: c as Column, prop: fieldSchemaOf(doc, c.field) })), [parts.columns, doc]);
  const columnOptions = useOptionsList(optionSources, ctx);
  const rowKeyField = parts.rowKey ?? 'id';
  const rowKey = useCallback((r: GridRow) => String(valueAt(r, rowKeyField) ?? ''), [rowKeyField]);

  const documentColumns = useMemo<GridColumn[]>(
    () =>
      parts.columns.map((c, i) => {
        const options = columnOptions[i];
        const fmt = { render: c.render, precision: c.precision, lang, unit: c.valueUnit };
        const prop = fieldSchemaOf(doc, c.field);
        const title = c.title ? textOf(c.title, lang) : prop?.['x-title'] ? textOf(prop['x-title'], lang) : c.field;
        return {
          id: c.field,
          title,
          width: columnWidth(c, prop, title),
          sortable: c.sortable,
          fixed: c.fixed,
          align: c.align ?? (c.render === 'number' ? 'right' : undefined),
          ellipsis: columnEllipsis(c),
          text: (r: GridRow) => formatScalar(pluck(r, c.field), fmt, options, yesNo),
          render:
            c.render === 'link' || hasOwnCell(c.render)
              ? (r: GridRow) => <ColumnCell column={c} row={r} options={options} ctx={ctx} host={host} lang={lang} />
              : undefined,
        };
      }),
    [parts.columns, columnOptions, doc, lang, yesNo, ctx, host],
  );
  const spansFarms = page?.spansFarms === true;
  const gridColumns = useMemo(() => withFarmColumn(documentColumns, spansFarms, t('screens.table.farm')), [documentColumns, spansFarms, t]);

  const selectionMode = parts.selection ?? (parts.batchActions?.length ? 'multiple' : 'none');
  const pageRows = page?.rows ?? [];
  const { rows, columns: shownColumns } = useTreeColumn(parts.tree, pageRows, rowKey, gridColumns);

  const exportQuery = useCallback(
    async (format: ExportFormat) => {
      if (!source || !query) return;
      const action = parts.toolbar?.find((a) => a.kind === 'export');
      const maxRows = action?.kind === 'export' ? action.maxRows : undefined;
      setExporting(true);
      try {
        const all = await fetchAllRows((params) => data.query<PageReply>({ registry: host.registry, source, params }), query, maxRows);
        const visibleCols = gridColumns.filter((c) => visibility[c.id] !== false);
        const name = action?.kind === 'export' && action.fileName ? textOf(action.fileName, lang) : textOf(title, lang);
        download(await exportBlob(format, visibleCols, all.rows), safeFileName(name, format));
        if (all.total > all.rows.length) void message.warning(t('screens.export.capped', { count: all.rows.length, total: all.total }));
      } catch (e) {
        if (!isHttpError(e)) void message.error(t('screens.export.failed'));
      } finally {
        setExporting(false);
      }
    },
    [source, query, parts.toolbar, data, host.registry, gridColumns, visibility, lang, title, message, t],
  );

  const highlight = parts.rowHighlight;
  const rowTone = useMemo(() => (highlight?.length ? (r: GridRow) => highlight.find((h) => evaluate(h.when, r))?.tone : undefined), [highlight]);

  const baseScope: ActionScope = { ctx, resource, refresh: reload, exportQuery, openImport: setImporting };
  const importInto = importing ? (importing.resource ?? resource) : undefined;
  const rowActions = useCallback(
    (r: GridRow) => <ActionButtons actions={parts.rowActions} scope={{ ctx: { ...ctx, row: r }, resource, refresh: reload }} data={r} variant="row" />,
    [parts.rowActions, ctx, resource, reload],
  );

  const search = (values: Record<string, unknown>) => {
    const same = JSON.stringify(filterQuery(specs, values)) === JSON.stringify(applied);
    updateList({ values, pageIndex: 1 });
    if (same) reload();
  };

  return (
    <Flex vertical gap={12}>
      {importing && importInto ? (
        <Suspense fallback={null}>
          <ImportDialog
          action={importing}
          resource={importInto}
          title={title}
          onClose={() => setImporting(null)}
          onImported={() => notifyResourceChanged(importInto)}
          />
        </Suspense>
      ) : null}
      {specs.length ? <SearchForm id={id} form={form} specs={specs} initialValues={list.values} ctx={ctx} onSearch={search} /> : null}

      <Flex justify="space-between" align="center" wrap gap={8}>
        <ActionButtons actions={parts.toolbar} scope={baseScope} data={{}} />
        <Space>
          {selectionMode === 'multiple' && parts.batchActions?.length ? (
            <>
              <BatchBar part="count" store={selection} rows={rows} rowKey={rowKey} actions={parts.batchActions} ctx={ctx} resource={resource} refresh={reload} />
              <BatchBar part="actions" store={selection} rows={rows} rowKey={rowKey} actions={parts.batchActions} ctx={ctx} resource={resource} refresh={reload} />
            </>
          ) : null}
          <Button icon={<ReloadOutlined />} onClick={reload} aria-label={t('screens.table.reload')} title={t('screens.table.reload')} loading={exporting} />
          <Popover
            trigger="click"
            placement="bottomRight"
            title={t('screens.table.columns')}
            content={
              <Flex vertical gap={4}>
                {gridColumns.map((c) => (
                  <Checkbox key={c.id} checked={visibility[c.id] !== false} onChange={(e) => setVisibility((v) => ({ ...v, [c.id]: e.target.checked }))}>
                    {c.title}
                  </Checkbox>
                ))}
              </Flex>
            }
          >
            <Button icon={<SettingOutlined />} aria-label={t('screens.table.columns')} title={t('screens.table.columns')} />
          </Popover>
        </Space>
      </Flex>

      <DataGrid
        rowTone={rowTone}
        columns={shownColumns}
        rows={rows}
        rowKey={rowKey}
        selection={selectionMode}
        selected={selection}
        sorting={sorting}
        onSortingChange={(s) => updateList({ sorting: s, pageIndex: 1 })}
        visibility={visibility}
        rowActions={parts.rowActions?.length ? rowActions : undefined}
        actionsTitle={t('screens.table.actions')}
        actionsWidth={actionsWidth(parts.rowActions, (a) => textOf(a.label, lang), t('screens.table.more'), ROW_INLINE_ACTIONS)}
        loading={loading}
        caption={textOf(title, lang)}
        failure={
          failure ? (
            <Alert
              type="error"
              showIcon
              title={t('screens.table.failed')}
              description={failure}
              action={
                <Button size="small" onClick={reload}>
                  {t('screens.retry')}
                </Button>
              }
            />
          ) : undefined
        }
      />

      {unpaged || parts.paged === false ? null : (
        <Flex justify="flex-end">
          <Pagination
            current={pageIndex}
            pageSize={pageSize}
            total={page?.total ?? 0}
            showSizeChanger
            pageSizeOptions={[10, 20, 50, 100]}
            showTotal={(total) => t(page?.totalExact === false ? 'screens.table.totalAbout' : 'screens.table.total', { total })}
            onChange={(p, size) => updateList(size !== pageSize ? { pageSize: size, pageIndex: 1 } : { pageIndex: p })}
          />
        </Flex>
      )}
    </Flex>
  );
}

/** The count of selected rows, or the batch actions over them: the only parts of the list that follow the selection. */
function BatchBar(props: { part: 'count' | 'actions'; store: SelectionStore; rows: GridRow[]; rowKey: (r: GridRow) => string; actions: TableParts['batchActions']; ctx: ValueContext; resource?: string; refresh: () => void }) {
  const { t } = useTranslation();
  const selected = useSelection(props.store);
  const { rows, rowKey } = props;
  const selectedRows = useMemo(() => (Object.keys(selected).length ? rows.filter((r) => selected[rowKey(r)]) : []), [rows, selected, rowKey]);
  const scope: ActionScope = { ctx: { ...props.ctx, selection: selectedRows }, resource: props.resource, refresh: props.refresh };
  if (props.part === 'count')
    return (
      <Typography.Text type="secondary" aria-live="polite">
        {t('screens.table.selected', { count: selectedRows.length })}
      </Typography.Text>
    );
  return <ActionButtons actions={props.actions} scope={scope} batch={selectedRows} />;
}

/** A tag, image, link or html cell; host and language come from the list (no hooks per cell). */
function ColumnCell({ column, row, options, ctx, host, lang }: { column: Column; row: GridRow; options: ResolvedOption[] | null; ctx: ValueContext; host: ScreenHost; lang: Lang }) {
  const link =
    column.render === 'link' && column.link
      ? (text: string) => {
          const url = targetUrl(column.link!, { ...ctx, row }, host);
          if (url && column.link!.document) return <DocumentLink href={url}>{text}</DocumentLink>;
          return url ? <Link to={url}>{text}</Link> : text;
        }
      : undefined;
  const label = column.title ? textOf(column.title, lang) : undefined;
  return <ValueView value={pluck(row, column.field)} fmt={{ render: column.render === 'link' ? 'text' : column.render, precision: column.precision, lang, label }} options={options} link={link} />;
}

/** The ticked keys that are still rows of the reply (a tree's children included). */
function keptSelection(selected: Record<string, boolean>, rows: readonly GridRow[], keyField: string): Record<string, boolean> {
  const ticked = Object.keys(selected).filter((k) => selected[k]);
  if (!ticked.length) return selected;
  const present = new Set<string>();
  const visit = (list: readonly GridRow[]) => {
    for (const r of list) {
      present.add(String(valueAt(r, keyField) ?? ''));
      if (Array.isArray(r.children)) visit(r.children as GridRow[]);
    }
  };
  visit(rows);
  const kept = ticked.filter((k) => present.has(k));
  return kept.length === ticked.length ? selected : Object.fromEntries(kept.map((k) => [k, true]));
}
