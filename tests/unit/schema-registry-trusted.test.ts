/**
 * The console's start (issue 10, item 1): the bundled documents, checked when the console
 * is built, are assembled into the registry without any validation, and give the same
 * screens, routes, resources and menus as the fully checked registry.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledRegistry } from '../../runtime/app/bundled-screens.ts';
import { bundledSource } from '../../runtime/schema/bundled.ts';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { assembleRegistry, gatherDocuments } from '../../runtime/schema/registry-core.ts';
import { loadRegistry } from '../../runtime/schema/registry.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('the registry of trusted (bundled) documents', () => {
  it('is the fully checked registry, built without checks', async () => {
    const trusted = await bundledRegistry();
    const checked = await loadRegistry([folderSource(ROOT)]);
    expect(checked.errors).toEqual([]);
    expect([...trusted.screens.keys()].sort()).toEqual([...checked.screens.keys()].sort());
    expect([...trusted.routes.keys()].sort()).toEqual([...checked.routes.keys()].sort());
    expect([...trusted.resources.keys()].sort()).toEqual([...checked.resources.keys()].sort());
    expect(trusted.menus?.doc).toEqual(checked.menus?.doc);
    expect(trusted.problems).toEqual([]);
  });

  it('takes a trusted document as it is, and refuses to assemble an untrusted one without checks', async () => {
    const docs = await gatherDocuments([bundledSource]);
    expect(docs.every((d) => d.trusted)).toBe(true);
    const screen = docs.find((d) => d.type === 'screen')!;
    // Not valid against the meta-schema (no title), but trusted: no validation runs.
    const odd = { ...(screen.content as object), title: undefined };
    expect(() => assembleRegistry([{ ...screen, content: odd }], null)).not.toThrow();
    expect(() => assembleRegistry([{ ...screen, trusted: false }], null)).toThrow(/needs checking/);
  });

  it('a trusted screen in an older format still goes through validation and migration', async () => {
    const docs = await gatherDocuments([bundledSource]);
    const screen = docs.find((d) => d.type === 'screen')!;
    expect(() => assembleRegistry([{ ...screen, content: { ...(screen.content as object), formatVersion: 0 } }], null)).toThrow(/needs checking/);
  });
});
