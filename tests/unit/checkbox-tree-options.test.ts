import { describe, expect, it } from 'vitest';
import { formatScalar } from '../../runtime/screens/format.tsx';
import { isChangeList } from '../../runtime/screens/changes-view.tsx';
import { branchKeys, changeSummary, filterTree, subtreeKeys, type TreeNode } from '../../runtime/screens/fields/tree-keys.ts';

const n = (key: string, title: string, children: TreeNode[] = [], leaf = false): TreeNode => ({ key, title, leaf, children });
const TREE: TreeNode[] = [
  n('base', '系统管理', [n('users', '用户管理', [n('users:add', '新增', [], true), n('users:delete', '删除', [], true)]), n('log', '操作日志', [n('log:export', '导出', [], true)])]),
  n('kms', 'Knowledge', [n('crops', 'Crops', [n('crops:add', '新增', [], true)])]),
];

describe('checkbox tree options (tree-keys)', () => {
  it('filters to matches with their ancestors; a matching node keeps its subtree; case-insensitive on titles and keys', () => {
    const log = filterTree(TREE, '日志');
    expect(log.nodes.map((s) => s.key)).toEqual(['base']);
    expect(log.nodes[0].children.map((c) => c.key)).toEqual(['log']);
    expect(log.nodes[0].children[0].children.map((c) => c.key)).toEqual(['log:export']);
    expect([...log.matches]).toEqual(['log']);
    const add = filterTree(TREE, '新增');
    expect(add.nodes.map((s) => s.key)).toEqual(['base', 'kms']);
    expect(add.nodes[0].children.map((c) => c.key)).toEqual(['users']);
    expect(add.nodes[0].children[0].children.map((c) => c.key)).toEqual(['users:add']);
    expect(filterTree(TREE, 'CROPS').nodes[0].key).toBe('kms');
    expect(filterTree(TREE, 'users:del').matches).toEqual(new Set(['users:delete']));
    expect(filterTree(TREE, 'nothing').nodes).toEqual([]);
    expect(filterTree(TREE, '  ').nodes).toBe(TREE);
  });

  it('lists branches for expand-all and a subtree for select-all', () => {
    expect(branchKeys(TREE)).toEqual(['base', 'users', 'log', 'kms', 'crops']);
    expect(subtreeKeys(TREE[1])).toEqual(['kms', 'crops', 'crops:add']);
  });

  it('summarises what a save grants and removes, by name and section, in tree order', () => {
    const before = ['base', 'log', 'log:export', 'kms', 'crops'];
    const after = ['base', 'users', 'users:add', 'kms', 'crops', 'crops:add'];
    expect(changeSummary(TREE, before, after)).toEqual([
      { key: 'base', title: '系统管理', granted: ['用户管理', '用户管理 › 新增'], removed: ['操作日志', '操作日志 › 导出'] },
      { key: 'kms', title: 'Knowledge', granted: ['Crops › 新增'], removed: [] },
    ]);
    expect(changeSummary(TREE, before, before)).toEqual([]);
  });
});

describe('the changes render', () => {
  it('reads a change list as «title: from → to» lines for exports, a value alone without «from»', () => {
    const lines = [
      { field: 'name', title: '作物名称', from: '高粱', to: '水稻' },
      { field: 'status', title: '状态', to: '启用' },
    ];
    expect(isChangeList(lines)).toBe(true);
    expect(isChangeList([{ title: 'x' }])).toBe(false);
    expect(formatScalar(lines, { render: 'changes' }, null, ['是', '否'])).toBe('作物名称: 高粱 → 水稻; 状态: 启用');
    expect(formatScalar([], { render: 'changes' }, null, ['是', '否'])).toBe('');
  });
});
