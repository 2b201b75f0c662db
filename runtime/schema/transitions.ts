/**
 * Declared state machines of resource documents (docs/resources.md, "States and
 * transitions"): a state field, its values, and named transitions between them, each
 * guarded by an element code of the document. Pure and React-free: the server's engine,
 * the document checks and the console's gating read the same declarations.
 */
import type { LocalizedText } from '../protocol/texts.ts';
import type { TransitionPath } from '../protocol/operations.ts';
import type { FieldSchema, ResourceDocument } from './resource.ts';

export type StateValue = string | number;

export interface StateMachine {
  /** The record property holding the state: a string or integer property. */
  field: string;
  /** The state every new record starts in. */
  initial: StateValue;
  values: { value: StateValue; title: LocalizedText }[];
}

export interface TransitionDeclaration {
  /** The states the transition may start from. */
  from: StateValue[];
  to: StateValue;
  /** A key of the document's `elements`: the element code the caller must hold. */
  element: string;
  title: LocalizedText;
  /** A text the caller gives with the transition, stored in `field` (a string property). */
  reason?: { field: string; required?: boolean };
  /**
   * Also served at `{method} {basePath}/:id/{segment}` (an endpoint that existed before the
   * engine served it), where `version` may be left out: the row is still locked and its
   * state checked, so of two callers racing one wins and the other is told the state.
   */
  path?: TransitionPath;
  /**
   * Further values the caller may send with the transition (a role to give, say), each a
   * bounded field: checked by the body's schema and handed to the extension hooks as
   * `input`; the engine stores none of them.
   */
  input?: Record<string, FieldSchema>;
}

export type Transitions = Record<string, TransitionDeclaration>;

/** The row property listing the transitions the row's state allows to the caller. */
export const TRANSITIONS_FIELD = '_transitions';

type Doc = Pick<ResourceDocument, 'states' | 'transitions'>;

/** Whether the document declares transitions (and so owns its state field). */
export function hasTransitions(doc: Doc): doc is Doc & { states: StateMachine; transitions: Transitions } {
  return !!doc.states && !!doc.transitions && Object.keys(doc.transitions).length > 0;
}

/** The properties only transitions write: the state field and every reason field. */
export function transitionOwnedFields(doc: Doc): string[] {
  if (!hasTransitions(doc)) return [];
  const reasons = Object.values(doc.transitions).flatMap((t) => (t.reason ? [t.reason.field] : []));
  return [...new Set([doc.states.field, ...reasons])];
}

/** The names of the transitions that may start from `state`, in declaration order. */
export function transitionsFrom(doc: Doc, state: unknown): string[] {
  if (!hasTransitions(doc)) return [];
  return Object.entries(doc.transitions)
    .filter(([, t]) => t.from.some((s) => s === state))
    .map(([name]) => name);
}

/** The title of a state value in `lang`, or the raw value when it is not declared. */
export function stateTitle(doc: Doc, state: unknown, lang: keyof LocalizedText): string {
  const found = doc.states?.values.find((v) => v.value === state);
  return found ? found.title[lang] : String(state);
}

/** Problems of a document's states and transitions, beyond what the meta-schema checks. */
export function checkTransitions(d: ResourceDocument): { pointer: string; message: string }[] {
  const problems: { pointer: string; message: string }[] = [];
  if (d.transitions && !d.states) problems.push({ pointer: '/transitions', message: 'needs "states" declaring the state field and its values' });
  if (!d.states) return problems;
  const props = d.record.properties;
  const { field, initial, values } = d.states;
  const prop = props[field];
  const kind = prop?.type === 'string' ? 'string' : prop?.type === 'integer' ? 'number' : null;
  if (!prop) problems.push({ pointer: '/states/field', message: `names "${field}", which is not a property of the record` });
  else if (!kind) problems.push({ pointer: '/states/field', message: `"${field}" must be a string or integer property to hold a state` });
  const known = new Set<StateValue>();
  values.forEach((v, i) => {
    const at = `/states/values/${i}/value`;
    if (known.has(v.value)) problems.push({ pointer: at, message: `repeats the state ${JSON.stringify(v.value)}` });
    known.add(v.value);
    if (kind && typeof v.value !== kind) problems.push({ pointer: at, message: `is a ${typeof v.value}, but "${field}" holds ${kind}s` });
    else if (prop?.enum && !prop.enum.includes(v.value)) problems.push({ pointer: at, message: `is not among the values "${field}" allows` });
  });
  const isState = (value: StateValue, pointer: string) => {
    if (!known.has(value)) problems.push({ pointer, message: `${JSON.stringify(value)} is not among the declared states` });
  };
  isState(initial, '/states/initial');
  const segments = new Map<string, string>();
  for (const [name, t] of Object.entries(d.transitions ?? {})) {
    const at = `/transitions/${name}`;
    if (t.path) {
      const key = `${t.path.method} ${t.path.segment}`;
      const other = segments.get(key);
      if (other) problems.push({ pointer: `${at}/path`, message: `is also the path of transition "${other}"` });
      segments.set(key, name);
    }
    t.from.forEach((s, i) => isState(s, `${at}/from/${i}`));
    isState(t.to, `${at}/to`);
    if (t.from.includes(t.to)) problems.push({ pointer: `${at}/to`, message: 'is also among "from": a transition changes the state' });
    if (!(t.element in d.elements)) problems.push({ pointer: `${at}/element`, message: `names "${t.element}", which is not a key of "elements"` });
    for (const key of Object.keys(t.input ?? {})) {
      if (key === 'version' || key === 'reason') problems.push({ pointer: `${at}/input/${key}`, message: 'is a name the transition body already uses' });
    }
    if (t.reason) {
      const r = props[t.reason.field];
      if (!r) problems.push({ pointer: `${at}/reason/field`, message: `names "${t.reason.field}", which is not a property of the record` });
      else if (r.type !== 'string') problems.push({ pointer: `${at}/reason/field`, message: `"${t.reason.field}" must be a string property to hold a reason` });
      else if (t.reason.field === field) problems.push({ pointer: `${at}/reason/field`, message: 'is the state field' });
    }
  }
  return problems;
}

/** The reply row's JSON Schema with the transition hint, for documents declaring transitions. */
export function withTransitionHint(doc: ResourceDocument, row: Record<string, unknown>): Record<string, unknown> {
  if (!hasTransitions(doc)) return row;
  const hint = {
    type: 'array',
    items: { type: 'string', enum: Object.keys(doc.transitions) },
    description: 'The transitions the record’s state allows and the caller holds the element code of.',
  };
  return { ...row, properties: { ...(row.properties as object), [TRANSITIONS_FIELD]: hint } };
}

/**
 * A write body's JSON Schema under declared transitions: the fields they own are not
 * required (the engine sets them), and the row's hint may be posted back (ignored).
 */
export function withOwnedFields(doc: ResourceDocument, body: Record<string, unknown>): Record<string, unknown> {
  if (!hasTransitions(doc)) return body;
  const owned = new Set(transitionOwnedFields(doc));
  const hint = { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 40 }, readOnly: true };
  return {
    ...body,
    required: (body.required as string[]).filter((f) => !owned.has(f)),
    properties: { ...(body.properties as object), [TRANSITIONS_FIELD]: hint },
  };
}

/** The body of POST {basePath}/:id/transitions/:name. */
export function transitionBodySchema(maxId: number) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['version'],
    properties: {
      version: { type: 'integer', minimum: 1, maximum: maxId, description: 'The version the transition was decided on.' },
      reason: { type: 'string', maxLength: 500, description: 'Why; stored in the reason field of transitions that declare one, required where it says so.' },
    },
  } as const;
}

/**
 * The body the engine checks for one transition: at its transition route (`version`
 * required) or at its legacy path (`version` optional). The reason takes the bounds and
 * the pattern of the field it is stored in.
 */
export function transitionRouteBodySchema(doc: ResourceDocument, tr: TransitionDeclaration, maxId: number, legacy: boolean): Record<string, unknown> {
  const base = transitionBodySchema(maxId);
  const field = (tr.reason ? doc.record.properties[tr.reason.field] : {}) as Record<string, unknown>;
  const bounds = Object.fromEntries(['maxLength', 'pattern'].filter((k) => field[k] !== undefined).map((k) => [k, field[k]]));
  const properties = { ...tr.input, version: base.properties.version, reason: { ...base.properties.reason, ...bounds } };
  return { type: 'object', additionalProperties: false, required: legacy ? [] : ['version'], properties };
}
