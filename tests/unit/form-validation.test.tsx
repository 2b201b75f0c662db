// @vitest-environment jsdom
/**
 * The crop form in jsdom: its errors are the server's sentences, and a broken cross-field
 * rule shows on its field as the user types, then goes when fixed.
 */
import { resolve } from 'node:path';
import { cleanup, fireEvent, screen as dom, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { loadRegistry, type SchemaRegistry } from '../../runtime/schema/registry.ts';
import { createHarness, renderScreen, settled, stubBrowserApis } from './screens-harness.tsx';

const root = resolve(import.meta.dirname, '../..');
let registry: SchemaRegistry;
beforeAll(async () => {
  stubBrowserApis();
  registry = await loadRegistry([folderSource(root)]);
});
afterEach(() => cleanup());

const explained = (container: HTMLElement) => [...container.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);

describe('form validation in words for people', { timeout: 60_000 }, () => {
  it('shows the growth-period rule on the longest period as the user types, and clears it when fixed', async () => {
    const h = createHarness(registry);
    const { container } = renderScreen(h, registry, 'cropsForm', { params: { operate: 'add', id: '0' } });
    await settled(h, container);
    const min = dom.getByLabelText('最短生育期（天）');
    const max = dom.getByLabelText('最长生育期（天）');
    fireEvent.change(min, { target: { value: '120' } });
    fireEvent.change(max, { target: { value: '100' } });
    await waitFor(() => expect(explained(container)).toEqual(['最长生育期（天）不能小于最短生育期（天）']));
    const item = max.closest('.ant-form-item')!;
    expect(item.textContent).toContain('最长生育期（天）不能小于最短生育期（天）');
    fireEvent.change(max, { target: { value: '150' } });
    await waitFor(() => expect(explained(container)).toEqual([]));
  });

  it('says what to do for an empty required field, in the console language', async () => {
    const h = createHarness(registry, { language: 'en' });
    const { container } = renderScreen(h, registry, 'cropsForm', { params: { operate: 'add', id: '0' } });
    await settled(h, container);
    fireEvent.submit(container.querySelector('form')!);
    await waitFor(() => expect(explained(container)).toContain('Enter the crop name'));
    expect(explained(container).join(' ')).not.toMatch(/must|required property|\^/);
    // Refused in the browser: nothing was posted.
    expect(h.transport.log.filter((r) => !r.startsWith('GET '))).toEqual([]);
  });
});
