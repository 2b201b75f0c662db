import { describe, expect, it } from 'vitest';
import { lineColumn, pointerAtOffset, pointerPosition, pointerSegments } from '../../runtime/schema/pointer-position.ts';

const text = `{
  "id": "cropsManager",
  "columns": [
    { "field": "name", "title": { "zh": "名称" } },
    {
      "field": "status",
      "a/b": 1,
      "t~x": 2
    }
  ]
}`;

describe('pointer-position', () => {
  it('splits pointers with escapes', () => {
    expect(pointerSegments('')).toEqual([]);
    expect(pointerSegments('/a~1b/0/c~0d')).toEqual(['a/b', '0', 'c~d']);
  });

  it('counts lines and columns from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });

  it('finds a property at its key, with line and column', () => {
    const p = pointerPosition(text, '/columns/0/title/zh');
    expect(p).toMatchObject({ line: 4, column: 35, found: '/columns/0/title/zh' });
    expect(text.slice(p.offset, p.offset + 4)).toBe('"zh"');
  });

  it('finds array items and escaped names', () => {
    expect(pointerPosition(text, '/columns/1')).toMatchObject({ line: 5, column: 5 });
    expect(pointerPosition(text, '/columns/1/a~1b')).toMatchObject({ line: 7, column: 7 });
    expect(pointerPosition(text, '/columns/1/t~0x')).toMatchObject({ line: 8, column: 7 });
  });

  it('falls back to the nearest existing ancestor', () => {
    const p = pointerPosition(text, '/columns/1/title/en');
    expect(p.found).toBe('/columns/1');
    expect(p.line).toBe(5);
    expect(pointerPosition(text, '')).toMatchObject({ line: 1, column: 1, found: '' });
  });

  it('survives text that does not parse', () => {
    const p = pointerPosition('{"a": [1, 2', '/a/1');
    expect(p.line).toBe(1);
  });

  it('tells the pointer and key position at an offset', () => {
    const at = text.indexOf('"status"') + 2;
    expect(pointerAtOffset(text, at)).toMatchObject({ pointer: '/columns/1/field', atKey: false });
    const key = text.indexOf('"field": "status"') + 2;
    expect(pointerAtOffset(text, key)).toMatchObject({ pointer: '/columns/1/field', atKey: true });
  });
});
