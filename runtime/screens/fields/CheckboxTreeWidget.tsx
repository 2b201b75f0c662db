/**
 * The `checkboxTree` form widget: nodes read from the field's `tree` endpoint, checked
 * keys in the field (a list), leaf keys (e.g. a menu's element codes) in the leaf field.
 * See tree-keys.ts for what checking does.
 */
import { Alert, Skeleton, Tree } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../app/context.ts';
import { isHttpError } from '../../http/errors.ts';
import type { TreeSource } from '../../schema/screen.ts';
import { resolveEndpoint } from '../endpoints.ts';
import { useLang, useScreenHost } from '../host.ts';
import type { FormContext } from './form-context.ts';
import { splitKeys, toggleKey, treeNodes, type TreeNode } from './tree-keys.ts';

interface AntNode {
  key: string;
  title: string;
  children: AntNode[];
  isLeaf: boolean;
}

function toTree(list: TreeNode[]): AntNode[] {
  return list.map((n) => ({ key: n.key, title: n.title, children: toTree(n.children), isLeaf: n.children.length === 0 }));
}

function asKeys(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : [];
}

export function CheckboxTreeWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const host = useScreenHost();
  const { http } = useServices();
  const source = (props.options as { tree?: TreeSource }).tree;
  const context = props.registry.formContext as FormContext | undefined;
  const record = (context?.ctx.record ?? {}) as Record<string, unknown>;
  const [data, setData] = useState<unknown>(undefined);
  const [failure, setFailure] = useState<string | null>(null);

  // The endpoint's parameters come from the route (not from the data being edited), so
  // the tree is read once per form.
  const endpoint = useMemo(
    () => (source ? resolveEndpoint(source.endpoint, { route: context?.ctx.route, query: context?.ctx.query }, host.registry, undefined) : null),
    [source, context?.ctx.route, context?.ctx.query, host.registry],
  );
  useEffect(() => {
    if (!endpoint) return;
    let live = true;
    http
      .request({ method: endpoint.method, url: endpoint.url })
      .then((env) => live && setData(env.data))
      .catch((e: unknown) => live && setFailure(isHttpError(e) ? (e.serverMessage ?? e.message) : String(e)));
    return () => {
      live = false;
    };
  }, [endpoint, http]);

  const nodes = useMemo(() => (source && data !== undefined ? treeNodes(data, source, lang) : []), [data, source, lang]);
  if (!source) return null;
  if (failure) return <Alert type="error" showIcon title={t('screens.tree.failed')} description={failure} />;
  if (data === undefined) return <Skeleton active paragraph={{ rows: 4 }} />;

  const own = asKeys(props.value);
  const leaves = source.leafField ? asKeys(record[source.leafField]) : [];
  const selected = [...own, ...leaves];
  const disabled = props.disabled || props.readonly;

  return (
    <div id={props.id} role="group" aria-label={props.label} data-checkbox-tree style={{ maxHeight: 520, overflow: 'auto' }}>
      <Tree
        checkable
        checkStrictly
        selectable={false}
        defaultExpandAll
        disabled={disabled}
        treeData={toTree(nodes)}
        checkedKeys={selected}
        onCheck={(_keys, info) => {
          const next = toggleKey(nodes, selected, String(info.node.key), info.checked);
          const split = splitKeys(nodes, next);
          const patch: Record<string, unknown> = { [props.name]: split.own };
          if (source.leafField) patch[source.leafField] = split.leaves;
          if (context) context.setValues(patch);
          else props.onChange(split.own);
        }}
      />
    </div>
  );
}
