// @vitest-environment jsdom
/**
 * One DOM snapshot per screen document under schemas/ (issue 4, QA snapshots): the
 * registry loads the folder as the console does, each screen renders in jsdom with
 * deterministic fixture data derived from its resource's record schema, and the DOM is
 * compared with tests/unit/__snapshots__/schemas/<file>.html. A new document gets its
 * test with no code; an invalid one renders its error panel (and fails the check below
 * with its file name); `npm run snapshots:update` refreshes them after an intended change.
 */
process.env.TZ = 'UTC';

import { cleanup, prettyDOM } from '@testing-library/react';
import { resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { loadRegistry, type SchemaRegistry } from '../../runtime/schema/registry.ts';
import { routeParams, screenRoutes } from '../../runtime/schema/screen.ts';
import { createHarness, renderScreen, settled, stableHtml, stubBrowserApis } from './screens-harness.tsx';

const root = resolve(import.meta.dirname, '../..');
const source = folderSource(root);
const documents = (source.documents() as { file: string; type: string; content: unknown }[]).filter((d) => d.type === 'screen');
const files = documents.map((d) => d.file);
/** Form documents that can load a record get a second snapshot in show mode: the read view (descriptions). */
const formFiles = documents
  .filter((d) => {
    const doc = JSON.parse(String(d.content)) as { kind?: string; resource?: string; endpoints?: { load?: unknown } };
    return doc.kind === 'form' && !!(doc.resource || doc.endpoints?.load);
  })
  .map((d) => d.file);

let registry: SchemaRegistry;
beforeAll(async () => {
  stubBrowserApis();
  registry = await loadRegistry([source], { lint: true });
});
afterEach(() => cleanup());

/** Route parameters for a snapshot: forms in edit mode on record 1, every other parameter "1". */
function fixtureParams(names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, n === 'operate' ? 'edit' : '1']));
}

describe('schema snapshots', () => {
  it('finds the screen documents', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s', async (file) => {
    const loaded = [...registry.screens.values()].find((s) => s.file === file);
    const broken = registry.broken.find((b) => b.file === file);
    expect(broken?.problems.map((p) => `${p.file}#${p.pointer} ${p.message}`) ?? [], `${file} is invalid`).toEqual([]);
    expect(loaded, `${file} was not loaded`).toBeDefined();
    const screen = loaded!.screen;
    const first = screenRoutes(screen)[0];
    const params = fixtureParams(first ? routeParams(first.route) : screen.kind === 'form' ? [screen.modeParam ?? 'operate', screen.idParam ?? 'id'] : ['id']);
    const h = createHarness(registry);
    const { container } = renderScreen(h, registry, screen.id, { routePattern: first?.route, authority: first?.authority ?? screen.authority, params });
    await settled(h, container);
    const html = stableHtml(container, (el) => prettyDOM(el, Number.POSITIVE_INFINITY, { highlight: false }) || '');
    await expect(html).toMatchFileSnapshot(`./__snapshots__/schemas/${file.replace(/^schemas\//, '')}.html`);
  }, 60_000);

  it.each(formFiles)('%s in show mode', async (file) => {
    const screen = [...registry.screens.values()].find((s) => s.file === file)!.screen;
    if (screen.kind !== 'form') throw new Error(`${file} is not a form`);
    const first = screenRoutes(screen)[0];
    const params = { ...fixtureParams(first ? routeParams(first.route) : [screen.idParam ?? 'id']), [screen.modeParam ?? 'operate']: 'show' };
    const h = createHarness(registry);
    const { container } = renderScreen(h, registry, screen.id, { routePattern: first?.route, authority: first?.authority ?? screen.authority, params });
    await settled(h, container);
    // A read view: descriptions, no form controls, no required marks.
    expect(container.querySelector('[data-testid="read-view"]'), file).not.toBeNull();
    expect(container.querySelectorAll('input, textarea, select, .ant-form-item-required').length, file).toBe(0);
    const html = stableHtml(container, (el) => prettyDOM(el, Number.POSITIVE_INFINITY, { highlight: false }) || '');
    await expect(html).toMatchFileSnapshot(`./__snapshots__/schemas/${file.replace(/^schemas\//, '')}.show.html`);
  }, 60_000);
});
