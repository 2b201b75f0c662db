import { describe, expect, it } from 'vitest';
import { propertyNames, valueChoices } from '../../widgets/schema-studio/completion.ts';

describe('studio completion from the meta-schemas', () => {
  const table = { kind: 'table', columns: [{ field: 'name' }] };
  it('names the properties of a screen of its kind', () => {
    const names = propertyNames('screen', [], table).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['id', 'title', 'route', 'authority', 'columns', 'resource']));
    const widget = propertyNames('screen', [], { kind: 'widget' }).map((p) => p.name);
    expect(widget).toContain('widget');
    expect(widget).not.toContain('columns');
  });
  it('names the properties of a column and the values of its enums', () => {
    expect(propertyNames('screen', ['columns', 0], table).map((p) => p.name)).toEqual(expect.arrayContaining(['field', 'title', 'render']));
    expect(valueChoices('screen', ['columns', 0, 'render'], table)).toEqual(expect.arrayContaining(['text', 'tag', 'date']));
    expect(valueChoices('screen', ['kind'], {})).toEqual(expect.arrayContaining(['table', 'form', 'widget']));
  });
  it('completes menus and resources too', () => {
    expect(propertyNames('menus', ['menus', 0, 'children', 0], {}).map((p) => p.name)).toEqual(expect.arrayContaining(['code', 'title', 'icon', 'sort', 'hidden']));
    expect(propertyNames('resource', [], {}).map((p) => p.name)).toEqual(expect.arrayContaining(['name', 'title']));
  });
});
