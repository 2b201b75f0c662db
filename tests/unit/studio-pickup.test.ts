/**
 * The console's pickup of published documents (runtime/app/published-screens.ts): the
 * registry of bundled + published (published untrusted: an invalid one becomes its error
 * panel, the bundled screens stay), and which open screens a publish changes (their own
 * document, or the resource they show).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { changedScreens, effectiveDocuments, registryWith } from '../../runtime/app/published-screens.ts';
import { baselineProblems, checkCandidate } from '../../runtime/schema/gate.ts';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as Record<string, any>;
const CROPS = 'schemas/screens/knowledge/cropsManager.json';

describe('published screens in the console', () => {
  it('overlays a published screen on the bundled one, and names it changed', async () => {
    const bundled = await registryWith({ generation: 0, documents: [] });
    const doc = read(CROPS);
    doc.columns[0].title = { zh: '名称', en: 'Name', es: 'Nombre' };
    const live = await registryWith({ generation: 1, documents: [{ file: CROPS, type: 'screen', revision: 1, content: doc }] });
    expect((live.screen('cropsManager') as { columns: { title?: unknown }[] }).columns[0].title).toEqual({ zh: '名称', en: 'Name', es: 'Nombre' });
    expect([...changedScreens(bundled, live)]).toEqual(['cropsManager']);
    expect(live.screens.size).toBe(bundled.screens.size);
  });

  it('names the screens of a published resource changed', async () => {
    const bundled = await registryWith({ generation: 0, documents: [] });
    const crops = read('schemas/resources/crops.json');
    crops.record.properties.name['x-title'] = { zh: '作物名', en: 'Crop', es: 'Cultivo' };
    const live = await registryWith({ generation: 2, documents: [{ file: 'schemas/resources/crops.json', type: 'resource', revision: 1, content: crops }] });
    const changed = changedScreens(bundled, live);
    expect(changed.has('cropsManager')).toBe(true);
    expect(changed.has('cropsForm')).toBe(true);
    expect(changed.has('userManager')).toBe(false);
  });

  it('checks a published document: an invalid one is its error panel, the rest stay', async () => {
    const doc = read(CROPS);
    doc.columns[1].width = 'wide';
    const live = await registryWith({ generation: 3, documents: [{ file: CROPS, type: 'screen', revision: 1, content: doc }] });
    expect(live.broken.find((b) => b.file === CROPS)?.problems[0].pointer).toBe('/columns/1/width');
    expect(live.screen('cropsForm')).toBeDefined();
  });

  it('gives the studio the effective set for the gate, in the browser as on the server', async () => {
    const doc = read(CROPS);
    doc.columns[0].title = { zh: '名称', en: 'Name', es: 'Nombre' };
    const effective = await effectiveDocuments({ generation: 1, documents: [{ file: CROPS, type: 'screen', revision: 1, content: doc }] });
    expect((effective.find((d) => d.file === CROPS)!.content as typeof doc).columns[0].title.en).toBe('Name');
    const baseline = baselineProblems({ effective });
    const started = performance.now();
    const broken = structuredClone(doc);
    broken.columns[1].field = 'noSuchField';
    const problems = checkCandidate({ file: CROPS, content: JSON.stringify(broken), effective, baseline, lang: 'zh' });
    expect(problems.map((p) => p.pointer)).toContain('/columns/1/field');
    // As you type: one check with the baseline kept (logged, not asserted: machines differ).
    console.log(`gate, one screen against ${effective.length} documents: ${(performance.now() - started).toFixed(0)} ms`);
  });
});
