import { describe, expect, it } from 'vitest';
import { crossFieldProblems, ruleHolds, ruleMessage, type CrossFieldRule } from '../../runtime/schema/cross-rules.ts';
import type { MessageField } from '../../runtime/schema/messages.ts';
import { checkResourceDocument, type ResourceDocument } from '../../runtime/schema/resource.ts';
import { LANGS } from '../../runtime/schema/texts.ts';
import { crossFieldErrors, mergeErrorSchemas, serverErrors } from '../../runtime/screens/form-schema.ts';

const t = (zh: string, en: string, es: string) => ({ zh, en, es });
const fields: Record<string, MessageField> = {
  min: { type: 'integer', 'x-title': t('最短生育期', 'Shortest growth period', 'Ciclo mínimo') },
  max: { type: 'integer', 'x-title': t('最长生育期', 'Longest growth period', 'Ciclo máximo') },
  start: { type: 'string', format: 'date', 'x-title': t('定植日期', 'Planting date', 'Fecha de plantación') },
  end: { type: 'string', format: 'date', 'x-title': t('预计采收日期', 'Expected harvest date', 'Fecha prevista de cosecha') },
  lng: { type: 'number', 'x-title': t('经度', 'Longitude', 'Longitud') },
  lat: { type: 'number', 'x-title': t('纬度', 'Latitude', 'Latitud') },
  phone: { type: 'string', 'x-title': t('电话', 'Phone', 'Teléfono') },
  email: { type: 'string', 'x-title': t('邮箱', 'E-mail', 'Correo') },
};

describe('cross-field rules: evaluation', () => {
  const cmp = (kind: CrossFieldRule['kind'], a: unknown, b: unknown) => ruleHolds({ kind, field: 'x', than: 'y' } as CrossFieldRule, { x: a, y: b });

  it('compares numbers as numbers and dates as dates', () => {
    expect([cmp('lt', 1, 2), cmp('lt', 2, 2), cmp('lt', 3, 2)]).toEqual([true, false, false]);
    expect([cmp('lte', 1, 2), cmp('lte', 2, 2), cmp('lte', 3, 2)]).toEqual([true, true, false]);
    expect([cmp('gt', 1, 2), cmp('gt', 2, 2), cmp('gt', 3, 2)]).toEqual([false, false, true]);
    expect([cmp('gte', 1, 2), cmp('gte', 2, 2), cmp('gte', 3, 2)]).toEqual([false, true, true]);
    // 10 > 9 as numbers although "10" < "9" as text.
    expect(cmp('gt', 10, 9)).toBe(true);
    expect([cmp('after', '2024-05-01', '2024-04-30'), cmp('after', '2024-05-01', '2024-05-01'), cmp('after', '2024-04-01', '2024-05-01')]).toEqual([true, false, false]);
    expect([cmp('notBefore', '2024-05-01', '2024-05-01'), cmp('notBefore', '2024-04-30', '2024-05-01')]).toEqual([true, false]);
    expect(cmp('after', '2024-05-01T08:00:00Z', '2024-05-01T07:59:59Z')).toBe(true);
  });

  it('leaves a comparison with an empty side to the field rules', () => {
    for (const [a, b] of [[undefined, 1], [1, null], ['', '2024-01-01'], ['2024-01-01', '  ']])
      expect(cmp('gt', a, b), `${a} ${b}`).toBe(true);
  });

  it('asks for a field when another has a value, and for one of several', () => {
    const rw: CrossFieldRule = { kind: 'requiredWith', field: 'lat', with: 'lng' };
    expect(ruleHolds(rw, {})).toBe(true);
    expect(ruleHolds(rw, { lat: 45 })).toBe(true);
    expect(ruleHolds(rw, { lng: 125, lat: 45 })).toBe(true);
    expect(ruleHolds(rw, { lng: 125 })).toBe(false);
    expect(ruleHolds(rw, { lng: 0 })).toBe(false);
    expect(ruleHolds(rw, { lng: 125, lat: null })).toBe(false);
    const one: CrossFieldRule = { kind: 'atLeastOne', fields: ['phone', 'email'] };
    expect(ruleHolds(one, {})).toBe(false);
    expect(ruleHolds(one, { phone: ' ' })).toBe(false);
    expect(ruleHolds(one, { email: 'a@b.c' })).toBe(true);
  });
});

describe('cross-field rules: messages', () => {
  it('names both fields by their titles, in zh, en and es, on the rule field', () => {
    const cases: [CrossFieldRule, Record<string, unknown>, string, [string, string, string]][] = [
      [{ kind: 'gte', field: 'max', than: 'min' }, { min: 120, max: 100 }, 'max', ['最长生育期不能小于最短生育期', 'Longest growth period cannot be less than the shortest growth period', 'Ciclo máximo no puede ser menor que ciclo mínimo']],
      [{ kind: 'lte', field: 'min', than: 'max' }, { min: 120, max: 100 }, 'min', ['最短生育期不能大于最长生育期', 'Shortest growth period cannot be greater than the longest growth period', 'Ciclo mínimo no puede ser mayor que ciclo máximo']],
      [{ kind: 'lt', field: 'min', than: 'max' }, { min: 100, max: 100 }, 'min', ['最短生育期必须小于最长生育期', 'Shortest growth period must be less than the longest growth period', 'Ciclo mínimo debe ser menor que ciclo máximo']],
      [{ kind: 'gt', field: 'max', than: 'min' }, { min: 100, max: 100 }, 'max', ['最长生育期必须大于最短生育期', 'Longest growth period must be greater than the shortest growth period', 'Ciclo máximo debe ser mayor que ciclo mínimo']],
      [{ kind: 'after', field: 'end', than: 'start' }, { start: '2024-05-01', end: '2024-04-01' }, 'end', ['预计采收日期必须晚于定植日期', 'Expected harvest date must be after the planting date', 'Fecha prevista de cosecha debe ser posterior a fecha de plantación']],
      [{ kind: 'notBefore', field: 'end', than: 'start' }, { start: '2024-05-01', end: '2024-04-01' }, 'end', ['预计采收日期不能早于定植日期', 'Expected harvest date cannot be before the planting date', 'Fecha prevista de cosecha no puede ser anterior a fecha de plantación']],
      [{ kind: 'requiredWith', field: 'lat', with: 'lng' }, { lng: 125 }, 'lat', ['填写了经度时，请同时填写纬度', 'Enter the latitude too when the longitude is filled in', 'Introduzca también latitud cuando longitud tiene valor']],
      [{ kind: 'atLeastOne', fields: ['phone', 'email'] }, {}, 'phone', ['请至少填写电话、邮箱中的一项', 'Fill in at least one of: Phone, E-mail', 'Rellene al menos uno de: Teléfono, Correo']],
    ];
    for (const [rule, record, field, words] of cases) {
      LANGS.forEach((lang, i) => expect(crossFieldProblems([rule], fields, record, lang)).toEqual([{ field, message: words[i] }]));
    }
  });

  it("uses a rule's own message, with the titles in {field} and {than}", () => {
    const rule: CrossFieldRule = {
      kind: 'gte',
      field: 'max',
      than: 'min',
      message: t('{field}应不短于{than}', 'The {field} is never shorter than the {than}', '{field} nunca es menor que {than}'),
    };
    expect(LANGS.map((lang) => ruleMessage(rule, fields, lang))).toEqual([
      '最长生育期应不短于最短生育期',
      'The Longest growth period is never shorter than the Shortest growth period',
      'Ciclo máximo nunca es menor que Ciclo mínimo',
    ]);
  });

  it('reports nothing for a record that keeps every rule', () => {
    const rules: CrossFieldRule[] = [
      { kind: 'gte', field: 'max', than: 'min' },
      { kind: 'after', field: 'end', than: 'start' },
      { kind: 'requiredWith', field: 'lat', with: 'lng' },
    ];
    expect(crossFieldProblems(rules, fields, { min: 100, max: 120, start: '2024-04-01', end: '2024-09-01', lng: 1, lat: 2 }, 'zh')).toEqual([]);
    expect(crossFieldProblems(rules, fields, { min: 130, max: 120, start: '2024-10-01', end: '2024-09-01', lng: 1 }, 'zh').map((p) => p.field)).toEqual(['max', 'end', 'lat']);
  });
});

describe('cross-field rules in the form', () => {
  const model = {
    record: { type: 'object' as const, additionalProperties: false as const, properties: fields as ResourceDocument['record']['properties'] },
    rules: [{ kind: 'gte', field: 'max', than: 'min' }, { kind: 'requiredWith', field: 'lat', with: 'lng' }] as CrossFieldRule[],
  };

  it('shows a broken rule on its field, and leaves a rule about a hidden field to the server', () => {
    const shown = crossFieldErrors(model, ['min', 'max', 'lng'], { min: 120, max: 100, lng: 1 }, 'zh');
    expect(shown).toEqual([{ field: 'max', message: '最长生育期不能小于最短生育期' }]);
    expect(serverErrors(shown, ['min', 'max']).extra).toEqual({ max: { __errors: ['最长生育期不能小于最短生育期'] } });
  });

  it("merges the live errors with the server's refusal without repeating a sentence", () => {
    const server = { max: { __errors: ['A'] }, name: { __errors: ['B'] } };
    const live = { max: { __errors: ['A', 'C'] } };
    expect(mergeErrorSchemas(server, live)).toEqual({ max: { __errors: ['A', 'C'] }, name: { __errors: ['B'] } });
    expect(mergeErrorSchemas(undefined, {})).toBeUndefined();
  });
});

describe('cross-field rules in resource documents (schemas:check)', () => {
  const doc = (rules: unknown[]) => ({
    name: 'things',
    formatVersion: 1,
    revision: 1,
    title: t('东西', 'Things', 'Cosas'),
    basePath: '/api/things',
    authority: 'things',
    elements: { create: 'things:add', update: 'things:edit', delete: 'things:delete' },
    scope: 'platform',
    displayField: 'name',
    defaultSort: 'name',
    searchable: [],
    sortable: ['name'],
    record: {
      type: 'object',
      additionalProperties: false,
      properties: {
        name: { type: 'string', maxLength: 10, 'x-title': t('名称', 'Name', 'Nombre') },
        code: { type: 'string', maxLength: 10, pattern: '^[A-Z]+$', 'x-title': t('编码', 'Code', 'Código') },
        min: { type: 'integer', minimum: 0, maximum: 10, 'x-title': t('最小', 'Min', 'Mín') },
        max: { type: 'integer', minimum: 0, maximum: 10, 'x-title': t('最大', 'Max', 'Máx') },
        start: { type: 'string', maxLength: 10, format: 'date', 'x-title': t('开始', 'Start', 'Inicio') },
        end: { type: 'string', maxLength: 10, format: 'date', 'x-title': t('结束', 'End', 'Fin') },
        at: { type: 'string', maxLength: 30, format: 'date-time', 'x-title': t('时刻', 'At', 'En') },
        done: { type: 'boolean', 'x-title': t('完成', 'Done', 'Hecho') },
      },
    },
    rules,
  });

  it('accepts rules over existing fields of compatible kinds', () => {
    expect(
      checkResourceDocument(
        doc([
          { kind: 'lte', field: 'min', than: 'max' },
          { kind: 'after', field: 'end', than: 'start', message: t('晚', 'late', 'tarde') },
          { kind: 'requiredWith', field: 'end', with: 'start' },
          { kind: 'atLeastOne', fields: ['name', 'code'] },
        ]),
      ),
    ).toEqual([]);
  });

  it('refuses rules naming missing fields, comparing unlike kinds, or dating what is not a date', () => {
    // An unknown kind fails the meta-schema, which is checked before meaning.
    expect(checkResourceDocument(doc([{ kind: 'between', field: 'min', than: 'max' }])).some((p) => p.pointer.startsWith('/rules/0'))).toBe(true);
    const meaning = checkResourceDocument(
      doc([
        { kind: 'lte', field: 'min', than: 'nope' },
        { kind: 'lt', field: 'min', than: 'name' },
        { kind: 'gte', field: 'done', than: 'done' },
        { kind: 'after', field: 'min', than: 'max' },
        { kind: 'after', field: 'end', than: 'at' },
        { kind: 'lte', field: 'start', than: 'code' },
        { kind: 'atLeastOne', fields: ['name', 'ghost'] },
        { kind: 'requiredWith', field: 'ghost', with: 'name' },
      ]),
    );
    const by = (i: number) => meaning.filter((p) => p.pointer.startsWith(`/rules/${i}`)).map((p) => `${p.pointer} ${p.message}`);
    expect(by(0)).toEqual(['/rules/0/than names "nope", which is not a property of the record']);
    expect(by(1)[0]).toMatch(/^\/rules\/1 lt compares two number or two string properties/);
    expect(by(2)).toEqual(expect.arrayContaining(['/rules/2 names the same property twice']));
    expect(by(3)[0]).toMatch(/after compares two date or two date-time properties/);
    expect(by(4)[0]).toMatch(/after compares two date or two date-time properties/);
    expect(by(5)[0]).toMatch(/different formats/);
    expect(by(6)).toEqual(['/rules/6/fields/1 names "ghost", which is not a property of the record']);
    expect(by(7)).toEqual(['/rules/7/field names "ghost", which is not a property of the record']);
  });
});
