/**
 * Rules across fields, declared as data in a resource document (`rules`): one field
 * compared with another, a date after another, a field required when another has a
 * value, at least one of several fields present. The server enforces them on every
 * write; a form shows them on the rule's field as the user types. The sentence names
 * both fields by their titles, in zh, en and es, unless the rule declares its own.
 *
 * Pure code (no React, no node modules). See docs/validation.md.
 */
import { titleOf, type FieldProblem, type MessageField } from './messages.ts';
import { formatText, type I18nText, type Lang } from './texts.ts';

/** `field` compared with `than`; the error is shown on `field`. */
export interface CompareRule {
  kind: 'lt' | 'lte' | 'gt' | 'gte' | 'after' | 'notBefore';
  field: string;
  than: string;
  message?: I18nText;
}

/** `field` must have a value when `with` has one. */
export interface RequiredWithRule {
  kind: 'requiredWith';
  field: string;
  with: string;
  message?: I18nText;
}

/** At least one of `fields` must have a value; the error is shown on the first. */
export interface AtLeastOneRule {
  kind: 'atLeastOne';
  fields: string[];
  message?: I18nText;
}

export type CrossFieldRule = CompareRule | RequiredWithRule | AtLeastOneRule;
export const COMPARE_KINDS = ['lt', 'lte', 'gt', 'gte', 'after', 'notBefore'] as const;

/** The field a rule's error is shown on. */
export function ruleField(rule: CrossFieldRule): string {
  return rule.kind === 'atLeastOne' ? rule.fields[0] : rule.field;
}

/** The fields a rule reads. */
export function ruleFields(rule: CrossFieldRule): string[] {
  if (rule.kind === 'atLeastOne') return rule.fields;
  if (rule.kind === 'requiredWith') return [rule.field, rule.with];
  return [rule.field, rule.than];
}

function present(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v.trim() !== '';
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/**
 * Numbers compare as numbers; strings (ISO dates and times, "MM-DD") as text, which orders
 * them in time. Two values of different kinds are not compared: the field rules report those.
 */
function compare(a: unknown, b: unknown): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

/** Whether `record` keeps `rule`. A comparison holds when either side is empty (the field rules decide whether that is allowed). */
export function ruleHolds(rule: CrossFieldRule, record: Record<string, unknown>): boolean {
  switch (rule.kind) {
    case 'requiredWith':
      return !present(record[rule.with]) || present(record[rule.field]);
    case 'atLeastOne':
      return rule.fields.some((f) => present(record[f]));
    default: {
      const a = record[rule.field];
      const b = record[rule.than];
      if (!present(a) || !present(b)) return true;
      const c = compare(a, b);
      if (c === null) return true;
      switch (rule.kind) {
        case 'lt':
          return c < 0;
        case 'lte':
          return c <= 0;
        case 'gt':
        case 'after':
          return c > 0;
        case 'gte':
        case 'notBefore':
          return c >= 0;
      }
    }
  }
}

type Sentence = (a: string, b: string) => string;
const SENTENCES: Record<CrossFieldRule['kind'], [Sentence, Sentence, Sentence]> = {
  lt: [(a, b) => `${a}必须小于${b}`, (a, b) => `${a} must be less than the ${b}`, (a, b) => `${a} debe ser menor que ${b}`],
  lte: [(a, b) => `${a}不能大于${b}`, (a, b) => `${a} cannot be greater than the ${b}`, (a, b) => `${a} no puede ser mayor que ${b}`],
  gt: [(a, b) => `${a}必须大于${b}`, (a, b) => `${a} must be greater than the ${b}`, (a, b) => `${a} debe ser mayor que ${b}`],
  gte: [(a, b) => `${a}不能小于${b}`, (a, b) => `${a} cannot be less than the ${b}`, (a, b) => `${a} no puede ser menor que ${b}`],
  after: [(a, b) => `${a}必须晚于${b}`, (a, b) => `${a} must be after the ${b}`, (a, b) => `${a} debe ser posterior a ${b}`],
  notBefore: [(a, b) => `${a}不能早于${b}`, (a, b) => `${a} cannot be before the ${b}`, (a, b) => `${a} no puede ser anterior a ${b}`],
  requiredWith: [
    (a, b) => `填写了${b}时，请同时填写${a}`,
    (a, b) => `Enter the ${lower(a)} too when the ${b} is filled in`,
    (a, b) => `Introduzca también ${lower(a)} cuando ${b} tiene valor`,
  ],
  atLeastOne: [(a, b) => `请至少填写${a}、${b}中的一项`, (a, b) => `Fill in at least one of: ${a}, ${b}`, (a, b) => `Rellene al menos uno de: ${a}, ${b}`],
};
const LANG_INDEX: Record<Lang, 0 | 1 | 2> = { zh: 0, en: 1, es: 2 };

/** Lower-cases the first letter of a title used inside a sentence, unless it starts an acronym ("URL"). */
function lower(title: string): string {
  if (title.length < 2) return title;
  return title[0] === title[0].toUpperCase() && title[1] === title[1].toLowerCase() ? title[0].toLowerCase() + title.slice(1) : title;
}

/** The sentence for a broken rule in `lang`: its own message when declared (`{field}` and `{than}` / `{with}` are the titles), else the generated one. */
export function ruleMessage(rule: CrossFieldRule, fields: Record<string, MessageField>, lang: Lang): string {
  const title = (name: string) => titleOf(fields[name], lang) || name;
  if (rule.message) {
    const params: Record<string, string> = { field: title(ruleField(rule)) };
    if (rule.kind === 'requiredWith') params.with = title(rule.with);
    else if (rule.kind === 'atLeastOne') params.fields = rule.fields.map(title).join(lang === 'zh' ? '、' : ', ');
    else params.than = title(rule.than);
    return formatText(rule.message, lang, params);
  }
  const sentence = SENTENCES[rule.kind][LANG_INDEX[lang]];
  if (rule.kind === 'atLeastOne') {
    const titles = rule.fields.map(title);
    return sentence(titles.slice(0, -1).join(lang === 'zh' ? '、' : ', '), titles[titles.length - 1]);
  }
  const other = rule.kind === 'requiredWith' ? rule.with : rule.than;
  const b = title(other);
  return sentence(title(rule.field), lang === 'zh' ? b : lower(b));
}

/** The broken rules of `record`, as field problems in `lang` (one per rule, on the rule's field). */
export function crossFieldProblems(rules: readonly CrossFieldRule[] | undefined, fields: Record<string, MessageField>, record: Record<string, unknown>, lang: Lang): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const rule of rules ?? []) {
    if (!ruleHolds(rule, record)) out.push({ field: ruleField(rule), message: ruleMessage(rule, fields, lang) });
  }
  return out;
}
