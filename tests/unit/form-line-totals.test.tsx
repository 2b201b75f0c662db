// @vitest-environment jsdom
/**
 * Read-only line-item properties and line totals (docs/schema-language.md, "Line items"):
 * the manufacturer's shipment form shows ordered / shipped / left as text beside the inputs
 * of «本次发货»; the farm's order form computes quantity × unit price per line, exactly and
 * to the fen as the database rounds, and their sum under the rows; show mode lists the
 * progress per line with the same totals.
 */
import { resolve } from 'node:path';
import { cleanup, fireEvent, render, screen as dom, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { loadRegistry, type SchemaRegistry } from '../../runtime/schema/registry.ts';
import type { FormScreen } from '../../runtime/schema/screen.ts';
import { buildForm, formModel } from '../../runtime/screens/form-schema.ts';
import { lineAmount, linesTotal } from '../../runtime/screens/line-totals.ts';
import { ReadView, readSections } from '../../runtime/screens/ReadView.tsx';
import { createHarness, renderScreen, settled, stubBrowserApis } from './screens-harness.tsx';

const root = resolve(import.meta.dirname, '../..');
let registry: SchemaRegistry;
beforeAll(async () => {
  stubBrowserApis();
  registry = await loadRegistry([folderSource(root)]);
});
afterEach(() => cleanup());

describe('line totals are exact decimals', () => {
  it('multiplies as scaled integers and rounds half away from zero to the fen', () => {
    expect(lineAmount(3, 0.1)).toBe('0.30');
    expect(lineAmount(0.7, 0.2)).toBe('0.14');
    expect(lineAmount(30, 108.5)).toBe('3255.00');
    expect(lineAmount(12.5, 201.35)).toBe('2516.88');
    expect(lineAmount('0.005', 1)).toBe('0.01');
    expect(lineAmount(1.005, 1)).toBe('1.01');
    expect(lineAmount(-1.005, 1)).toBe('-1.01');
    expect(lineAmount(2, '')).toBeNull();
    expect(lineAmount(undefined, 3)).toBeNull();
    expect(lineAmount('1e3', 3)).toBeNull();
    // The sum is of the rounded lines, as the server's order total is.
    expect(linesTotal([{ q: 30, p: 108.5 }, { q: 12.5, p: 201.35 }, { q: null, p: 1 }], 'q', 'p')).toBe('5771.88');
    expect(linesTotal(undefined, 'q', 'p')).toBe('0.00');
  });
});

describe('read-only line items', { timeout: 60_000 }, () => {
  it('the shipment form: ordered, shipped and left are text; what is shipped now is an input', () => {
    const screen = registry.screen('factoryOrderForm') as FormScreen;
    const model = formModel(screen, undefined)!;
    const rows = (buildForm(screen, model, 'edit', {}, 'zh', new Map()).uiSchema.lines as Record<string, any>).items;
    for (const f of ['name', 'unit', 'quantity', 'shipped', 'remaining']) expect(rows[f]['ui:widget'], f).toBe('readOnlyText');
    expect(rows.shipNow['ui:widget']).toBeUndefined();
    expect(rows.shipExpiresOn['ui:widget']).toBe('date');
    // Hidden in edit: carried, not shown.
    for (const f of ['unitPrice', 'amount', 'received', 'shipProducedOn']) expect(rows[f]['ui:widget'], f).toBe('hidden');
    const shown = rows['ui:options'].sections[0].fields.map((f: { name: string }) => f.name);
    expect(shown).toEqual(['name', 'unit', 'quantity', 'shipped', 'remaining', 'shipNow', 'shipBatch', 'shipExpiresOn']);
  });

  it('renders the read-only properties as text, not inputs, in the shipment form', async () => {
    const h = createHarness(registry);
    const { container } = renderScreen(h, registry, 'factoryOrderForm', { params: { operate: 'edit', id: '1' } });
    await settled(h, container);
    const texts = [...container.querySelectorAll('[data-readonly-field]')].map((e) => e.getAttribute('data-readonly-field'));
    expect(texts).toEqual(expect.arrayContaining(['name', 'unit', 'quantity', 'shipped', 'remaining']));
    // No input carries the ordered quantity; «本次发货» is one.
    const form = container.querySelector('form')!;
    expect(form.querySelector('input[id$="_quantity"]')).toBeNull();
    expect(form.querySelector('input[id$="_shipNow"]')).not.toBeNull();
  });

  it('the order form computes each line’s amount and their sum as the user types', async () => {
    const h = createHarness(registry);
    const { container } = renderScreen(h, registry, 'purchaseOrderForm', { params: { operate: 'add', id: '0' } });
    await settled(h, container);
    const quantity = dom.getByLabelText('数量', { exact: true });
    const price = dom.getByLabelText('单价（元）', { exact: true });
    fireEvent.change(quantity, { target: { value: '12.5' } });
    fireEvent.change(price, { target: { value: '201.35' } });
    await waitFor(() => expect(container.querySelector('.sf-line-total')?.textContent).toBe('2516.88'));
    expect(container.querySelector('[data-lines-total]')?.textContent).toBe('2516.88');
    // The progress of an order is not asked for in add mode.
    expect(container.querySelector('[data-readonly-field="shipped"]')).toBeNull();
  });

  it('show mode: one table of lines with the progress and the amounts, summed', async () => {
    const screen = registry.screen('purchaseOrderForm') as FormScreen;
    const model = formModel(screen, undefined)!;
    const data = {
      number: 'CG000012',
      lines: [
        { materialId: 7, name: '尿素', unit: '袋', quantity: 30, unitPrice: 108.5, amount: '3255.00', shipped: 20, received: 20, remaining: 10 },
        { materialId: 8, name: '磷酸二铵', unit: '袋', quantity: 12.5, unitPrice: 201.35, amount: '2516.88', shipped: 0, received: 0, remaining: 12.5 },
      ],
    };
    const sections = readSections(screen, model, data, 'zh', new Map());
    const { container } = render(<ReadView sections={sections} lang="zh" />);
    const heads = [...container.querySelectorAll('th')].map((th) => th.textContent);
    expect(heads).toEqual(['品名', '单位', '数量', '单价（元）', '已发', '已收', '未发', '金额（元）']);
    const cells = [...container.querySelectorAll('.ant-table-tbody tr.ant-table-row')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    expect(cells[0]).toEqual(['尿素', '袋', '30', '108.5', '20', '20', '10', '3255.00']);
    expect(cells[1].at(-1)).toBe('2516.88');
    expect(container.querySelector('[data-lines-total]')?.textContent).toBe('5771.88');
  });
});
