/**
 * The TypeScript side of the schema language (the `as const` lists its types are made of)
 * and the meta-schemas that editors, the registry and schemas:check validate against must
 * say the same thing: a value added to one and not the other would be accepted by one side
 * and refused, or silently ignored, by the other.
 */
import { describe, expect, it } from 'vitest';
import { HTTP_METHODS, RESOURCE_OPERATIONS } from '../../runtime/protocol/operations.ts';
import { LANGS } from '../../runtime/protocol/texts.ts';
import { COMPARE_KINDS } from '../../runtime/schema/cross-rules.ts';
import { FILTER_KINDS } from '../../runtime/schema/resource.ts';
import resourceMeta from '../../runtime/schema/resource.schema.json' with { type: 'json' };
import {
  ACTION_KINDS,
  CHART_TYPES,
  COLUMN_RENDERS,
  EXPORT_FORMATS,
  FILTER_OPS,
  FILTER_WIDGETS,
  FORM_MODES,
  FORM_WIDGETS,
  SCREEN_FORMAT_VERSION,
  SCREEN_KINDS,
} from '../../runtime/schema/screen.ts';
import screenMeta from '../../runtime/schema/screen.schema.json' with { type: 'json' };

type Json = Record<string, unknown>;
const defs = (screenMeta as Json).$defs as Record<string, Json>;

/** The value at a JSON pointer of a meta-schema. */
function at(doc: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

function sorted(values: readonly unknown[]): unknown[] {
  return [...values].map(String).sort();
}

/** Every `const` of `kind` among the definitions: the kinds the meta-schema knows. */
function constKinds(suffix: string): string[] {
  return Object.entries(defs)
    .filter(([name]) => name.endsWith(suffix))
    .map(([, def]) => ((def.properties as Json | undefined)?.kind as Json | undefined)?.const)
    .filter((v): v is string => typeof v === 'string');
}

describe('TypeScript lists match the screen meta-schema', () => {
  it.each([
    ['column renders', COLUMN_RENDERS, '/$defs/render/enum'],
    ['filter operators', FILTER_OPS, '/$defs/filterOp/enum'],
    ['filter widgets', FILTER_WIDGETS, '/$defs/filter/properties/widget/enum'],
    ['form widgets', FORM_WIDGETS, '/$defs/formField/properties/widget/enum'],
    ['form modes', FORM_MODES, '/$defs/formScreen/properties/defaultMode/enum'],
    ['form modes of openForm', FORM_MODES, '/$defs/openFormAction/properties/mode/enum'],
    ['chart types', CHART_TYPES, '/$defs/chartBlock/properties/chart/enum'],
    ['endpoint methods', HTTP_METHODS, '/$defs/literalEndpoint/properties/method/enum'],
    ['resource operations', RESOURCE_OPERATIONS, '/$defs/resourceEndpoint/properties/operation/enum'],
  ] as const)('%s', (_name, list, pointer) => {
    const values = at(screenMeta, pointer);
    expect(Array.isArray(values), `${pointer} is an enum`).toBe(true);
    expect(sorted(list)).toEqual(sorted(values as unknown[]));
  });

  it('screen kinds', () => {
    expect(sorted(SCREEN_KINDS)).toEqual(sorted(constKinds('Screen')));
  });

  it('action kinds', () => {
    expect(sorted(ACTION_KINDS)).toEqual(sorted(constKinds('Action')));
  });

  it('export formats', () => {
    const items = at(screenMeta, '/$defs/exportAction/properties/formats/items/enum');
    expect(sorted(EXPORT_FORMATS)).toEqual(sorted(items as unknown[]));
  });

  it('the format version', () => {
    expect(at(screenMeta, '/$defs/screenBase/properties/formatVersion/const')).toBe(SCREEN_FORMAT_VERSION);
  });

  it('texts are zh, en and es', () => {
    const text = defs.i18nText as Json;
    expect(sorted((text.required as string[]) ?? Object.keys(text.properties as Json))).toEqual(sorted(LANGS));
  });
});

describe('TypeScript lists match the resource meta-schema', () => {
  it('cross-field comparison kinds', () => {
    expect(sorted(COMPARE_KINDS)).toEqual(sorted(at(resourceMeta, '/properties/rules/items/oneOf/0/properties/kind/enum') as unknown[]));
  });

  it('filter operators', () => {
    expect(sorted(FILTER_KINDS)).toEqual(sorted(at(resourceMeta, '/properties/searchable/items/properties/filter/enum') as unknown[]));
    // A screen's filter picks one of the resource's kinds; keyword is a query parameter of its own.
    expect(sorted(FILTER_OPS)).toEqual(sorted(FILTER_KINDS.filter((k) => k !== 'keyword')));
  });
});
