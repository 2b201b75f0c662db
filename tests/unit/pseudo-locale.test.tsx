/**
 * The pseudo-locale of the studio's preview (runtime/i18n/pseudo.ts, docs/studio.md):
 * every text made from the English one, accented, bracketed and about 40 % longer,
 * placeholders kept; documents and the runtime's own strings turned into it; and a screen
 * rendered in it by the real renderers shows no text of a real language.
 */
// @vitest-environment jsdom
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundledRegistry } from '../../runtime/app/bundled-screens.ts';
import { runtimeMessages } from '../../runtime/i18n/i18n.ts';
import { createPseudoI18n, PSEUDO_LOCALE, pseudoLocalize, pseudoMessages, pseudoTexts } from '../../runtime/i18n/pseudo.ts';
import { LANGS } from '../../runtime/protocol/texts.ts';
import type { SchemaRegistry } from '../../runtime/schema/registry.ts';
import { screenRoutes } from '../../runtime/schema/screen.ts';
import { pseudoRegistry } from '../../widgets/schema-studio/Preview.tsx';
import { createHarness, renderScreen, settled, stubBrowserApis } from './screens-harness.tsx';

describe('pseudoLocalize', () => {
  it('accents, brackets and lengthens by about 40 %', () => {
    expect(pseudoLocalize('Status')).toBe('[Ŝţàţûš ~~~]');
    const long = 'Expected harvest date';
    const p = pseudoLocalize(long);
    expect(p.startsWith('[Éẋþéçţéð')).toBe(true);
    expect(p.endsWith(']')).toBe(true);
    expect([...p].length).toBeGreaterThanOrEqual(Math.round(long.length * 1.4));
    expect(p).not.toMatch(/[a-z]{2}/);
    expect(pseudoLocalize('')).toBe('');
  });

  it('keeps placeholders of i18next and of the sentences as they are', () => {
    expect(pseudoLocalize('{{count}} rows')).toBe('[{{count}} ŕôŵš ~~]');
    expect(pseudoLocalize('at line {line}')).toMatch(/^\[àţ ļîñé \{line\} ~+\]$/);
  });

  it('is not one of the users’ languages', () => {
    expect((LANGS as readonly string[]).includes(PSEUDO_LOCALE)).toBe(false);
  });
});

describe('pseudoTexts and pseudoMessages', () => {
  it('turns every text of a document into the pseudo-locale from its English, leaving the rest', () => {
    const doc = {
      id: 'x',
      title: { zh: '状态', en: 'Status', es: 'Estado' },
      columns: [{ field: 'name', title: { zh: '名称', en: '', es: 'Nombre' } }],
      record: { properties: { zh: { type: 'string' } } },
    };
    const p = pseudoTexts(doc);
    expect(p.title).toEqual({ zh: '[Ŝţàţûš ~~~]', en: '[Ŝţàţûš ~~~]', es: '[Ŝţàţûš ~~~]' });
    // No English: the Chinese text is the source.
    expect(p.columns[0].title.en).toBe('[名称 ~]');
    expect(p.columns[0].field).toBe('name');
    expect(p.record).toEqual(doc.record);
    expect(doc.title.en).toBe('Status');
  });

  it('turns the runtime catalogue into it, key for key', () => {
    const p = pseudoMessages(runtimeMessages.en) as Record<string, unknown>;
    expect(Object.keys(p).sort()).toEqual(Object.keys(runtimeMessages.en).sort());
    const i18n = createPseudoI18n();
    expect(i18n.language).toBe('en');
    const leaf = (node: unknown, path: string[]): [string, string] => {
      if (typeof node === 'string') return [path.join('.'), node];
      const [k, v] = Object.entries(node as Record<string, unknown>).find(([, x]) => typeof x === 'string' || (x && typeof x === 'object'))!;
      return leaf(v, [...path, k]);
    };
    const [key, english] = leaf(runtimeMessages.en, []);
    // Interpolated by i18next after the pseudo-locale: the placeholder survived.
    expect(i18n.t(key, { kind: 'chart' })).toBe(pseudoLocalize(english).replace('{{kind}}', 'chart'));
  });
});

describe('a screen rendered in the pseudo-locale', () => {
  let registry: SchemaRegistry;
  beforeAll(async () => {
    stubBrowserApis();
    registry = pseudoRegistry(await bundledRegistry());
  });
  afterEach(() => cleanup());

  it('shows cropsManager with every schema text in it: title, columns, actions', async () => {
    const screen = registry.screen('cropsManager')!;
    expect(screen.title.zh).toBe(pseudoLocalize('Crops'));
    const h = createHarness(registry, { language: 'en' });
    const services = { ...h.services, i18n: createPseudoI18n() };
    const first = screenRoutes(screen)[0];
    const { container } = renderScreen({ ...h, services }, registry, 'cropsManager', { routePattern: first.route, authority: first.authority });
    await settled(h, container);
    const headers = [...container.querySelectorAll('th')].map((th) => th.textContent?.trim() ?? '').filter(Boolean);
    expect(headers.length).toBeGreaterThan(3);
    for (const t of headers) expect(t, 'a column title outside the pseudo-locale').toMatch(/^\[.*~\]$/);
    const buttons = [...container.querySelectorAll('button')].map((b) => b.textContent?.trim() ?? '').filter(Boolean);
    expect(buttons.some((b) => /^\[.*~\]$/.test(b))).toBe(true);
    // No Chinese text from the documents or the runtime.
    expect(container.textContent).not.toMatch(/[作物状态新增搜索重置]/);
  }, 60_000);
});
