/**
 * The publish gate's render check over every bundled screen (issue 31, item 1): a trivial
 * change (the title, in the three languages) to every screen document renders in the
 * gate's own worker — the worker the server runs, with its module resolution — and passes.
 * Every widget and field type the bundled screens use is there: date and range pickers,
 * trees, maps, the planting timeline, equipment control. One worker, one process, no HTTP
 * per document; the HTTP path is exercised by a publish of a help text on a screen with a
 * date field, on every engine. A failing render names the block that failed (its label
 * and pointer) in the configurer's language, and never React's words.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { documentTypeOfPath, type DocumentType } from '../../runtime/schema/registry-core.ts';
import { WorkerRenderCheck } from '../../server/studio/render-check.ts';
import { t as say } from '../../server/i18n/catalog.ts';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, type Body } from './resource-fixtures.ts';
import { FULL_WALK, walkSelector, type WalkedDoc } from '../browser/walk-scope.ts';

interface Doc {
  file: string;
  type: DocumentType;
  content: Record<string, unknown>;
}

const ROOT = resolve(import.meta.dirname, '../..');
const PLANT_GROUPS = 'schemas/screens/planting/plantGroupList.json';

async function bundledDocuments(): Promise<Doc[]> {
  return (await folderSource(ROOT).documents()).map((d) => ({
    file: d.file,
    type: documentTypeOfPath(d.file)!,
    content: JSON.parse(String(d.content)) as Record<string, unknown>,
  }));
}

/** The trivial change a configurer makes: the title, in each language. */
function retitled(content: Record<string, unknown>): Record<string, unknown> {
  const title = content.title as Record<string, string>;
  return { ...content, title: { zh: `${title.zh}（新）`, en: `${title.en} (new)`, es: `${title.es} (nuevo)` } };
}

describe('the render check of the publish gate over every bundled screen', () => {
  // The gate's time-out is 10 s; the machine running the suite is shared, and what is tested
  // here is that every screen renders, not how fast.
  const check = new WorkerRenderCheck(30_000, 240_000);
  let docs: Doc[];

  beforeAll(async () => {
    docs = await bundledDocuments();
    await check.warm();
  }, 300_000);
  afterAll(async () => check.close());

  // `npm test` renders one screen of each kind and every screen changed since the last full
  // walk (tests/browser/walk-scope.ts); `npm run test:full` renders them all.
  it('passes a title change of every screen document (date pickers, trees, maps, timeline, equipment control)', async () => {
    const screens = docs.filter((d) => d.type === 'screen');
    expect(screens.length).toBeGreaterThan(200);
    const kinds = new Set(screens.map((s) => (s.content.kind === 'widget' ? `widget:${String(s.content.widget)}` : String(s.content.kind))));
    // The widgets of the runtime are all among them.
    for (const k of ['table', 'form', 'detail', 'page', 'dashboard', 'widget:map', 'widget:plantingTimeline', 'widget:equipmentControl', 'widget:schemaStudio'])
      expect([...kinds], k).toContain(k);
    // And every kind of field and filter the runtime draws: date and range pickers, trees, rich text, images.
    const widgets = new Set(JSON.stringify(screens.map((s) => s.content)).match(/"widget":"[A-Za-z]+"/g));
    for (const w of ['date', 'dateRange', 'datetimeRange', 'checkboxTree', 'richText', 'image', 'multiSelect', 'radio', 'switch'])
      expect([...widgets], w).toContain(`"widget":"${w}"`);
    const walked = walkSelector();
    const rendered = screens.filter((s) => walked({ ...(s.content as unknown as WalkedDoc), file: s.file.replace(/^schemas\/screens\//, '') }));
    expect(rendered.length).toBeGreaterThan(FULL_WALK ? 200 : 10);
    const failures: string[] = [];
    for (const s of rendered) {
      const refused = await check.check({ file: s.file, screen: retitled(s.content), effective: docs, lang: 'zh' });
      if (refused) failures.push(`${s.file}${refused.pointer ? `#${refused.pointer}` : ''}: ${say('zh', refused.key, refused.params)} [${refused.internal}]`);
    }
    expect(failures).toEqual([]);
  }, 1_500_000);

  it('names the block that fails by its label and pointer, in zh, en and es, never in React’s words', async () => {
    const doc = docs.find((d) => d.file === PLANT_GROUPS)!;
    const columns = structuredClone(doc.content.columns) as Body[];
    const area = columns.findIndex((c) => c.field === 'areaMu');
    expect(area).toBeGreaterThan(0);
    // Beyond the meta-schema (the gate refuses it before rendering): a precision that is no
    // number makes the number format throw (a RangeError of Intl.NumberFormat).
    columns[area].precision = 'two';
    const broken = { ...doc.content, columns };
    const expected = {
      zh: `用示例数据渲染页面时，列「面积（亩）」（/columns/${area}）无法显示`,
      en: `with sample data, column "Area (mu)" (/columns/${area}) does not render`,
      es: `con los datos de ejemplo, columna «Superficie (mu)» (/columns/${area}) no se muestra`,
    };
    for (const lang of ['zh', 'en', 'es'] as const) {
      const refused = await check.check({ file: PLANT_GROUPS, screen: broken, effective: docs, lang });
      expect(refused, lang).not.toBeNull();
      expect(refused!.pointer).toBe(`/columns/${area}`);
      const sentence = say(lang, refused!.key, refused!.params);
      expect(sentence).toContain(expected[lang]);
      expect(sentence).not.toMatch(/Element type|React|toFixed|RangeError|render method/);
      // What React said stays for the server's log.
      expect(refused!.internal).toMatch(/toFixed|RangeError|precision|digits/i);
    }
  }, 300_000);
});

describe.each(engines())('publishing a help text on a screen with a date field, on $name', (engine) => {
  let t: TestApp;
  let config: string;
  const timeout = process.env.STUDIO_RENDER_TIMEOUT_MS;

  beforeAll(async () => {
    // The server's render check reads its time-out when it starts: a shared machine's margin.
    process.env.STUDIO_RENDER_TIMEOUT_MS = '30000';
    t = await createTestApp(engine);
    config = await t.login('config');
  }, 300_000);
  afterAll(async () => {
    if (timeout === undefined) delete process.env.STUDIO_RENDER_TIMEOUT_MS;
    else process.env.STUDIO_RENDER_TIMEOUT_MS = timeout;
    await t?.close();
  });

  it('publishes as the configurer, and the document carries the new help', async () => {
    const doc = (await bundledDocuments()).find((d) => d.file === PLANT_GROUPS)!;
    const filters = doc.content.filters as Body[];
    expect(filters.some((f) => f.field === 'plantedOn')).toBe(true);
    const help = { zh: '按种植组查看作物、季节与面积。', en: 'Crops, seasons and areas by planting group.', es: 'Cultivos, temporadas y superficies por grupo.' };
    const r = await call(t, config, 'POST', '/api/studio/publish', { file: PLANT_GROUPS, content: JSON.stringify({ ...doc.content, help }), baseRevision: 0, comment: 'help' }, 'zh');
    expect(r.status, r.raw.body).toBe(200);
    const published = await call(t, config, 'GET', `/api/studio/document?file=${encodeURIComponent(PLANT_GROUPS)}`);
    expect((published.data as { published: { content: Body } }).published.content.help).toEqual(help);
    // A second configurer still on revision 0: refused as published meanwhile, in their language, with what changed.
    const stale = await call(t, config, 'POST', '/api/studio/publish', { file: PLANT_GROUPS, content: JSON.stringify(doc.content), baseRevision: 0, comment: 'stale' }, 'es');
    expect(stale.status, stale.raw.body).toBe(40001);
    expect(stale.message).toMatch(/^publicado mientras tanto: revisión 1 de config/);
    const changes = (stale.data as { changes: { pointer: string; text: Record<string, string> }[] }).changes;
    expect(changes.map((c) => c.pointer)).toContain('/help');
    for (const c of changes) for (const l of ['zh', 'en', 'es']) expect(c.text[l], l).toBeTruthy();
  }, 600_000);
});
