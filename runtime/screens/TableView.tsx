/**
 * A list bound to a resource (or to a page endpoint): the search form generated from the
 * filters, the toolbar, batch actions over the selection, the grid with sorting, column
 * visibility and row actions, server paging (`pageIndex` from 1, `pageSize`), export of
 * the current query, and empty, loading and error states. Used by table screens and by
 * the related lists of detail screens.
 */
import { CaretDownOutlined, CaretRightOutlined, SettingOutlined, ReloadOutlined, SearchOutlined, UndoOutlined } from '@ant-design/icons';
import { Alert, App as AntApp, Button, Checkbox, Col, Flex, Form, Input, InputNumber, Pagination, Popover, Row, Select, Space, Typography } from 'antd';
import type { SortingState, VisibilityState } from '@tanstack/react-table';
import { useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { useServices } from '../services/context.ts';
import { isHttpError } from '../http/errors.ts';
import type { QueryValue } from '../http/client.ts';
import { valueAt } from '../schema/conditions.ts';
import type { Column, EndpointRef, ExportFormat, TableParts } from '../schema/screen.ts';
import { textOf, type I18nText, type Lang } from '../schema/texts.ts';
import { pluck, type ValueContext } from '../schema/values.ts';
import { ActionButtons, ROW_INLINE_ACTIONS, targetUrl, type ActionScope } from './actions.tsx';
import { actionsWidth, columnEllipsis, columnWidth, hiddenByWidth } from './column-layout.ts';
import { createSelectionStore, DataGrid, useSelection, type GridColumn, type GridRow, type SelectionStore } from './DataGrid.tsx';
import { onResourceChanged } from './data-events.ts';
import { resolveEndpoint } from './endpoints.ts';
import { download, exportBlob, fetchAllRows, safeFileName, type PageReply } from './export.ts';
import { filterQuery, filterSpec, fixedQuery, initialFilterValues, sortParam, type FilterSpec } from './filters.ts';
import { readListState, writeListState, type ListState } from './list-url.ts';
import { RoutedScreenIdContext } from './routed-screen.ts';
import { formatScalar, useYesNo, ValueView } from './format.tsx';
import { useLang, useScreenHost, type ScreenHost } from './host.ts';
import { fieldSchemaOf, useOptionsList, type ResolvedOption } from './options.ts';
import { flattenTree } from './tree-rows.ts';
import { LazyDatePicker, LazyRangePicker } from './lazy-date-pickers.tsx';

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
  const { http } = useServices();
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
  const [page, setPage] = useState<PageReply | null>(null);
  const [loading, setLoading] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const [exporting, setExporting] = useState(false);
  // An endpoint answering a plain array (a tree, a short list) has no pages.
  const [unpaged, setUnpaged] = useState(false);
  // Tree branches the user toggled away from the default (expanded unless tree.expanded is false).
  const [toggled, setToggled] = useState<ReadonlySet<string>>(new Set());

  const fixed = useMemo(() => fixedQuery(parts.fixedFilters, ctx), [parts.fixedFilters, ctx]);
  const source = useMemo(() => {
    const ref: EndpointRef | undefined = endpoint ?? (resource ? { operation: 'page', resource } : undefined);
    return ref ? resolveEndpoint(ref, ctx, host.registry, resource) : null;
  }, [endpoint, resource, ctx, host.registry]);

  const query = useMemo<Record<string, QueryValue> | null>(() => {
    if (!fixed) return null;
    return { ...applied, ...fixed, sort: sortParam(sorting) ?? parts.defaultSort };
  }, [applied, fixed, sorting, parts.defaultSort]);

  const reload = useCallback(() => setReloads((n) => n + 1), []);

  useEffect(() => {
    if (!resource) return;
    return onResourceChanged((r) => r === resource && reload());
  }, [resource, reload]);

  const seq = useRef(0);
  useEffect(() => {
    if (!source || !query) {
      setLoading(false);
      setPage({ rows: [], total: 0, pageIndex: 1, pageSize });
      return;
    }
    const mine = ++seq.current;
    setLoading(true);
    http
      .get<PageReply>(source.url, parts.paged === false ? query : { ...query, pageIndex, pageSize })
      .then((env) => {
        if (mine !== seq.current) return;
        const data = env.data as PageReply | PageReply['rows'];
        setUnpaged(Array.isArray(data));
        setPage(Array.isArray(data) ? { rows: data, total: data.length, pageIndex: 1, pageSize: data.length } : data);
        setFailure(null);
        // A selection refers to rows of the page it was made on.
        selection.set({});
      })
      .catch((e: unknown) => {
        if (mine !== seq.current) return;
        setFailure(isHttpError(e) ? (e.serverMessage ?? e.message) : String(e));
        setPage(null);
      })
      .finally(() => mine === seq.current && setLoading(false));
  }, [source, query, pageIndex, pageSize, reloads, http, parts.paged]);

  // Column labels: one options request per enumerated column.
  const optionSources = useMemo(() => parts.columns.map((c) => ({ e: c as Column, prop: fieldSchemaOf(doc, c.field) })), [parts.columns, doc]);
  const columnOptions = useOptionsList(optionSources, ctx);
  const rowKeyField = parts.rowKey ?? 'id';
  const rowKey = useCallback((r: GridRow) => String(valueAt(r, rowKeyField) ?? ''), [rowKeyField]);

  const gridColumns = useMemo<GridColumn[]>(
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
            c.render === 'tag' || c.render === 'image' || c.render === 'link' || c.render === 'html' || c.render === 'changes'
              ? (r: GridRow) => <ColumnCell column={c} row={r} options={options} ctx={ctx} host={host} lang={lang} />
              : undefined,
        };
      }),
    [parts.columns, columnOptions, doc, lang, yesNo, ctx, host],
  );

  const selectionMode = parts.selection ?? (parts.batchActions?.length ? 'multiple' : 'none');
  const pageRows = page?.rows ?? [];
  const tree = useMemo(() => {
    if (!parts.tree) return null;
    const all = flattenTree(pageRows, parts.tree, rowKey, new Set());
    const collapsed = parts.tree.expanded === false ? new Set(all.branches.filter((b) => !toggled.has(b))) : toggled;
    return flattenTree(pageRows, parts.tree, rowKey, collapsed);
  }, [parts.tree, pageRows, rowKey, toggled]);
  const rows = tree ? tree.rows : pageRows;
  const shownColumns = useMemo<GridColumn[]>(() => {
    if (!tree || !gridColumns.length) return gridColumns;
    const [first, ...rest] = gridColumns;
    const isExpanded = (key: string) => (parts.tree?.expanded === false ? toggled.has(key) : !toggled.has(key));
    const toggle = (key: string) =>
      setToggled((prev) => {
        const next = new Set(prev);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      });
    const cell = (r: GridRow) => {
      const key = rowKey(r);
      const info = tree.info.get(key) ?? { depth: 0, hasChildren: false };
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
  }, [tree, gridColumns, rowKey, toggled, parts.tree, t]);

  const exportQuery = useCallback(
    async (format: ExportFormat) => {
      if (!source || !query) return;
      const action = parts.toolbar?.find((a) => a.kind === 'export');
      const maxRows = action?.kind === 'export' ? action.maxRows : undefined;
      setExporting(true);
      try {
        const all = await fetchAllRows(http, source.url, query, maxRows);
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
    [source, query, parts.toolbar, http, gridColumns, visibility, lang, title, message, t],
  );

  const baseScope: ActionScope = { ctx, resource, refresh: reload, exportQuery };
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
      {specs.length ? (
        <Form
          form={form}
          name={`search-${id}`}
          layout="vertical"
          initialValues={list.values}
          onFinish={search}
          role="search"
          aria-label={t('screens.table.searchForm')}
        >
          <Row gutter={16}>
            {specs.map((s) => (
              <Col key={s.filter.field} xs={24} sm={12} md={8} xl={6}>
                <FilterField spec={s} ctx={ctx} />
              </Col>
            ))}
            <Col xs={24} sm={12} md={8} xl={6} style={{ display: 'flex', alignItems: 'flex-end', paddingBottom: 24 }}>
              <Space>
                <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
                  {t('screens.table.search')}
                </Button>
                <Button
                  icon={<UndoOutlined />}
                  onClick={() => {
                    form.resetFields();
                    search(initialFilterValues(specs));
                  }}
                >
                  {t('screens.table.reset')}
                </Button>
              </Space>
            </Col>
          </Row>
        </Form>
      ) : null}

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
          return url ? <Link to={url}>{text}</Link> : text;
        }
      : undefined;
  return <ValueView value={pluck(row, column.field)} fmt={{ render: column.render === 'link' ? 'text' : column.render, precision: column.precision, lang }} options={options} link={link} />;
}

function FilterField({ spec, ctx }: { spec: FilterSpec; ctx: ValueContext }) {
  const lang = useLang();
  const { t } = useTranslation();
  const sources = useMemo(() => [{ e: spec.filter, prop: spec.prop }], [spec]);
  const [options] = useOptionsList(sources, ctx);
  const f = spec.filter;
  const label = f.title ? textOf(f.title, lang) : spec.prop?.['x-title'] ? textOf(spec.prop['x-title'], lang) : f.field;
  const placeholder = f.placeholder ? textOf(f.placeholder, lang) : undefined;
  const selectOptions = (options ?? []).map((o) => ({ value: o.value as string | number, label: o.label }));
  let control: ReactNode;
  if (spec.op === 'range' && spec.widget === 'number') {
    return (
      <Form.Item label={label} style={{ marginBottom: 24 }}>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name={[f.field, 0]} noStyle>
            <InputNumber style={{ width: '50%' }} placeholder={t('screens.table.from')} aria-label={`${label} ${t('screens.table.from')}`} />
          </Form.Item>
          <Form.Item name={[f.field, 1]} noStyle>
            <InputNumber style={{ width: '50%' }} placeholder={t('screens.table.to')} aria-label={`${label} ${t('screens.table.to')}`} />
          </Form.Item>
        </Space.Compact>
      </Form.Item>
    );
  }
  switch (spec.widget) {
    case 'number':
      control = <InputNumber style={{ width: '100%' }} placeholder={placeholder} />;
      break;
    case 'select':
      control = <Select allowClear placeholder={placeholder ?? t('screens.table.any')} options={selectOptions} showSearch={{ optionFilterProp: 'label' }} />;
      break;
    case 'multiSelect':
      control = <Select mode="multiple" allowClear placeholder={placeholder ?? t('screens.table.any')} options={selectOptions} optionFilterProp="label" />;
      break;
    case 'switch':
      control = (
        <Select
          allowClear
          placeholder={t('screens.table.any')}
          options={[
            { value: true, label: t('screens.yes') },
            { value: false, label: t('screens.no') },
          ]}
        />
      );
      break;
    case 'date':
      control = <LazyDatePicker style={{ width: '100%' }} />;
      break;
    case 'dateRange':
      control = <LazyRangePicker style={{ width: '100%' }} />;
      break;
    case 'datetimeRange':
      control = <LazyRangePicker showTime style={{ width: '100%' }} />;
      break;
    default:
      control = <Input allowClear placeholder={placeholder} />;
  }
  return (
    <Form.Item name={f.field} label={label}>
      {control}
    </Form.Item>
  );
}

/**
 * The list's filters, sort, page and page size: in the address (list-url.ts) when
 * `inAddress`, so a reload, back and a shared link keep them; in memory otherwise.
 * Every change is one history entry.
 */
function useListState(inAddress: boolean, specs: FilterSpec[], defaultPageSize: number, sortable: ReadonlySet<string>): [ListState, (change: Partial<ListState>) => void] {
  const [params, setParams] = useSearchParams();
  const [local, setLocal] = useState<ListState>(() => ({ values: initialFilterValues(specs), pageIndex: 1, pageSize: defaultPageSize, sorting: [] }));
  const paramsKey = params.toString();
  const fromAddress = useMemo(
    () => (inAddress ? readListState(new URLSearchParams(paramsKey), specs, { pageSize: defaultPageSize, sortable }) : null),
    [inAddress, paramsKey, specs, defaultPageSize, sortable],
  );
  const state = fromAddress ?? local;
  const latest = useRef(state);
  latest.current = state;
  const update = useCallback(
    (change: Partial<ListState>) => {
      const next = { ...latest.current, ...change };
      latest.current = next;
      if (!inAddress) return setLocal(next);
      setParams((prev) => writeListState(prev, next, specs, { pageSize: defaultPageSize }));
    },
    [inAddress, setParams, specs, defaultPageSize],
  );
  return [state, update];
}

/** The window's width in CSS pixels, following resizes (which columns a narrow screen keeps). */
function useViewportWidth(): number {
  const [width, setWidth] = useState(() => (typeof window === 'undefined' ? 1440 : window.innerWidth));
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}
