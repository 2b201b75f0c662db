import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../runtime/schema/ajv.ts';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { FINITE_KEYWORD, hasControlCharacter, PLAIN_TEXT_KEYWORD, withInputRules } from '../../runtime/schema/input-rules.ts';
import { fieldProblems } from '../../runtime/schema/messages.ts';
import { loadRegistry } from '../../runtime/schema/registry.ts';
import { writeJsonSchema } from '../../runtime/schema/resource.ts';
import type { FormScreen } from '../../runtime/schema/screen.ts';
import { LANGS } from '../../runtime/schema/texts.ts';
import { buildForm, formModel } from '../../runtime/screens/form-schema.ts';
import { formValidator } from '../../runtime/screens/form-validator.ts';
import { compileBodyValidator } from '../../server/resources/validation.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('the rules of every field (runtime/schema/input-rules.ts)', () => {
  it('knows the C0 controls but tab, line feed and carriage return', () => {
    for (let c = 0; c < 0x20; c++) expect(hasControlCharacter(`a${String.fromCharCode(c)}`), c.toString(16)).toBe(![0x09, 0x0a, 0x0d].includes(c));
    expect(hasControlCharacter('普通文本 <b> \u007f \u00a0')).toBe(false);
  });

  it('puts the rules on every string and number of a schema, however nested, but not on a fixed list or under not', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 10 },
        kind: { type: 'string', enum: ['a', 'b'] },
        n: { type: ['integer', 'null'] },
        tags: { type: 'array', items: { type: 'string' } },
        rows: { type: 'array', items: { type: 'object', properties: { note: { type: 'string' }, qty: { type: 'number' } } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        never: { not: { type: 'string' } },
      },
    };
    const out = withInputRules(schema) as any;
    expect(out.properties.name[PLAIN_TEXT_KEYWORD]).toBe(true);
    expect(out.properties.kind[PLAIN_TEXT_KEYWORD]).toBeUndefined();
    expect(out.properties.n[FINITE_KEYWORD]).toBe(true);
    expect(out.properties.tags.items[PLAIN_TEXT_KEYWORD]).toBe(true);
    expect(out.properties.rows.items.properties.note[PLAIN_TEXT_KEYWORD]).toBe(true);
    expect(out.properties.rows.items.properties.qty[FINITE_KEYWORD]).toBe(true);
    expect(out.properties.labels.additionalProperties[PLAIN_TEXT_KEYWORD]).toBe(true);
    expect(out.properties.either.anyOf.map((s: any) => [s[PLAIN_TEXT_KEYWORD], s[FINITE_KEYWORD]])).toEqual([[true, undefined], [undefined, true]]);
    expect(out.properties.never.not[PLAIN_TEXT_KEYWORD]).toBeUndefined();
    // The input is left as it was, and a second walk changes nothing.
    expect((schema.properties.name as Record<string, unknown>)[PLAIN_TEXT_KEYWORD]).toBeUndefined();
    expect(withInputRules(out)).toEqual(out);
  });

  it('refuses a control character and a coerced infinite number, in the words of every language', () => {
    const schema = withInputRules({ type: 'object', properties: { note: { type: 'string', 'x-title': { zh: '备注', en: 'Note', es: 'Nota' } }, size: { type: 'integer', minimum: 1, maximum: 500 } } });
    const text = createAjv({ coerce: true }).compile(schema);
    const query = { note: 'a\u0000', size: '1e400' };
    expect(text(query)).toBe(false);
    expect(fieldProblems(text.errors ?? [], 'zh')).toEqual([
      { field: 'note', message: '备注不能包含控制字符（如 NUL 等不可见字符）' },
      { field: 'size', message: '必须是整数' },
    ]);
    expect(fieldProblems(text.errors ?? [], 'en')[0].message).toBe('Note cannot contain control characters (invisible characters such as NUL)');
    expect(fieldProblems(text.errors ?? [], 'es')[0].message).toBe('Nota no puede contener caracteres de control (caracteres invisibles como NUL)');
    expect(text({ note: 'line\r\nline\tcell', size: '500' })).toBe(true);
  });

  it('the crop form says what the server says about a NUL in the name, in zh, en and es', async () => {
    const reg = await loadRegistry([folderSource(ROOT)]);
    const doc = reg.resource('crops')!;
    const screen = reg.screen('cropsForm') as FormScreen;
    const server = compileBodyValidator(writeJsonSchema(doc, 'create'));
    const data = { name: '玉米\u0000', category: 'grain', status: 1 };
    for (const lang of LANGS) {
      expect(server(data)).toBe(false);
      const serverSays = fieldProblems(server.errors ?? [], lang).filter((p) => p.field === 'name');
      const built = buildForm(screen, formModel(screen, doc)!, 'add', data, lang, new Map());
      const { errors } = formValidator(lang).validateFormData(data, built.schema);
      const formSays = errors.filter((e) => e.property === '.name').map((e) => ({ field: 'name', message: e.message }));
      expect(formSays).toEqual(serverSays);
      expect(formSays).toHaveLength(1);
      expect(formSays[0].message).toMatch(/控制字符|control characters|caracteres de control/);
    }
  });
});
