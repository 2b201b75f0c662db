/**
 * The meta-schemas compiled ahead of time (tools/meta-validators.ts): the generated
 * modules are current, a change of a meta-schema makes them stale, and they judge
 * documents as a compiled-at-run-time validator does.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { GENERATED_DIR, META_SCHEMA_SOURCES, staleMetaValidators } from '../../tools/meta-validators.ts';
import { META_VALIDATOR_OPTIONS } from '../../runtime/schema/meta-validator-options.ts';
import { validateScreenDocument } from '../../runtime/schema/validate.ts';
import screenSchema from '../../runtime/schema/screen.schema.json' with { type: 'json' };

const ROOT = resolve(import.meta.dirname, '../..');
const temp = mkdtempSync(join(tmpdir(), 'meta-validators-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('meta-schema validators compiled ahead of time', () => {
  it('the generated modules match the meta-schemas', () => {
    expect(staleMetaValidators()).toEqual([]);
  });

  it('a changed meta-schema makes its module stale, and only its module', () => {
    for (const file of META_SCHEMA_SOURCES) {
      mkdirSync(dirname(join(temp, file)), { recursive: true });
      cpSync(join(ROOT, file), join(temp, file));
    }
    cpSync(join(ROOT, GENERATED_DIR), join(temp, GENERATED_DIR), { recursive: true });
    expect(staleMetaValidators(temp)).toEqual([]);
    const screen = JSON.parse(readFileSync(join(temp, 'runtime/schema/screen.schema.json'), 'utf8')) as { description: string };
    screen.description += ' (changed)';
    writeFileSync(join(temp, 'runtime/schema/screen.schema.json'), JSON.stringify(screen));
    expect(staleMetaValidators(temp)).toEqual([`${GENERATED_DIR}/screen-format1.ts`]);
  });

  it('judges documents as a validator compiled at run time does', () => {
    const compiled = new Ajv2020(META_VALIDATOR_OPTIONS.screen).compile(screenSchema);
    const base = JSON.parse(readFileSync(join(ROOT, 'schemas/screens/knowledge/cropsManager.json'), 'utf8')) as Record<string, unknown>;
    const broken = [
      base,
      { ...base, kind: 'tabel' },
      { ...base, title: { zh: '作物' } },
      { ...base, route: 'no-slash', extra: true },
    ];
    for (const doc of broken) {
      const ok = compiled(doc);
      const result = validateScreenDocument(doc, 'x.json');
      expect(result.problems.length === 0).toBe(ok);
    }
    expect(validateScreenDocument({ ...base, kind: 'tabel' }, 'x.json').problems[0]).toMatchObject({ pointer: '/kind', message: expect.stringContaining('"table"') });
  });
});
