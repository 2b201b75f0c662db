/**
 * The studio's readable diff (runtime/schema/diff.ts): named items matched by name (a
 * moved column is one change), sentences in zh, en and es, element codes spelt in full,
 * and applyChange undoing exactly one change.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyChange, describeChanges } from '../../runtime/schema/diff.ts';

type Doc = Record<string, any>;
const crops = (): Doc => JSON.parse(readFileSync(new URL('../../schemas/screens/knowledge/cropsManager.json', import.meta.url), 'utf8'));

describe('describeChanges', () => {
  it('finds nothing between equal documents, and ignores the revision number', () => {
    expect(describeChanges(crops(), crops())).toEqual([]);
    expect(describeChanges(crops(), { ...crops(), revision: 9 })).toEqual([]);
  });

  it('says a column moved, once, in three languages', () => {
    const after = crops();
    const status = after.columns.findIndex((c: Doc) => c.field === 'status');
    after.columns.unshift(...after.columns.splice(status, 1));
    const changes = describeChanges(crops(), after);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ kind: 'moved', pointer: '/columns/0', from: `/columns/${status}` });
    expect(changes[0].text.en).toBe(`column status moved from ${status + 1}th to 1st`);
    expect(changes[0].text.zh).toBe(`列「status」从第 ${status + 1} 位移到第 1 位`);
    expect(changes[0].text.es).toContain('columna status');
  });

  it('says an action now needs an element code, spelt with the screen authority', () => {
    const after = crops();
    const del = after.rowActions.findIndex((a: Doc) => a.label.zh === '删除');
    after.rowActions[del].elementCode = ':remove';
    const [change] = describeChanges(crops(), after);
    expect(change.text.en).toBe('action Delete now needs element agricultureKnowledgeCropsManager:remove');
    expect(change.text.zh).toBe('操作「删除」现在需要元素 agricultureKnowledgeCropsManager:remove');
  });

  it('says a title changed, a column was added and a property removed', () => {
    const after = crops();
    after.title = { zh: '作物', en: 'Crop list', es: 'Cultivos' };
    after.columns.push({ field: 'sowingMonths' });
    delete after.keepAlive;
    const changes = describeChanges(crops(), after);
    expect(changes.map((c) => c.kind).sort()).toEqual(['added', 'changed', 'removed']);
    expect(changes.find((c) => c.pointer === '/title')?.text.en).toBe('title changed from “Crops” to “Crop list”');
    expect(changes.find((c) => c.kind === 'added')?.text.en).toBe('column sowingMonths added');
    expect(changes.find((c) => c.kind === 'removed')?.text.en).toBe('keepAlive removed (was true)');
  });

  it('applyChange restores one change alone', () => {
    const before = crops();
    const after = crops();
    after.columns.push(after.columns.shift());
    after.columns[1].width = 999;
    after.pageSize = 77;
    delete after.help;
    const changes = describeChanges(before, after);
    const pageSize = changes.find((c) => c.pointer === '/pageSize')!;
    const restored = applyChange(after, pageSize, before);
    expect(restored.pageSize).toBe(before.pageSize);
    expect(restored.columns).toEqual(after.columns);
    expect(after.pageSize).toBe(77);
    const moved = changes.find((c) => c.kind === 'moved')!;
    const unmoved = applyChange(after, moved, before);
    expect(unmoved.columns.map((c: Doc) => c.field)).toEqual(before.columns.map((c: Doc) => c.field));
    const help = applyChange(after, changes.find((c) => c.pointer === '/help')!, before);
    expect(help.help).toEqual(before.help);
    const width = changes.find((c) => c.pointer.endsWith('/width'))!;
    expect(applyChange(after, width, before).columns[1].width).toBe(before.columns[2].width);
  });
});
