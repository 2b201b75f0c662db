// @vitest-environment jsdom
/**
 * A detail computed by a call of its own (`load`) reads again when a record of one of its
 * related lists changes (docs/schema-language.md, "detail"): plan against record follows
 * the records saved in its drawer. Another resource's change does not make it read again.
 */
import { resolve } from 'node:path';
import { act, cleanup } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { loadRegistry, type SchemaRegistry } from '../../runtime/schema/registry.ts';
import { notifyResourceChanged } from '../../runtime/screens/data-events.ts';
import { createHarness, renderScreen, settled, stubBrowserApis } from './screens-harness.tsx';

const root = resolve(import.meta.dirname, '../..');
let registry: SchemaRegistry;
beforeAll(async () => {
  stubBrowserApis();
  registry = await loadRegistry([folderSource(root)]);
});
afterEach(() => cleanup());

describe('a detail over its own call', { timeout: 60_000 }, () => {
  it('reads again when its related resource changes, not when another does', async () => {
    const h = createHarness(registry);
    const { container } = renderScreen(h, registry, 'planAndRecord', { params: { groupId: '1', plantPlanId: '2', orderNumber: '9', taskId: '5' } });
    await settled(h, container);
    const loads = () => h.transport.log.filter((r) => r.startsWith('GET /api/farmPlantGroup/tasks/5/comparison')).length;
    expect(loads()).toBe(1);

    act(() => notifyResourceChanged('plantGroups'));
    await settled(h, container);
    expect(loads()).toBe(1);

    act(() => notifyResourceChanged('farmingRecords'));
    await settled(h, container);
    expect(loads()).toBe(2);
  });
});
