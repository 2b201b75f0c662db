/**
 * A form's live preview (FormScreen.preview): the lint's checks of the block (widget of the
 * manifest, served write endpoint, fields of the record, body references) on the real
 * makePlantPlan document, and the pure rules of when the preview is asked for and with what.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { lintScreens, type LintInput } from '../../runtime/schema/lint.ts';
import { formRule } from '../../runtime/schema/lint/rules/form.ts';
import type { MenuDocument } from '../../runtime/schema/menus.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import type { FormPreview, FormScreen, Screen } from '../../runtime/schema/screen.ts';
import { WIDGET_NAMES } from '../../runtime/schema/widget-names.ts';
import { previewBody, previewRequires, unreadyFields } from '../../runtime/screens/form-preview.ts';

const ROOT = join(import.meta.dirname, '../..');
const GENERATE = '/api/farmPlantGroup/plans/generate';

async function input(): Promise<LintInput> {
  const screens: LintInput['screens'] = [];
  const resources = new Map<string, ResourceDocument>();
  let menus: MenuDocument | null = null;
  for (const d of await folderSource(ROOT).documents()) {
    const value = JSON.parse(d.content as string);
    if (d.type === 'screen') screens.push({ screen: value as Screen, file: d.file });
    else if (d.type === 'resource') resources.set(value.name, value as ResourceDocument);
    else menus = value as MenuDocument;
  }
  // The server serves generate (and GETs); the lint asks this instead of the OpenAPI document.
  const served = (method: string, path: string) => (method === 'POST' && path === GENERATE) || method === 'GET';
  return { screens, resources, menus, widgetNames: WIDGET_NAMES, served };
}

/** The form rule's problems about the preview, with makePlantPlan's preview replaced by `preview`. */
async function previewProblems(preview: FormPreview | undefined) {
  const all = await input();
  const entry = all.screens.find((s) => s.screen.id === 'makePlantPlan')!;
  const screen = { ...(entry.screen as FormScreen), preview };
  return lintScreens({ ...all, screens: [{ screen, file: entry.file }] }, [formRule])
    .filter((p) => p.pointer.startsWith('/preview'))
    .map((p) => [p.pointer, p.message, p.severity]);
}

const makePlantPlanPreview: FormPreview = {
  widget: 'plantingTimeline',
  endpoint: { path: GENERATE, method: 'POST' },
  body: { preview: { value: true } },
  requires: ['groupId', 'templateId', 'startOn'],
  adjustments: 'adjustments',
  title: { zh: '计划预览', en: 'Plan preview', es: 'Vista previa del plan' },
};

describe('form preview: lint', () => {
  it('accepts makePlantPlan’s preview as the repository has it', async () => {
    const all = await input();
    const doc = all.screens.find((s) => s.screen.id === 'makePlantPlan')!.screen as FormScreen;
    expect(doc.preview).toMatchObject(makePlantPlanPreview);
    expect(await previewProblems(doc.preview)).toEqual([]);
  });

  it('refuses a widget outside the manifest', async () => {
    expect(await previewProblems({ ...makePlantPlanPreview, widget: 'ganttChart' })).toEqual([
      ['/preview/widget', `"ganttChart" is not a registered widget (registered: ${WIDGET_NAMES.join(', ')})`, 'error'],
    ]);
  });

  it('refuses an endpoint the server does not serve, and one that takes no body', async () => {
    expect(await previewProblems({ ...makePlantPlanPreview, endpoint: { path: '/api/farmPlantGroup/plans/dryRun', method: 'POST' } })).toEqual([
      ['/preview/endpoint/path', 'POST /api/farmPlantGroup/plans/dryRun is not served by the server (not in its OpenAPI document)', 'error'],
    ]);
    expect(await previewProblems({ ...makePlantPlanPreview, endpoint: { path: '/api/farmPlantGroup/plans/templateOptions' } })).toEqual([
      ['/preview/endpoint', "a preview sends the form's values as a body; GET takes none", 'error'],
    ]);
  });

  it('refuses waited-for fields and body references outside the record', async () => {
    const problems = await previewProblems({ ...makePlantPlanPreview, requires: ['groupId', 'sowingDay'], body: { preview: { value: true }, cropId: 'record.cropId' } });
    expect(problems).toEqual([
      ['/preview/body/cropId', expect.stringContaining('cropId'), 'error'],
      ['/preview/requires/1', '"sowingDay" is not a property of the form\'s record', 'error'],
    ]);
  });

  it('refuses adjustments kept in no property of the record, or among the fields that clear them', async () => {
    expect(await previewProblems({ ...makePlantPlanPreview, adjustments: 'moves' })).toEqual([
      ['/preview/adjustments', '"moves" is not a property of the form\'s record, so the save could not carry it', 'error'],
    ]);
    expect(await previewProblems({ ...makePlantPlanPreview, adjustments: 'startOn' })).toEqual([
      ['/preview/adjustments', 'is cleared when a field of requires changes, so it cannot be one of them', 'error'],
    ]);
  });
});

describe('form preview: when and what is asked', () => {
  it('waits for its own fields, else the record’s required ones', () => {
    expect(previewRequires(makePlantPlanPreview, ['groupId'])).toEqual(['groupId', 'templateId', 'startOn']);
    expect(previewRequires({ ...makePlantPlanPreview, requires: undefined }, ['groupId', 'templateId'])).toEqual(['groupId', 'templateId']);
    expect(previewRequires({ ...makePlantPlanPreview, requires: undefined }, undefined)).toEqual([]);
  });

  it('a field is not ready while empty or while the record schema refuses its value', () => {
    const requires = ['groupId', 'templateId', 'startOn'];
    expect(unreadyFields(requires, { groupId: 4 }, undefined)).toEqual(['templateId', 'startOn']);
    expect(unreadyFields(requires, { groupId: 4, templateId: 2, startOn: '' }, undefined)).toEqual(['startOn']);
    expect(unreadyFields(requires, { groupId: 4, templateId: 2, startOn: '2026-13-40' }, { startOn: { __errors: ['must be a date'] } })).toEqual(['startOn']);
    expect(unreadyFields(requires, { groupId: 4, templateId: 2, startOn: '2026-04-01' }, { name: { __errors: ['too long'] } })).toEqual([]);
  });

  it('sends the form’s shown fields with the preview’s body values, and nothing while a field is not ready', () => {
    const ctx = { route: { id: '4' }, record: {} };
    const data = { groupId: 4, planTypeId: 3, templateId: 2, startOn: '2026-04-01', name: '', hiddenExtra: 'x' };
    expect(previewBody(makePlantPlanPreview, ['groupId', 'planTypeId', 'templateId', 'startOn', 'name'], data, ctx, [])).toEqual({
      groupId: 4,
      planTypeId: 3,
      templateId: 2,
      startOn: '2026-04-01',
      preview: true,
    });
    expect(previewBody(makePlantPlanPreview, ['groupId'], data, ctx, ['startOn'])).toBeNull();
    // The preview's own values win over a field of the same name, and may read the route.
    expect(previewBody({ ...makePlantPlanPreview, body: { groupId: 'route.id' } }, ['groupId'], { groupId: 9 }, ctx, [])).toEqual({ groupId: '4' });
  });
});
