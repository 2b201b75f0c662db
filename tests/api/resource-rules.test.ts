/**
 * Cross-field rules and validation messages through the API, on every engine: a record
 * that breaks a rule is refused with 40001 on the rule's field, in the sentence the
 * console's form shows for the same data, and nothing is stored.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { crossFieldProblems } from '../../runtime/schema/cross-rules.ts';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { loadRegistry } from '../../runtime/schema/registry.ts';
import type { FormScreen } from '../../runtime/schema/screen.ts';
import { LANGS } from '../../runtime/schema/texts.ts';
import { buildForm, crossFieldErrors, formModel } from '../../runtime/screens/form-schema.ts';
import { allCodes, call, demoOrg, docs, fingerprint, makeUser, recordOf, someRow, variant, type Body } from './resource-fixtures.ts';

const registry = await loadRegistry([folderSource(join(import.meta.dirname, '../..'))]);
const doc = (name: string) => docs.find((d) => d.name === name)!;
const crops = doc('crops');

describe.each(engines())('cross-field rules on $name', (engine) => {
  let t: TestApp;
  let writer: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    const farm = await demoOrg(t.db, 'farm');
    writer = (await makeUser(t, { orgId: farm.orgId, ...allCodes() })).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a crop whose shortest growth period exceeds its longest, on the longest, in the words of the form; nothing changes', async () => {
    const seed = await someRow(t, writer, crops);
    const body: Body = { ...variant(crops, seed, '倒置生育期'), growthDaysMin: 120, growthDaysMax: 100 };
    const before = await fingerprint(t.db);
    const screen = registry.screen('cropsForm') as FormScreen;
    const model = formModel(screen, registry.resource('crops'))!;
    const expected = {
      zh: '最长生育期（天）不能小于最短生育期（天）',
      en: 'Longest growth period (days) cannot be less than the shortest growth period (days)',
      es: 'Ciclo máximo (días) no puede ser menor que ciclo mínimo (días)',
    };
    for (const lang of LANGS) {
      const r = await call(t, writer, 'POST', crops.basePath, body, lang);
      expect([r.http, r.status]).toEqual([400, 40001]);
      expect(r.data.errors).toEqual([{ field: 'growthDaysMax', message: expected[lang] }]);
      expect(r.message).toContain(expected[lang]);
      // The form, given the same data, shows the same sentence on the same field.
      const built = buildForm(screen, model, 'add', body, lang, new Map());
      expect(crossFieldErrors(model, built.fields, body, lang)).toEqual(r.data.errors);
    }
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('refuses the same on update, and keeps the record as it was', async () => {
    const made = await call(t, writer, 'POST', crops.basePath, variant(crops, await someRow(t, writer, crops), '更新生育期'));
    expect(made.status).toBe(200);
    const before = await fingerprint(t.db);
    const r = await call(t, writer, 'PUT', `${crops.basePath}/${made.data.id}`, { ...recordOf(crops, made.data), growthDaysMin: 200, growthDaysMax: 150, version: 1 }, 'en');
    expect([r.http, r.status]).toEqual([400, 40001]);
    expect(r.data.errors).toEqual([{ field: 'growthDaysMax', message: 'Longest growth period (days) cannot be less than the shortest growth period (days)' }]);
    expect(await fingerprint(t.db)).toBe(before);
    const equal = await call(t, writer, 'PUT', `${crops.basePath}/${made.data.id}`, { ...recordOf(crops, made.data), growthDaysMin: 150, growthDaysMax: 150, version: 1 });
    expect(equal.status).toBe(200);
  });

  it('refuses a harvest date before the planting date, and coordinates given by halves', async () => {
    const groups = doc('plantGroups');
    const group = { ...variant(groups, await someRow(t, writer, groups), '倒置日期'), plantedOn: '2024-05-10', expectedHarvestOn: '2024-05-01' };
    const g = await call(t, writer, 'POST', groups.basePath, group);
    expect([g.status, g.data?.errors]).toEqual([40001, [{ field: 'expectedHarvestOn', message: '预计采收日期必须晚于定植日期' }]]);

    const fields = doc('farmFields');
    const base = variant(fields, await someRow(t, writer, fields), 'F');
    delete base.latitude;
    const f = await call(t, writer, 'POST', fields.basePath, { ...base, longitude: 125.3 }, 'en');
    expect([f.status, f.data?.errors]).toEqual([40001, [{ field: 'latitude', message: 'Enter the latitude too when the longitude is filled in' }]]);
    const form = registry.screen('fieldForm') as FormScreen;
    const model = formModel(form, registry.resource('farmFields'))!;
    const built = buildForm(form, model, 'add', { ...base, longitude: 125.3 }, 'en', new Map());
    expect(crossFieldErrors(model, built.fields, { ...base, longitude: 125.3 }, 'en')).toEqual(f.data.errors);
  });

  it('names a missing required field by its title in the 40001 reply', async () => {
    const seed = recordOf(crops, await someRow(t, writer, crops));
    delete seed.name;
    const replies = await Promise.all(LANGS.map((lang) => call(t, writer, 'POST', crops.basePath, seed, lang)));
    expect(replies.map((r) => r.data.errors)).toEqual([
      [{ field: 'name', message: '请输入作物名称' }],
      [{ field: 'name', message: 'Enter the crop name' }],
      [{ field: 'name', message: 'Introduzca nombre del cultivo' }],
    ]);
    expect(replies[0].message).toBe('输入不合法：请输入作物名称');
  });

  it('seeds records that keep every declared rule', async () => {
    const platform = (await makeUser(t, { platform: true, ...allCodes() })).token;
    for (const d of docs.filter((x) => x.rules?.length)) {
      const r = await call(t, platform, 'GET', `${d.basePath}/page?pageSize=500`);
      expect(r.status, d.name).toBe(200);
      expect(r.data.rows.length, d.name).toBeGreaterThan(0);
      for (const row of r.data.rows) expect(crossFieldProblems(d.rules, d.record.properties, row, 'en'), `${d.name} ${row.id}`).toEqual([]);
    }
  });
});
