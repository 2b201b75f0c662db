/**
 * The `checkboxTree` form widget: nodes read from the field's `tree` endpoint, checked
 * keys in the field (a list), leaf keys (e.g. a menu's element codes) in the leaf field.
 * See tree-keys.ts for what checking does. The tree's options (docs/schema-language.md)
 * add a search box, expand / collapse all, all / none per top-level node, the box's
 * height, and a summary of the changes to confirm before saving.
 */
import { Alert, App as AntApp, Button, Empty, Flex, Input, Skeleton, Tree, Typography } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataSource } from '../../services/contract.ts';
import type { TreeSource } from '../../schema/screen.ts';
import { useResourceQuery } from '../use-resource-query.ts';
import { useLang, useScreenHost } from '../host.ts';
import type { FormContext } from './form-context.ts';
import { branchKeys, changeSummary, filterTree, splitKeys, subtreeKeys, toggleKey, treeNodes, type SectionChange, type TreeNode } from './tree-keys.ts';

interface AntNode {
  key: string;
  title: string;
  children: AntNode[];
  isLeaf: boolean;
  node: TreeNode;
  top: boolean;
}

function toTree(list: TreeNode[], top = true): AntNode[] {
  return list.map((n) => ({ key: n.key, title: n.title, children: toTree(n.children, false), isLeaf: n.children.length === 0, node: n, top }));
}

function asKeys(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : [];
}

/** The title with every occurrence of the query marked. */
function highlighted(title: string, query: string): ReactNode {
  const q = query.trim().toLowerCase();
  if (!q) return title;
  const parts: ReactNode[] = [];
  let at = 0;
  const lower = title.toLowerCase();
  for (let i = lower.indexOf(q); i >= 0; i = lower.indexOf(q, at)) {
    if (i > at) parts.push(title.slice(at, i));
    parts.push(<mark key={i}>{title.slice(i, i + q.length)}</mark>);
    at = i + q.length;
  }
  parts.push(title.slice(at));
  return parts;
}

/** Room the drawer's header, the tree's toolbar, the help text and the save buttons take. */
const FILL_MARGIN = 330;

function useFillHeight(height: TreeSource['height']): number {
  const [windowHeight, setWindowHeight] = useState(() => (typeof window === 'undefined' ? 900 : window.innerHeight));
  useEffect(() => {
    if (height !== 'fill') return;
    const onResize = () => setWindowHeight(window.innerHeight);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [height]);
  if (typeof height === 'number') return height;
  return height === 'fill' ? Math.max(320, windowHeight - FILL_MARGIN) : 520;
}

export function ChangeSummary({ changes }: { changes: SectionChange[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  const sep = lang === 'zh' ? '、' : ', ';
  return (
    <Flex vertical gap={12} data-testid="tree-summary" style={{ maxHeight: '55vh', overflow: 'auto' }}>
      {changes.map((c) => (
        <div key={c.key} data-section={c.key}>
          <Typography.Text strong>{c.title}</Typography.Text>
          {c.granted.length ? (
            <div data-testid="tree-summary-granted">
              <Typography.Text type="success">{t('checkboxTree.granted', { count: c.granted.length })}</Typography.Text> {c.granted.join(sep)}
            </div>
          ) : null}
          {c.removed.length ? (
            <div data-testid="tree-summary-removed">
              <Typography.Text type="danger">{t('checkboxTree.removed', { count: c.removed.length })}</Typography.Text> {c.removed.join(sep)}
            </div>
          ) : null}
        </div>
      ))}
    </Flex>
  );
}

export function CheckboxTreeWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const host = useScreenHost();
  const { modal } = AntApp.useApp();
  const source = (props.options as { tree?: TreeSource }).tree;
  const context = props.registry.formContext as FormContext | undefined;
  const record = (context?.ctx.record ?? {}) as Record<string, unknown>;
  const [query, setQuery] = useState('');
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const boxHeight = useFillHeight(source?.height);

  // The endpoint's parameters come from the route (not from the data being edited), so
  // the tree is read once per form.
  const treeSource = useMemo<DataSource | null>(
    () => (source ? { endpoint: source.endpoint, ctx: { route: context?.ctx.route, query: context?.ctx.query } } : null),
    [source, context?.ctx.route, context?.ctx.query],
  );
  const { data, failure } = useResourceQuery(treeSource);

  const nodes = useMemo(() => (source && data !== undefined ? treeNodes(data, source, lang) : []), [data, source, lang]);
  const allBranches = useMemo(() => branchKeys(nodes), [nodes]);
  const filtered = useMemo(() => filterTree(nodes, source?.search ? query : ''), [nodes, query, source?.search]);
  const treeData = useMemo(() => toTree(filtered.nodes), [filtered]);

  const own = asKeys(props.value);
  const leaves = source?.leafField ? asKeys(record[source.leafField]) : [];
  const selected = [...own, ...leaves];

  // The selection the form was loaded with: what the summary compares against.
  const initial = useRef<string[] | null>(null);
  initial.current ??= selected;
  const latest = useRef({ nodes, selected });
  latest.current = { nodes, selected };

  const confirmChanges = !!source?.confirmChanges;
  const beforeSubmit = context?.beforeSubmit;
  useEffect(() => {
    if (!confirmChanges || !beforeSubmit) return;
    return beforeSubmit(async () => {
      const changes = changeSummary(latest.current.nodes, initial.current ?? [], latest.current.selected);
      if (!changes.length) return true;
      const ok = await modal.confirm({
        title: t('checkboxTree.confirmTitle'),
        content: <ChangeSummary changes={changes} />,
        okText: t('checkboxTree.confirmOk'),
        cancelText: t('checkboxTree.confirmCancel'),
        width: 640,
      });
      return ok === true;
    });
  }, [confirmChanges, beforeSubmit, modal, t]);

  if (!source) return null;
  if (failure) return <Alert type="error" showIcon title={t('screens.tree.failed')} description={failure} />;
  if (data === undefined) return <Skeleton active paragraph={{ rows: 4 }} />;

  const disabled = props.disabled || props.readonly;
  const apply = (next: string[]) => {
    const split = splitKeys(nodes, next);
    const patch: Record<string, unknown> = { [props.name]: split.own };
    if (source.leafField) patch[source.leafField] = split.leaves;
    if (context) context.setValues(patch);
    else props.onChange(split.own);
  };
  const setSection = (node: TreeNode, on: boolean) => {
    if (on) apply([...new Set([...selected, ...subtreeKeys(node)])]);
    else apply(toggleKey(nodes, selected, node.key, false));
  };

  const searching = !!source.search && query.trim() !== '';
  // While searching, every branch of the narrowed tree is open; otherwise the user's choice (initially all).
  const expandedKeys = searching ? branchKeys(filtered.nodes) : (expanded ?? allBranches);

  const toolbar =
    source.search || source.expandControls ? (
      <Flex gap={8} wrap align="center" style={{ marginBottom: 8 }}>
        {source.search ? (
          <Input.Search
            allowClear
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={t('checkboxTree.search')}
            aria-label={t('checkboxTree.search')}
            style={{ flex: '1 1 240px', maxWidth: 360 }}
            data-testid="tree-search"
          />
        ) : null}
        {source.expandControls ? (
          <>
            <Button size="small" onClick={() => setExpanded(allBranches)} disabled={searching} data-testid="tree-expand-all">
              {t('checkboxTree.expandAll')}
            </Button>
            <Button size="small" onClick={() => setExpanded([])} disabled={searching} data-testid="tree-collapse-all">
              {t('checkboxTree.collapseAll')}
            </Button>
          </>
        ) : null}
        {searching ? (
          <Typography.Text type="secondary" data-testid="tree-match-count">
            {t('checkboxTree.matches', { count: filtered.matches.size })}
          </Typography.Text>
        ) : null}
      </Flex>
    ) : null;

  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset would bring its own border and legend into antd's form layout
    <div id={props.id} role="group" aria-label={props.label} data-checkbox-tree>
      {toolbar}
      {treeData.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('checkboxTree.noMatch')} />
      ) : (
        <Tree<AntNode>
          checkable
          checkStrictly
          selectable={false}
          // A fixed height makes the tree virtual: only the rows in view are rendered.
          height={boxHeight}
          style={{ border: '1px solid var(--ant-color-border-secondary, #f0f0f0)', borderRadius: 6, padding: 4 }}
          disabled={disabled}
          treeData={treeData}
          expandedKeys={expandedKeys}
          onExpand={(keys) => !searching && setExpanded(keys.map(String))}
          checkedKeys={selected}
          titleRender={(n) => (
            <span data-tree-key={n.key}>
              {highlighted(n.title, searching ? query : '')}
              {source.sectionSelect && n.top && !n.isLeaf && !disabled ? (
                <span style={{ marginInlineStart: 12 }}>
                  <Typography.Link
                    data-testid="tree-section-all"
                    onClick={(e) => {
                      e.stopPropagation();
                      setSection(n.node, true);
                    }}
                  >
                    {t('checkboxTree.all')}
                  </Typography.Link>
                  <Typography.Text type="secondary"> / </Typography.Text>
                  <Typography.Link
                    data-testid="tree-section-none"
                    onClick={(e) => {
                      e.stopPropagation();
                      setSection(n.node, false);
                    }}
                  >
                    {t('checkboxTree.none')}
                  </Typography.Link>
                </span>
              ) : null}
            </span>
          )}
          onCheck={(_keys, info) => apply(toggleKey(nodes, selected, String(info.node.key), info.checked))}
        />
      )}
    </div>
  );
}
