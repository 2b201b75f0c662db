/**
 * Issue 29, item 4 "Words everywhere": schemas:check refuses a column that would show a raw
 * code: a coded field of an endpoint's reply without labels, or a record property with an
 * enum and no x-enumTitles. The repository's documents pass.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { lintScreens, type LintInput } from '../../runtime/schema/lint.ts';
import type { MenuDocument } from '../../runtime/schema/menus.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import type { Screen, TableScreen } from '../../runtime/schema/screen.ts';
import { WIDGET_NAMES } from '../../runtime/schema/widget-names.ts';

const ROOT = join(import.meta.dirname, '../..');

async function repository(): Promise<LintInput> {
  const screens: LintInput['screens'] = [];
  const resources = new Map<string, ResourceDocument>();
  let menus: MenuDocument | null = null;
  for (const d of await folderSource(ROOT).documents()) {
    const value = JSON.parse(d.content as string);
    if (d.type === 'screen') screens.push({ screen: value as Screen, file: d.file });
    else if (d.type === 'resource') resources.set((value as ResourceDocument).name, value as ResourceDocument);
    else menus = value as MenuDocument;
  }
  return { screens, resources, menus, widgetNames: WIDGET_NAMES };
}

const rawCode = (input: LintInput) => lintScreens(input).filter((p) => p.message.includes('would show a raw code'));

describe('no raw codes on screens', () => {
  it('the documents show no column as a raw code', async () => {
    expect(rawCode(await repository())).toEqual([]);
  });

  it('a coded column of an endpoint reply without labels is refused; with options it passes', async () => {
    const input = await repository();
    const at = input.screens.findIndex((s) => s.screen.id === 'materialSupplyList');
    const screen = structuredClone(input.screens[at].screen) as TableScreen;
    const col = screen.columns.findIndex((c) => c.field === 'productType');
    delete screen.columns[col].options;
    delete screen.columns[col].render;
    const broken = { ...input, screens: input.screens.map((s, i) => (i === at ? { ...s, screen } : s)) };
    const problems = rawCode(broken);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: input.screens[at].file, pointer: `/columns/${col}` });
  });

  it('an enum without x-enumTitles on a resource column is refused', async () => {
    const input = await repository();
    const plans = structuredClone(input.resources.get('plantPlans')!);
    delete (plans.record.properties.reviewStatus as { 'x-enumTitles'?: unknown })['x-enumTitles'];
    const problems = rawCode({ ...input, resources: new Map([...input.resources, ['plantPlans', plans]]) });
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.message.includes('"reviewStatus"'))).toBe(true);
  });
});
