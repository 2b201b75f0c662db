import { join } from 'node:path';
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { ValidateFunction } from 'ajv';
import type { RJSFSchema } from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../runtime/schema/ajv.ts';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { FIELD_RULES, fieldProblems, localizeErrors, messageFor, PHONE_MESSAGES, type FieldProblem, type MessageField } from '../../runtime/schema/messages.ts';
import { crossFieldProblems } from '../../runtime/schema/cross-rules.ts';
import { loadRegistry } from '../../runtime/schema/registry.ts';
import { writeJsonSchema, type RecordSchema } from '../../runtime/schema/resource.ts';
import type { FormScreen } from '../../runtime/schema/screen.ts';
import { LANGS, type Lang } from '../../runtime/schema/texts.ts';
import { buildForm, crossFieldErrors, formModel } from '../../runtime/screens/form-schema.ts';
import * as accountSchemas from '../../server/legacy/schemas.ts';

const ROOT = join(import.meta.dirname, '../..');
const title = (zh: string, en: string, es: string) => ({ zh, en, es });

const record: RecordSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['username', 'kind', 'tags', 'day'],
  properties: {
    username: { type: 'string', minLength: 3, maxLength: 8, 'x-title': title('用户名', 'Username', 'Usuario') },
    code: { type: 'string', maxLength: 10, pattern: '^[A-Z]+$', 'x-title': title('编码', 'Code', 'Código') },
    note: { type: 'string', maxLength: 10, pattern: '^[^<>]*$', 'x-title': title('备注', 'Note', 'Nota') },
    email: { type: 'string', maxLength: 50, format: 'email', 'x-title': title('邮箱', 'E-mail', 'Correo') },
    day: { type: 'string', maxLength: 10, format: 'date', 'x-title': title('日期', 'Date', 'Fecha') },
    site: { type: 'string', maxLength: 100, format: 'uri', 'x-title': title('网址', 'Website', 'Sitio web') },
    count: { type: 'integer', minimum: 1, maximum: 10, 'x-title': title('数量', 'Quantity', 'Cantidad') },
    step: { type: 'number', minimum: 0, maximum: 100, multipleOf: 5, 'x-title': title('步长', 'Step', 'Paso') },
    kind: { type: 'string', maxLength: 5, enum: ['a', 'b'], 'x-title': title('类型', 'Kind', 'Tipo') },
    tags: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      uniqueItems: true,
      items: { type: 'string', maxLength: 5 },
      'x-title': title('标签', 'Tags', 'Etiquetas'),
    },
  },
};
// exclusive bounds are not in the documents' subset but come with hand-written schemas.
const extra = {
  type: 'object',
  properties: { ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, 'x-title': title('比例', 'Ratio', 'Proporción') } },
};

const compile = (schema: object): ValidateFunction => createAjv().compile(schema);
const check = compile(record);
const checkExtra = compile(extra);

function problems(data: Record<string, unknown>, lang: Lang, validate = check): FieldProblem[] {
  expect(validate(data)).toBe(false);
  return fieldProblems(validate.errors ?? [], lang);
}
const valid = { username: 'alice', kind: 'a', tags: ['x'], day: '2024-03-01' };

/** Each rule once: the data breaking it, the field, and the sentence in zh, en and es. */
const CASES: { rule: string; data: Record<string, unknown>; field: string; words: [string, string, string]; validate?: ValidateFunction }[] = [
  { rule: 'required (typed)', data: { ...valid, username: undefined }, field: 'username', words: ['请输入用户名', 'Enter the username', 'Introduzca usuario'] },
  { rule: 'required (chosen)', data: { ...valid, kind: undefined }, field: 'kind', words: ['请选择类型', 'Choose the kind', 'Seleccione tipo'] },
  { rule: 'required (date)', data: { ...valid, day: undefined }, field: 'day', words: ['请选择日期', 'Choose the date', 'Seleccione fecha'] },
  { rule: 'minLength', data: { ...valid, username: 'al' }, field: 'username', words: ['用户名最少 3 个字符', 'Username: at least 3 characters', 'Usuario: al menos 3 caracteres'] },
  { rule: 'maxLength', data: { ...valid, username: 'abcdefghi' }, field: 'username', words: ['用户名最长 8 个字符', 'Username: at most 8 characters', 'Usuario: como máximo 8 caracteres'] },
  { rule: 'pattern', data: { ...valid, code: 'abc' }, field: 'code', words: ['编码格式不正确', 'Code is not in the right format', 'Código no tiene el formato correcto'] },
  { rule: 'pattern (no markup)', data: { ...valid, note: '<b>' }, field: 'note', words: ['备注不能包含 < 或 >', 'Note cannot contain < or >', 'Nota no puede contener < ni >'] },
  {
    rule: 'format email',
    data: { ...valid, email: 'nope' },
    field: 'email',
    words: ['邮箱应为有效的邮箱地址，如 name@example.com', 'E-mail: enter an e-mail address such as name@example.com', 'Correo: introduzca un correo como nombre@ejemplo.com'],
  },
  { rule: 'format date', data: { ...valid, day: '3/1/2024' }, field: 'day', words: ['日期应为日期，如 2024-03-01', 'Date: enter a date such as 2024-03-01', 'Fecha: introduzca una fecha como 2024-03-01'] },
  {
    rule: 'format uri',
    data: { ...valid, site: 'not a uri' },
    field: 'site',
    words: ['网址应为以 http:// 或 https:// 开头的网址', 'Website: enter a web address starting with http:// or https://', 'Sitio web: introduzca una dirección web que empiece por http:// o https://'],
  },
  { rule: 'minimum', data: { ...valid, count: 0 }, field: 'count', words: ['数量不能小于 1', 'Quantity cannot be less than 1', 'Cantidad no puede ser menor que 1'] },
  { rule: 'maximum', data: { ...valid, count: 11 }, field: 'count', words: ['数量不能大于 10', 'Quantity cannot be greater than 10', 'Cantidad no puede ser mayor que 10'] },
  { rule: 'multipleOf', data: { ...valid, step: 7 }, field: 'step', words: ['步长必须是 5 的整数倍', 'Step must be a multiple of 5', 'Paso debe ser múltiplo de 5'] },
  { rule: 'type integer', data: { ...valid, count: 1.5 }, field: 'count', words: ['数量必须是整数', 'Quantity must be a whole number', 'Cantidad debe ser un número entero'] },
  { rule: 'type number', data: { ...valid, step: 'five' }, field: 'step', words: ['步长必须是数字', 'Step must be a number', 'Paso debe ser un número'] },
  { rule: 'enum', data: { ...valid, kind: 'z' }, field: 'kind', words: ['请从列表中选择类型', 'Choose the kind from the list', 'Elija tipo de la lista'] },
  { rule: 'minItems', data: { ...valid, tags: [] }, field: 'tags', words: ['标签至少选择 1 项', 'Tags: choose at least 1 item', 'Etiquetas: elija al menos 1 elemento'] },
  { rule: 'maxItems', data: { ...valid, tags: ['a', 'b', 'c'] }, field: 'tags', words: ['标签最多选择 2 项', 'Tags: choose at most 2 items', 'Etiquetas: elija como máximo 2 elementos'] },
  { rule: 'uniqueItems', data: { ...valid, tags: ['a', 'a'] }, field: 'tags', words: ['标签不能有重复项', 'Tags cannot hold the same item twice', 'Etiquetas no puede repetir un elemento'] },
  { rule: 'additionalProperties', data: { ...valid, bogus: 1 }, field: 'bogus', words: ['不接受字段 bogus', 'The field bogus is not accepted', 'No se acepta el campo bogus'] },
  { rule: 'exclusiveMinimum', data: { ratio: 0 }, field: 'ratio', words: ['比例必须大于 0', 'Ratio must be greater than 0', 'Proporción debe ser mayor que 0'], validate: checkExtra },
  { rule: 'exclusiveMaximum', data: { ratio: 1 }, field: 'ratio', words: ['比例必须小于 1', 'Ratio must be less than 1', 'Proporción debe ser menor que 1'], validate: checkExtra },
];

describe('validation messages', () => {
  it.each(CASES)('$rule: one sentence per language, naming the field by its title', ({ data, field, words, validate }) => {
    LANGS.forEach((lang, i) => {
      expect(problems(data, lang, validate)).toEqual([{ field, message: words[i] }]);
    });
  });

  it('says the uniqueness refusal with the value in use', () => {
    const field = record.properties.username as MessageField;
    expect(LANGS.map((lang) => messageFor({ rule: 'unique', field, value: 'alice' }, lang))).toEqual([
      '用户名“alice”已被使用，请换一个',
      'Username “alice” is already in use; choose another',
      'Usuario «alice» ya está en uso; elija otro',
    ]);
  });

  it('never shows a keyword, a pattern or a pointer, for every rule in every language', () => {
    const field: MessageField = { type: 'string', 'x-title': title('作物名称', 'Crop name', 'Nombre del cultivo') };
    for (const rule of FIELD_RULES) {
      for (const lang of LANGS) {
        const m = messageFor({ rule, field, limit: 7, value: 'v' }, lang);
        expect(m, `${rule} ${lang}`).toContain(lang === 'zh' ? '作物名称' : lang === 'en' ? 'rop name' : 'ombre del cultivo');
        expect(m).not.toMatch(/minLength|maxLength|minItems|maxItems|uniqueItems|multipleOf|exclusive|must have|must match|应当|debe coincidir|[\\^$/]/);
      }
    }
  });

  it('says something useful for a field without a title', () => {
    const untitled = compile({ type: 'object', required: ['a'], properties: { a: { type: 'string' }, b: { type: 'string', maxLength: 2 } } });
    expect(problems({ b: 'xyz' }, 'zh', untitled)).toEqual([
      { field: 'a', message: '请填写此项' },
      { field: 'b', message: '最长 2 个字符' },
    ]);
    expect(problems({}, 'en', untitled)).toEqual([{ field: 'a', message: 'This field is required' }]);
  });

  it("uses a field's own message per rule, with {title} and {limit}", () => {
    const own = compile({
      type: 'object',
      required: ['phone'],
      properties: {
        phone: { type: 'string', maxLength: 11, pattern: '^1[3-8]\\d{9}$', 'x-title': title('手机号', 'Phone', 'Teléfono'), 'x-messages': PHONE_MESSAGES },
        code: {
          type: 'string',
          maxLength: 4,
          'x-title': title('验证码', 'Code', 'Código'),
          'x-messages': { maxLength: title('{title}为 {limit} 位数字', 'The {title} has {limit} digits', 'El {title} tiene {limit} dígitos') },
        },
      },
    });
    expect(LANGS.map((lang) => problems({ phone: '12345' }, lang, own)[0].message)).toEqual(['手机号格式不正确', 'Phone number format incorrect', 'Formato de número de teléfono incorrecto']);
    expect(LANGS.map((lang) => problems({}, lang, own)[0].message)).toEqual(['请输入手机号', 'Please enter phone number', 'Introduzca el número de teléfono']);
    expect(LANGS.map((lang) => problems({ phone: '13800000000', code: '123456' }, lang, own)[0].message)).toEqual(['验证码为 4 位数字', 'The Code has 4 digits', 'El Código tiene 4 dígitos']);
  });

  it("declares spec §5's phone messages wherever a document or the server has the mainland phone pattern", async () => {
    expect(accountSchemas.phone['x-messages']).toEqual(PHONE_MESSAGES);
    const reg = await loadRegistry([folderSource(ROOT)]);
    let seen = 0;
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if (o.pattern === '^1[3-8]\\d{9}$') {
        seen += 1;
        expect(o['x-messages'], where).toEqual(PHONE_MESSAGES);
      }
      for (const [k, v] of Object.entries(o)) walk(v, `${where}/${k}`);
    };
    for (const { doc } of reg.resources.values()) walk(doc.record, doc.name);
    for (const [id, s] of reg.screens) walk((s.screen as { record?: unknown }).record, id);
    expect(seen).toBeGreaterThanOrEqual(4);
  });
});

describe('the form and the server say the same words', () => {
  it('for the crop form: field rules and cross-field rules, in zh, en and es', async () => {
    const reg = await loadRegistry([folderSource(ROOT)]);
    const doc = reg.resource('crops')!;
    const screen = reg.screen('cropsForm') as FormScreen;
    const data: Record<string, unknown> = {
      category: 'no-such-category',
      englishName: 'x'.repeat(300),
      growthDaysMin: 120,
      growthDaysMax: 100,
      optimalTempMin: 30,
      optimalTempMax: 80,
      status: 1,
    };
    const serverCheck = createAjv().compile(writeJsonSchema(doc, 'create'));
    for (const lang of LANGS) {
      expect(serverCheck(data)).toBe(false);
      const server = [...fieldProblems(serverCheck.errors ?? [], lang), ...crossFieldProblems(doc.rules, doc.record.properties, data, lang)];

      const model = formModel(screen, doc)!;
      const built = buildForm(screen, model, 'add', data, lang, new Map());
      const validator = customizeValidator<Record<string, unknown>, RJSFSchema>({}, (errors) => localizeErrors(errors, lang));
      const { errors } = validator.validateFormData(data, built.schema);
      const form = [...errors.map((e) => ({ field: String(e.property).replace(/^\./, ''), message: e.message })), ...crossFieldErrors(model, built.fields, data, lang)];

      const byField = (list: { field: string; message?: string }[]) =>
        Object.fromEntries(built.fields.map((f) => [f, list.filter((p) => p.field === f).map((p) => p.message).sort()]).filter(([, m]) => m.length));
      expect(byField(form)).toEqual(byField(server));
      // What this data breaks, so that the comparison is not of two empty lists.
      expect(Object.keys(byField(server)).sort()).toEqual(['category', 'englishName', 'growthDaysMax', 'name', 'optimalTempMax']);
      if (lang === 'zh') {
        expect(byField(server)).toEqual({
          name: ['请输入作物名称'],
          category: ['请从列表中选择作物分类'],
          englishName: ['英文名称最长 100 个字符'],
          growthDaysMax: ['最长生育期（天）不能小于最短生育期（天）'],
          optimalTempMax: ['适宜最高温度（℃）不能大于 60'],
        });
      }
    }
  });
});
