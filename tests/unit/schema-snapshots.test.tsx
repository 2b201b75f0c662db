// @vitest-environment jsdom
/**
 * One snapshot per screen document under schemas/ (QA snapshots): the registry loads the
 * folder as the console does, each screen renders in jsdom with deterministic fixture data
 * derived from its resource's record schema, and what it shows is compared with
 * tests/unit/__snapshots__/schemas/<file>.txt: the requests the screen made, then its
 * semantic outline (roles, names, texts, states; no markup or class names, see
 * semantic-tree.ts). A few screens also keep their rendered antd markup (the gallery,
 * without hashed class names) so that a change of the component library shows. A new
 * document gets its test with no code; an invalid one renders its error panel (and fails
 * the check below with its file name); `npm run snapshots:update` refreshes them.
 *
 * Published revisions (docs/studio.md, "Snapshots of published revisions") go through the
 * same render: the documents under tests/fixtures/published/ (a revision of cropsManager
 * as the studio stores it) overlay the bundled set and are snapshotted under
 * __snapshots__/published/; `npm run snapshots:published` points SNAPSHOT_PUBLISHED_DIR
 * at a folder exported from a database and SNAPSHOT_PUBLISHED_OUT at its own folder.
 */
process.env.TZ = 'UTC';

import { cleanup, prettyDOM } from '@testing-library/react';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { loadRegistry, type SchemaRegistry, type SourceDocument } from '../../runtime/schema/registry.ts';
import type { Screen } from '../../runtime/schema/screen.ts';
import { routeParams, screenRoutes } from '../../runtime/schema/screen.ts';
import { createHarness, renderScreen, settled, stableHtml, stubBrowserApis } from './screens-harness.tsx';
import { fixtureParams } from '../../tools/render-check/render.tsx';
import { markupWithoutHashes, semanticTree } from './semantic-tree.ts';
import { WIDGET_MANIFEST } from '../../widgets/manifest.ts';
import { viewOf } from '../../runtime/screens/widget-view.ts';
import { LazyStepsView } from '../../runtime/screens/steps-view.ts';

const root = resolve(import.meta.dirname, '../..');
const source = folderSource(root);
const documents = (source.documents() as { file: string; type: string; content: unknown }[]).filter((d) => d.type === 'screen');
const files = documents.map((d) => d.file);
/** Form documents that can load a record get a second snapshot in show mode: the read view (descriptions). */
const formFiles = documents
  .filter((d) => {
    const doc = JSON.parse(String(d.content)) as { kind?: string; resource?: string; endpoints?: { load?: unknown }; route?: string; routes?: { route: string }[]; idParam?: string };
    // A form reachable only at routes without the record id (an "add" page) never shows a record.
    const routes = [...(doc.route ? [doc.route] : []), ...(doc.routes ?? []).map((r) => r.route)];
    const addOnly = routes.length > 0 && routes.every((r) => !routeParams(r).includes(doc.idParam ?? 'id'));
    return doc.kind === 'form' && !!(doc.resource || doc.endpoints?.load) && !addOnly;
  })
  .map((d) => d.file);

/**
 * The day every snapshot is rendered on, whatever the machine's date: a screen that builds a
 * range from today (a trend's last year) records this day, so the suite passes tomorrow too.
 * Only Date is replaced; timers stay real, so React, antd and the waits behave as usual.
 */
const SNAPSHOT_NOW = new Date('2026-06-15T04:00:00Z');
/** Runs `render` on the snapshot clock, and gives the machine its clock back after. */
async function onSnapshotClock<T>(render: () => Promise<T>): Promise<T> {
  const machine = new Date();
  vi.setSystemTime(SNAPSHOT_NOW);
  try {
    return await render();
  } finally {
    vi.setSystemTime(machine);
  }
}
afterAll(() => vi.useRealTimers());

let registry: SchemaRegistry;
beforeAll(async () => {
  stubBrowserApis();
  registry = await loadRegistry([source], { lint: true });
  // Lazy views loaded before the first render: a view that suspends inside another lazy
  // view (a wizard's step, a widget) never settles under React's development build, and
  // OpenLayers takes long to transform the first time.
  await Promise.all([...Object.values(WIDGET_MANIFEST).map((load) => load && viewOf(load).preload()), LazyStepsView.preload()]);
}, 180_000);
afterEach(() => cleanup());

/** Screens whose rendered markup is kept too: one of each common kind. */
const GALLERY = new Set(['schemas/screens/knowledge/cropsManager.json', 'schemas/screens/knowledge/cropsForm.json', 'schemas/screens/knowledge/cropDetail.json']);

/**
 * One screen of `registry` rendered with fixture data: the requests it made, then its
 * semantic outline. An invalid document fails here with its problems.
 */
function snapshotOf(registry: SchemaRegistry, file: string): Promise<{ container: HTMLElement; text: string; screen: Screen }> {
  return onSnapshotClock(() => renderedOutline(registry, file));
}

async function renderedOutline(registry: SchemaRegistry, file: string): Promise<{ container: HTMLElement; text: string; screen: Screen }> {
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
  const requests = [...new Set(h.transport.log)].map((r) => `> ${r}`).join('\n');
  const outline = stableHtml(container, (el) => semanticTree(el));
  return { container, text: `${requests}\n\n${outline}`, screen };
}

describe('schema snapshots', () => {
  it('finds the screen documents', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s', async (file) => {
    const { container, text } = await snapshotOf(registry, file);
    const name = file.replace(/^schemas\//, '');
    await expect(text).toMatchFileSnapshot(`./__snapshots__/schemas/${name}.txt`);
    if (GALLERY.has(file)) {
      const html = markupWithoutHashes(stableHtml(container, (el) => prettyDOM(el, Number.POSITIVE_INFINITY, { highlight: false }) || ''));
      expect(html, 'no hashed class name in the gallery').not.toMatch(/css-dev-only|css-var-/);
      await expect(html).toMatchFileSnapshot(`./__snapshots__/gallery/${name}.html`);
    }
  }, 60_000);

  // The machine's date must not reach a snapshot: the screens that read today are rendered
  // with the machine set to two far-apart days and compared with the same stored snapshot.
  it.each(['schemas/screens/devices/seedlingReportTrend.json', 'schemas/screens/devices/seedlingSituation.json'])('%s is the same on any day', async (file) => {
    const name = file.replace(/^schemas\//, '');
    for (const machineDay of ['2026-11-27T23:30:00Z', '2031-02-28T12:00:00Z']) {
      vi.setSystemTime(new Date(machineDay));
      const { text } = await snapshotOf(registry, file);
      cleanup();
      expect(text, `rendered with the machine on ${machineDay}`).toContain('2026-06-15');
      await expect(text).toMatchFileSnapshot(`./__snapshots__/schemas/${name}.txt`);
    }
    vi.useRealTimers();
  }, 60_000);

  it.each(formFiles)('%s in show mode', async (file) => {
    const screen = [...registry.screens.values()].find((s) => s.file === file)!.screen;
    if (screen.kind !== 'form') throw new Error(`${file} is not a form`);
    const first = screenRoutes(screen)[0];
    const params = { ...fixtureParams(first ? routeParams(first.route) : [screen.idParam ?? 'id']), [screen.modeParam ?? 'operate']: 'show' };
    const h = createHarness(registry);
    const container = await onSnapshotClock(async () => {
      const { container } = renderScreen(h, registry, screen.id, { routePattern: first?.route, authority: first?.authority ?? screen.authority, params });
      await settled(h, container);
      return container;
    });
    // A read view: descriptions, no form controls, no required marks.
    expect(container.querySelector('[data-testid="read-view"]'), file).not.toBeNull();
    expect(container.querySelectorAll('input, textarea, select, .ant-form-item-required').length, file).toBe(0);
    const requests = [...new Set(h.transport.log)].map((r) => `> ${r}`).join('\n');
    const outline = stableHtml(container, (el) => semanticTree(el));
    await expect(`${requests}\n\n${outline}`).toMatchFileSnapshot(`./__snapshots__/schemas/${file.replace(/^schemas\//, '')}.show.txt`);
  }, 60_000);
});

/** Published revisions: the fixture of the suite, or a database's export (snapshots:published). */
const publishedDir = resolve(process.env.SNAPSHOT_PUBLISHED_DIR ?? resolve(import.meta.dirname, '../fixtures/published'));
const publishedOut = process.env.SNAPSHOT_PUBLISHED_OUT ?? './__snapshots__/published';
const published = folderSource(publishedDir, 'published').documents() as SourceDocument[];
/** The published screens, and the bundled screens of a published resource (their columns' titles come from it). */
const publishedScreens = (() => {
  const files = new Set(published.filter((d) => d.type === 'screen').map((d) => d.file));
  const resources = new Set(published.filter((d) => d.type === 'resource').map((d) => (JSON.parse(String(d.content)) as { name: string }).name));
  for (const d of documents) if (resources.has((JSON.parse(String(d.content)) as { resource?: string }).resource ?? '')) files.add(d.file);
  return [...files].sort();
})();

describe('published revisions', () => {
  let overlaid: SchemaRegistry;
  beforeAll(async () => {
    stubBrowserApis();
    // Untrusted, as the console takes them: validated against the meta-schema and the rules across documents.
    overlaid = await loadRegistry([source, { name: 'published', documents: () => published }], { lint: true });
  });

  it('has published documents to snapshot', () => {
    expect(published.length).toBeGreaterThan(0);
  });

  it.each(publishedScreens)('%s', async (file) => {
    const { text } = await snapshotOf(overlaid, file);
    await expect(text).toMatchFileSnapshot(`${publishedOut}/${file.replace(/^schemas\//, '')}.txt`);
  }, 60_000);
});
