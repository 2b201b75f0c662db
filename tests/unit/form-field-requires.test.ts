/**
 * A form field's `requires` (docs/schema-language.md): the regional center of a farm is a
 * field of the farm form only for holders of multiFarmIndex:region (the platform role); for
 * anyone else it is neither shown nor sent, so the console never offers a change the server
 * refuses (40301). The role seed keeps the code to the platform role.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { loadRegistry, type SchemaRegistry } from '../../runtime/schema/registry.ts';
import type { FormScreen } from '../../runtime/schema/screen.ts';
import { buildForm, formModel, submitBody } from '../../runtime/screens/form-schema.ts';
import { loadMenus } from '../../runtime/schema/menus.ts';
import { readFileSync } from 'node:fs';
import { resolveGrants, ROLE_SPECS } from '../../server/seed/roles.ts';

const root = resolve(import.meta.dirname, '../..');
let registry: SchemaRegistry;
beforeAll(async () => {
  registry = await loadRegistry([folderSource(root)]);
});

describe('a field that requires a code', () => {
  const record = { name: '禾丰生态农场', centerId: 3, version: 2 };
  const build = (held: string[]) => {
    const screen = registry.screen('farmForm') as FormScreen;
    const model = formModel(screen, registry.resource(screen.resource ?? ''))!;
    return buildForm(screen, model, 'edit', record, 'zh', new Map(), (codes) => codes.some((c) => held.includes(c)));
  };

  it('is shown and sent to a holder of the code', () => {
    const built = build(['multiFarmIndex:region']);
    expect(built.fields).toContain('centerId');
    expect(submitBody(built.fields, record, 'edit', record)).toMatchObject({ centerId: 3 });
  });

  it('is neither shown nor sent to anyone else', () => {
    const built = build(['multiFarmIndex:edit']);
    expect(built.fields).not.toContain('centerId');
    expect(built.schema.properties).not.toHaveProperty('centerId');
    expect(submitBody(built.fields, record, 'edit', record)).not.toHaveProperty('centerId');
  });

  it('the region codes belong to the platform role only, though others hold every other code of those menus', () => {
    const doc = loadMenus(JSON.parse(readFileSync(resolve(root, 'schemas/menus.json'), 'utf8')));
    const holders = ROLE_SPECS.filter((r) => resolveGrants(r, doc).elements.some((e) => e.endsWith(':region'))).map((r) => r.code);
    expect(holders).toEqual(['platformAdmin']);
    const provider = resolveGrants(ROLE_SPECS.find((r) => r.code === 'serviceProvider')!, doc).elements;
    expect(provider).toContain('multiFarmIndex:edit');
  });
});
