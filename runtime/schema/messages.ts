/**
 * Validation messages for people: one generator for every rule a record schema can hold,
 * shared by the server (40001 `data.errors`) and the console's forms, so that both say
 * the same words. A message names the field by its title and says what to do; it never
 * shows a keyword, a JSON pointer or a regular expression. A field may carry its own
 * message per rule (`x-messages`), which wins over the generated one.
 *
 * Pure code (no React, no node modules). See docs/validation.md.
 */
import type { ErrorObject } from 'ajv';
import type { FieldError as FieldProblem } from '../protocol/envelope.ts';
import { FINITE_KEYWORD, PLAIN_TEXT_KEYWORD } from './input-rules.ts';
import { formatText, textOf, type I18nText, type Lang } from './texts.ts';

/** The rules a field's own message may be declared for (`x-messages` keys). */
export const FIELD_RULES = [
  'required',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'enum',
  'type',
  'minItems',
  'maxItems',
  'uniqueItems',
  'unique',
] as const;
export type FieldRule = (typeof FIELD_RULES)[number];

export type FieldMessages = Partial<Record<FieldRule, I18nText>>;

/**
 * Spec §5's messages of a mainland mobile number, for every field with its pattern: the
 * server's account schemas use this object, and the screen and resource documents
 * declare the same texts as `x-messages` (a unit test holds them equal).
 */
export const PHONE_MESSAGES = {
  required: { zh: '请输入手机号', en: 'Please enter phone number', es: 'Introduzca el número de teléfono' },
  pattern: { zh: '手机号格式不正确', en: 'Phone number format incorrect', es: 'Formato de número de teléfono incorrecto' },
  minLength: { zh: '手机号格式不正确', en: 'Phone number format incorrect', es: 'Formato de número de teléfono incorrecto' },
  maxLength: { zh: '手机号格式不正确', en: 'Phone number format incorrect', es: 'Formato de número de teléfono incorrecto' },
} as const satisfies FieldMessages;

/** What the generator needs of a field: its title (a text, or one already in the language) and declared messages. */
export interface MessageField {
  type?: string | string[];
  title?: string;
  'x-title'?: I18nText;
  'x-messages'?: FieldMessages;
  enum?: unknown[];
  format?: string;
  items?: unknown;
}

/** A failed rule: the rule, its limit or format where it has one, and the field it failed on. */
export interface Failure {
  rule: FieldRule | 'additionalProperties' | 'plainText';
  field?: MessageField;
  /** minLength/maxLength/minimum/…: the bound; format: the format's name; additionalProperties: the property. */
  limit?: number | string;
  /** unique: the value already in use. */
  value?: string | number;
}

type Sentence = (t: Titled, limit: string) => string;
interface Titled {
  /** The title as it opens a sentence ("Shortest growth period"). */
  head: string;
  /** The title inside a sentence ("the shortest growth period"). */
  inner: string;
  named: boolean;
}

/** Generated sentences: [zh, en, es]. `t.named` is false when the field has no title. */
const SENTENCES: Record<string, [Sentence, Sentence, Sentence]> = {
  required: [
    (t) => (t.named ? `请输入${t.head}` : '请填写此项'),
    (t) => (t.named ? `Enter the ${t.inner}` : 'This field is required'),
    (t) => (t.named ? `Introduzca ${t.inner}` : 'Este campo es obligatorio'),
  ],
  choose: [
    (t) => (t.named ? `请选择${t.head}` : '请选择此项'),
    (t) => (t.named ? `Choose the ${t.inner}` : 'Choose a value'),
    (t) => (t.named ? `Seleccione ${t.inner}` : 'Seleccione un valor'),
  ],
  minLength: [
    (t, n) => `${t.named ? t.head : ''}最少 ${n} 个字符`,
    (t, n) => `${t.named ? `${t.head}: a` : 'A'}t least ${n} character${n === '1' ? '' : 's'}`,
    (t, n) => `${t.named ? `${t.head}: a` : 'A'}l menos ${n} ${n === '1' ? 'carácter' : 'caracteres'}`,
  ],
  maxLength: [
    (t, n) => `${t.named ? t.head : ''}最长 ${n} 个字符`,
    (t, n) => `${t.named ? `${t.head}: a` : 'A'}t most ${n} character${n === '1' ? '' : 's'}`,
    (t, n) => `${t.named ? `${t.head}: c` : 'C'}omo máximo ${n} ${n === '1' ? 'carácter' : 'caracteres'}`,
  ],
  pattern: [
    (t) => `${t.named ? t.head : ''}格式不正确`,
    (t) => (t.named ? `${t.head} is not in the right format` : 'This value is not in the right format'),
    (t) => (t.named ? `${t.head} no tiene el formato correcto` : 'El valor no tiene el formato correcto'),
  ],
  plainText: [
    (t) => `${t.named ? t.head : ''}不能包含控制字符（如 NUL 等不可见字符）`,
    (t) => `${t.named ? t.head : 'This value'} cannot contain control characters (invisible characters such as NUL)`,
    (t) => `${t.named ? t.head : 'El valor'} no puede contener caracteres de control (caracteres invisibles como NUL)`,
  ],
  noMarkup: [
    (t) => `${t.named ? t.head : ''}不能包含 < 或 >`,
    (t) => `${t.named ? t.head : 'This value'} cannot contain < or >`,
    (t) => `${t.named ? t.head : 'El valor'} no puede contener < ni >`,
  ],
  'format:email': [
    (t) => `${t.named ? t.head : ''}应为有效的邮箱地址，如 name@example.com`,
    (t) => `${t.named ? `${t.head}: e` : 'E'}nter an e-mail address such as name@example.com`,
    (t) => `${t.named ? `${t.head}: i` : 'I'}ntroduzca un correo como nombre@ejemplo.com`,
  ],
  'format:date': [
    (t) => `${t.named ? t.head : ''}应为日期，如 2024-03-01`,
    (t) => `${t.named ? `${t.head}: e` : 'E'}nter a date such as 2024-03-01`,
    (t) => `${t.named ? `${t.head}: i` : 'I'}ntroduzca una fecha como 2024-03-01`,
  ],
  'format:date-time': [
    (t) => `${t.named ? t.head : ''}应为日期和时间，如 2024-03-01 08:30`,
    (t) => `${t.named ? `${t.head}: e` : 'E'}nter a date and time such as 2024-03-01 08:30`,
    (t) => `${t.named ? `${t.head}: i` : 'I'}ntroduzca una fecha y hora como 2024-03-01 08:30`,
  ],
  'format:time': [
    (t) => `${t.named ? t.head : ''}应为时间，如 08:30`,
    (t) => `${t.named ? `${t.head}: e` : 'E'}nter a time such as 08:30`,
    (t) => `${t.named ? `${t.head}: i` : 'I'}ntroduzca una hora como 08:30`,
  ],
  'format:uri': [
    (t) => `${t.named ? t.head : ''}应为以 http:// 或 https:// 开头的网址`,
    (t) => `${t.named ? `${t.head}: e` : 'E'}nter a web address starting with http:// or https://`,
    (t) => `${t.named ? `${t.head}: i` : 'I'}ntroduzca una dirección web que empiece por http:// o https://`,
  ],
  format: [
    (t) => `${t.named ? t.head : ''}格式不正确`,
    (t) => (t.named ? `${t.head} is not in the right format` : 'This value is not in the right format'),
    (t) => (t.named ? `${t.head} no tiene el formato correcto` : 'El valor no tiene el formato correcto'),
  ],
  minimum: [
    (t, n) => `${t.named ? t.head : ''}不能小于 ${n}`,
    (t, n) => `${t.named ? t.head : 'The value'} cannot be less than ${n}`,
    (t, n) => `${t.named ? t.head : 'El valor'} no puede ser menor que ${n}`,
  ],
  maximum: [
    (t, n) => `${t.named ? t.head : ''}不能大于 ${n}`,
    (t, n) => `${t.named ? t.head : 'The value'} cannot be greater than ${n}`,
    (t, n) => `${t.named ? t.head : 'El valor'} no puede ser mayor que ${n}`,
  ],
  exclusiveMinimum: [
    (t, n) => `${t.named ? t.head : ''}必须大于 ${n}`,
    (t, n) => `${t.named ? t.head : 'The value'} must be greater than ${n}`,
    (t, n) => `${t.named ? t.head : 'El valor'} debe ser mayor que ${n}`,
  ],
  exclusiveMaximum: [
    (t, n) => `${t.named ? t.head : ''}必须小于 ${n}`,
    (t, n) => `${t.named ? t.head : 'The value'} must be less than ${n}`,
    (t, n) => `${t.named ? t.head : 'El valor'} debe ser menor que ${n}`,
  ],
  multipleOf: [
    (t, n) => `${t.named ? t.head : ''}必须是 ${n} 的整数倍`,
    (t, n) => `${t.named ? t.head : 'The value'} must be a multiple of ${n}`,
    (t, n) => `${t.named ? t.head : 'El valor'} debe ser múltiplo de ${n}`,
  ],
  enum: [
    (t) => `请从列表中选择${t.named ? t.head : ''}`,
    (t) => `Choose ${t.named ? `the ${t.inner}` : 'a value'} from the list`,
    (t) => `Elija ${t.named ? t.inner : 'un valor'} de la lista`,
  ],
  'type:integer': [
    (t) => `${t.named ? t.head : ''}必须是整数`,
    (t) => `${t.named ? t.head : 'The value'} must be a whole number`,
    (t) => `${t.named ? t.head : 'El valor'} debe ser un número entero`,
  ],
  'type:number': [
    (t) => `${t.named ? t.head : ''}必须是数字`,
    (t) => `${t.named ? t.head : 'The value'} must be a number`,
    (t) => `${t.named ? t.head : 'El valor'} debe ser un número`,
  ],
  'type:boolean': [
    (t) => `${t.named ? t.head : ''}只能选择是或否`,
    (t) => `${t.named ? t.head : 'The value'} must be yes or no`,
    (t) => `${t.named ? t.head : 'El valor'} debe ser sí o no`,
  ],
  'type:array': [
    (t) => `${t.named ? t.head : ''}必须是一组值`,
    (t) => `${t.named ? t.head : 'The value'} must be a list of values`,
    (t) => `${t.named ? t.head : 'El valor'} debe ser una lista de valores`,
  ],
  'type:string': [
    (t) => `${t.named ? t.head : ''}必须是文本`,
    (t) => `${t.named ? t.head : 'The value'} must be text`,
    (t) => `${t.named ? t.head : 'El valor'} debe ser un texto`,
  ],
  type: [
    (t) => `${t.named ? t.head : ''}格式不正确`,
    (t) => (t.named ? `${t.head} is not in the right format` : 'This value is not in the right format'),
    (t) => (t.named ? `${t.head} no tiene el formato correcto` : 'El valor no tiene el formato correcto'),
  ],
  minItems: [
    (t, n) => `${t.named ? t.head : ''}至少选择 ${n} 项`,
    (t, n) => `${t.named ? `${t.head}: c` : 'C'}hoose at least ${n} item${n === '1' ? '' : 's'}`,
    (t, n) => `${t.named ? `${t.head}: e` : 'E'}lija al menos ${n} elemento${n === '1' ? '' : 's'}`,
  ],
  maxItems: [
    (t, n) => `${t.named ? t.head : ''}最多选择 ${n} 项`,
    (t, n) => `${t.named ? `${t.head}: c` : 'C'}hoose at most ${n} item${n === '1' ? '' : 's'}`,
    (t, n) => `${t.named ? `${t.head}: e` : 'E'}lija como máximo ${n} elemento${n === '1' ? '' : 's'}`,
  ],
  uniqueItems: [
    (t) => `${t.named ? t.head : ''}不能有重复项`,
    (t) => `${t.named ? t.head : 'The list'} cannot hold the same item twice`,
    (t) => `${t.named ? t.head : 'La lista'} no puede repetir un elemento`,
  ],
  unique: [
    (t, v) => `${t.named ? t.head : ''}“${v}”已被使用，请换一个`,
    (t, v) => `${t.named ? t.head : 'The value'} “${v}” is already in use; choose another`,
    (t, v) => `${t.named ? t.head : 'El valor'} «${v}» ya está en uso; elija otro`,
  ],
  additionalProperties: [
    (_t, name) => `不接受字段 ${name}`,
    (_t, name) => `The field ${name} is not accepted`,
    (_t, name) => `No se acepta el campo ${name}`,
  ],
};

const LANG_INDEX: Record<Lang, 0 | 1 | 2> = { zh: 0, en: 1, es: 2 };

/** The pattern used across the documents to keep markup out of free text; it gets its own sentence. */
const NO_MARKUP_PATTERN = '^[^<>]*$';

/** The field's title in `lang`: its `x-title`, else a title already in the language (a form's schema), else none. */
export function titleOf(field: MessageField | undefined, lang: Lang): string {
  if (!field) return '';
  if (field['x-title']) return textOf(field['x-title'], lang);
  return typeof field.title === 'string' ? field.title : '';
}

/** "Shortest growth period (days)" → "shortest growth period (days)"; "URL of the file" stays. */
function lowerFirst(title: string, lang: Lang): string {
  if (lang === 'zh' || title.length < 2) return title;
  const [a, b] = [title[0], title[1]];
  return a === a.toUpperCase() && b === b.toLowerCase() ? a.toLowerCase() + title.slice(1) : title;
}

function titled(field: MessageField | undefined, lang: Lang): Titled {
  const head = titleOf(field, lang);
  return { head, inner: lowerFirst(head, lang), named: head !== '' };
}

/** Whether a field is filled by choosing (a select, a switch, a date picker) rather than typing. */
function chosen(field: MessageField | undefined): boolean {
  if (!field) return false;
  const types = Array.isArray(field.type) ? field.type : [field.type];
  return !!field.enum || types.includes('boolean') || types.includes('array') || field.format === 'date' || field.format === 'date-time' || field.format === 'time';
}

function sentenceKey(f: Failure): string {
  switch (f.rule) {
    case 'required':
      return chosen(f.field) ? 'choose' : 'required';
    case 'minLength':
      // At least one character is what "required" means to a person.
      return f.limit === 1 ? (chosen(f.field) ? 'choose' : 'required') : 'minLength';
    case 'pattern':
      return f.limit === NO_MARKUP_PATTERN ? 'noMarkup' : 'pattern';
    case 'format':
      return `format:${f.limit}` in SENTENCES ? `format:${f.limit}` : 'format';
    case 'type':
      return `type:${f.limit}` in SENTENCES ? `type:${f.limit}` : 'type';
    default:
      return f.rule;
  }
}

/** The sentence for one failed rule in `lang`: the field's own message when declared, else the generated one. */
export function messageFor(f: Failure, lang: Lang): string {
  const own = f.rule !== 'additionalProperties' && f.rule !== 'plainText' ? f.field?.['x-messages']?.[f.rule] : undefined;
  const t = titled(f.field, lang);
  const limit = f.rule === 'unique' ? String(f.value ?? '') : f.rule === 'pattern' ? '' : String(f.limit ?? '');
  if (own) return formatText(own, lang, { title: t.head, limit, value: f.value ?? '' });
  const sentences = SENTENCES[sentenceKey(f)] ?? SENTENCES.format;
  return sentences[LANG_INDEX[lang]](t, limit);
}

/** A field-level problem, as the server sends it in 40001 `data.errors` and a form shows it. */
export type { FieldError as FieldProblem } from '../protocol/envelope.ts';

/**
 * One ajv error as a failure of a rule. Needs ajv's `verbose` option (the shared ajv and
 * rjsf's set it): the field's schema is the error's `parentSchema`, or for `required`
 * the missing property's schema in it.
 */
export function failureOf(e: ErrorObject): Failure | null {
  const parent = e.parentSchema as (MessageField & { properties?: Record<string, MessageField> }) | undefined;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { rule: 'required', field: parent?.properties?.[missingProperty(p)] };
    case 'additionalProperties':
      return { rule: 'additionalProperties', limit: String(p.additionalProperty) };
    case 'minLength':
    case 'maxLength':
      // A value outside a list is told "choose from the list"; its length is beside the point.
      if (parent?.enum) return null;
      return { rule: e.keyword, field: parent, limit: p.limit as number };
    case 'minItems':
    case 'maxItems':
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { rule: e.keyword, field: parent, limit: p.limit as number };
    case 'multipleOf':
      return { rule: 'multipleOf', field: parent, limit: p.multipleOf as number };
    case 'pattern':
      if (parent?.enum) return null;
      return { rule: 'pattern', field: parent, limit: String(p.pattern) };
    case 'format':
      return { rule: 'format', field: parent, limit: String(p.format) };
    case 'type': {
      const wanted = String(p.type).split(',').filter((x) => x !== 'null');
      return { rule: 'type', field: parent, limit: wanted[0] };
    }
    case 'enum':
    case 'const':
      return { rule: 'enum', field: parent };
    case 'uniqueItems':
      return { rule: 'uniqueItems', field: parent };
    case PLAIN_TEXT_KEYWORD:
      return { rule: 'plainText', field: parent };
    case FINITE_KEYWORD: {
      // Infinity is no number a person means: told as a value of the wrong type.
      const types = Array.isArray(parent?.type) ? parent.type : [parent?.type];
      return { rule: 'type', field: parent, limit: types.includes('integer') ? 'integer' : 'number' };
    }
    default:
      if (WRAPPERS.has(e.keyword)) return null;
      return { rule: 'format', field: parent };
  }
}
/** Keywords whose inner errors say what is wrong. */
const WRAPPERS = new Set(['if', 'allOf', 'anyOf', 'oneOf']);

/** rjsf quotes the missing property ("'name'") before it calls a localizer. */
function missingProperty(p: Record<string, unknown>): string {
  const name = String(p.missingProperty);
  return /^'.*'$/.test(name) ? name.slice(1, -1).replace(/\\'/g, "'") : name;
}

/** The dot path an ajv error is about: the instance path, plus the missing or unknown property. */
export function fieldPathOf(e: ErrorObject): string {
  const path = e.instancePath
    .replace(/^\//, '')
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'required') path.push(missingProperty(p));
  else if (e.keyword === 'additionalProperties') path.push(String(p.additionalProperty));
  return path.join('.');
}

/** ajv errors as field problems in `lang`, one per field and sentence, at most `max`. */
export function fieldProblems(errors: readonly ErrorObject[], lang: Lang, opts: { context?: string; max?: number } = {}): FieldProblem[] {
  const out: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const failure = failureOf(e);
    if (!failure) continue;
    const field = fieldPathOf(e) || opts.context || 'body';
    const message = messageFor(failure, lang);
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field, message });
    if (opts.max && out.length >= opts.max) break;
  }
  return out;
}

/**
 * Rewrites ajv errors' `message` in place with the generated sentences: the localizer
 * that @rjsf/validator-ajv8 calls on the errors of a form, in place of ajv-i18n (no longer a dependency).
 */
export function localizeErrors(errors: ErrorObject[] | null | undefined, lang: Lang): void {
  if (!errors) return;
  // In place: rjsf goes on with this very array. Errors the server leaves out go here too.
  for (let i = errors.length - 1; i >= 0; i--) {
    const failure = failureOf(errors[i]);
    if (failure) errors[i].message = messageFor(failure, lang);
    else if (!WRAPPERS.has(errors[i].keyword)) errors.splice(i, 1);
  }
}
