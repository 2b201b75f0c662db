// @vitest-environment jsdom
/**
 * Line items in a form (docs/schema-language.md, "Line items"): the whole-season template's
 * work items as rows with their own grid, a work-type select per row fed by the row
 * property's options, nested material rows, row buttons titled in the console language, and
 * a bad row value refused in the browser on that row's field.
 */
import { resolve } from 'node:path';
import { cleanup, fireEvent, screen as dom, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { loadRegistry, type SchemaRegistry } from '../../runtime/schema/registry.ts';
import type { FormScreen } from '../../runtime/schema/screen.ts';
import { buildForm, enumeratedFields, formModel } from '../../runtime/screens/form-schema.ts';
import { createHarness, renderScreen, settled, stubBrowserApis } from './screens-harness.tsx';

const root = resolve(import.meta.dirname, '../..');
let registry: SchemaRegistry;
beforeAll(async () => {
  stubBrowserApis();
  registry = await loadRegistry([folderSource(root)]);
});
afterEach(() => cleanup());

describe('line items', { timeout: 60_000 }, () => {
  it('lays out work-item rows and keys their options by the dot path of the row property', () => {
    const screen = registry.screen('seasonWorkTemplateForm') as FormScreen;
    const model = formModel(screen, registry.resource('planTemplates'))!;
    const fields = enumeratedFields(screen, model).map((x) => x.field.field);
    expect(fields).toContain('workItems.workTypeId');
    const choices = new Map([['workItems.workTypeId', [{ value: 3, label: '播种' }]]]);
    const built = buildForm(screen, model, 'edit', {}, 'es', choices);
    const rows = (built.uiSchema.workItems as Record<string, any>).items;
    expect(rows['ui:options'].sections[0].columns).toBe(5);
    expect(rows.workTypeId['ui:widget']).toBe('choiceSelect');
    expect(rows.workTypeId['ui:options'].choices).toEqual([{ value: 3, label: '播种' }]);
    // The nested materials take a whole line and get their own grid of three.
    expect(rows['ui:options'].sections[0].fields.find((f: { name: string }) => f.name === 'materials').span).toBe(5);
    expect(rows.materials.items['ui:options'].sections[0].columns).toBe(3);
    // Row titles in the form's language.
    const itemSchema = (built.schema.properties!.workItems as Record<string, any>).items;
    expect(itemSchema.properties.days.title).toBe('Días');
    expect(itemSchema.properties.materials.items.properties.amountPerMu.title).toBe('Cantidad por mu');
    // The other lists are carried, not shown.
    expect((built.uiSchema.stages as Record<string, unknown>)['ui:widget']).toBe('hidden');
    expect(built.fields).toEqual(expect.arrayContaining(['stages', 'keyNodes', 'workItems']));
  });

  it('refuses a work item without a name under that row’s field, posts nothing, and titles the row buttons in the console language', async () => {
    const h = createHarness(registry);
    const { container } = renderScreen(h, registry, 'seasonWorkTemplateForm', { params: { id: '1', createrId: '1' } });
    await settled(h, container);
    // A number input clamps to its bounds (days ≥ 1) as the user leaves it; a text can be emptied.
    const names = dom.getAllByLabelText('农事');
    expect(names.length).toBeGreaterThanOrEqual(2);
    fireEvent.change(names[1], { target: { value: '' } });
    fireEvent.submit(container.querySelector('form')!);
    const error = (i: number) => names[i].closest('.ant-form-item')!.querySelector('.ant-form-item-explain-error')?.textContent ?? null;
    await waitFor(() => expect(error(1)).toMatch(/农事/));
    expect(error(0)).toBeNull();
    expect(h.transport.log.filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(container.querySelector('button[title="添加一行"]')).not.toBeNull();
    expect(container.querySelector('button[title="删除此行"]')).not.toBeNull();
    // Named by their words, not by their icons ("plus-circle").
    const rowButtons = [...container.querySelectorAll('button[title]')].map((b) => [b.getAttribute('title'), b.getAttribute('aria-label')]);
    expect(rowButtons.length).toBeGreaterThan(2);
    for (const [title, name] of rowButtons) expect(name).toBe(title);
  });

  it('a multi-select with minItems starts empty: no blank value to show or to fail on', async () => {
    const h = createHarness(registry);
    const { container } = renderScreen(h, registry, 'publishFarmingTask', { params: { groupId: '1', plantPlanId: '2', orderNumber: '9' } });
    await settled(h, container);
    const assignees = dom.getByLabelText('执行人').closest('.ant-form-item')!;
    // rjsf would fill `assigneeIds` (minItems 1) with one empty entry: an empty tag, then "must be integer" on save.
    expect(assignees.querySelectorAll('.ant-select-selection-item').length).toBe(0);
    fireEvent.submit(container.querySelector('form')!);
    await waitFor(() => expect(assignees.querySelector('.ant-form-item-explain-error')?.textContent).toMatch(/执行人/));
    expect(assignees.querySelector('.ant-form-item-explain-error')?.textContent).not.toMatch(/integer|整数/);
    expect(h.transport.log.filter((r) => !r.startsWith('GET '))).toEqual([]);
  });
});
