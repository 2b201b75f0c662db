/**
 * Declared state transitions in the documents: the resource checks refuse a transition
 * whose states or element are not declared, the screen lint refuses a transition action
 * naming none, and the console's gating offers one only where the server would accept it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkResourceDocument, type ResourceDocument } from '../../runtime/schema/resource.ts';
import { lintScreens } from '../../runtime/schema/lint.ts';
import type { Action, Screen } from '../../runtime/schema/screen.ts';
import { actionAllowed, requiredElementCodes, type GateContext } from '../../runtime/screens/gating.ts';
import { transitionOwnedFields, transitionsFrom } from '../../runtime/schema/transitions.ts';

const ROOT = join(import.meta.dirname, '../..');
const rules = (): ResourceDocument => JSON.parse(readFileSync(join(ROOT, 'schemas/resources/plantRules.json'), 'utf8'));
const manager = (): Screen => JSON.parse(readFileSync(join(ROOT, 'schemas/screens/knowledge/plantRulesManager.json'), 'utf8'));

function problemsOf(mutate: (d: any) => void): string[] {
  const doc = rules();
  mutate(doc);
  return checkResourceDocument(doc).map((p) => `${p.pointer} ${p.message}`);
}

describe('resource documents with transitions', () => {
  it('accepts the shipped planting rules', () => {
    expect(problemsOf(() => undefined)).toEqual([]);
    const doc = rules();
    expect(transitionsFrom(doc, 1)).toEqual(['approve', 'reject']);
    expect(transitionsFrom(doc, 2)).toEqual(['withdraw']);
    expect(transitionOwnedFields(doc)).toEqual(['status', 'rejectReason']);
  });

  it('refuses sources and targets that are not declared states', () => {
    expect(problemsOf((d) => (d.transitions.approve.from = [1, 7]))).toEqual(['/transitions/approve/from/1 7 is not among the declared states']);
    expect(problemsOf((d) => (d.transitions.approve.to = 9))).toEqual(['/transitions/approve/to 9 is not among the declared states']);
    expect(problemsOf((d) => (d.states.initial = 5))).toEqual(['/states/initial 5 is not among the declared states']);
    expect(problemsOf((d) => (d.transitions.approve.to = 1))).toEqual(['/transitions/approve/to is also among "from": a transition changes the state']);
  });

  it('refuses an element that is not a key of the document’s elements', () => {
    expect(problemsOf((d) => (d.transitions.approve.element = 'publish'))).toEqual(['/transitions/approve/element names "publish", which is not a key of "elements"']);
    expect(problemsOf((d) => (d.elements.review = 'cropsManager:review'))).toEqual([
      '/elements/review element codes are "<authority>:<action>"; expected a code starting with "plantRules:"',
    ]);
  });

  it('refuses state values of the wrong kind, unknown state fields and reasons that are not text', () => {
    expect(problemsOf((d) => (d.states.values[0].value = '0'))).toContain('/states/values/0/value is a string, but "status" holds numbers');
    expect(problemsOf((d) => (d.states.values[0].value = 5))).toContain('/states/values/0/value is not among the values "status" allows');
    expect(problemsOf((d) => (d.states.field = 'stage'))).toContain('/states/field names "stage", which is not a property of the record');
    expect(problemsOf((d) => (d.states.field = 'seedRateKgPerMu'))).toContain('/states/field "seedRateKgPerMu" must be a string or integer property to hold a state');
    expect(problemsOf((d) => (d.transitions.reject.reason.field = 'plantingDensity'))).toEqual([
      '/transitions/reject/reason/field "plantingDensity" must be a string property to hold a reason',
    ]);
    expect(problemsOf((d) => delete d.states)).toEqual(['/transitions needs "states" declaring the state field and its values']);
  });

  it('needs the element code of every write it serves, and none of a write it does not serve', () => {
    expect(problemsOf((d) => delete d.elements.create)).toEqual(['/elements/create is required: the document serves create']);
    expect(problemsOf((d) => delete d.elements.delete)).toEqual(['/elements/delete is required: the document serves delete and batchDelete']);
    expect(problemsOf((d) => ((d.operations = ['page', 'read', 'delete']), delete d.elements.create, delete d.elements.update))).toEqual([]);
    expect(problemsOf((d) => (d.operations = ['page', 'page']))).toEqual([expect.stringMatching(/^\/operations /)]);
    expect(problemsOf((d) => (d.operations = ['page', 'publish']))).toEqual([expect.stringMatching(/^\/operations\/1 /)]);
  });

  it('checks legacy paths and input of transitions', () => {
    expect(problemsOf((d) => (d.transitions.approve.path = { method: 'PUT', segment: 'approve' }))).toEqual([]);
    expect(
      problemsOf((d) => {
        d.transitions.approve.path = { method: 'PUT', segment: 'review' };
        d.transitions.reject.path = { method: 'PUT', segment: 'review' };
      }),
    ).toEqual(['/transitions/reject/path is also the path of transition "approve"']);
    expect(problemsOf((d) => (d.transitions.approve.path = { method: 'PUT', segment: 'transitions' }))).not.toEqual([]);
    expect(problemsOf((d) => (d.transitions.approve.path = { method: 'DELETE', segment: 'approve' }))).not.toEqual([]);
    const field = { type: 'integer', minimum: 1, maximum: 10, 'x-title': { zh: '角色', en: 'Role', es: 'Rol' } };
    expect(problemsOf((d) => (d.transitions.approve.input = { roleId: field }))).toEqual([]);
    expect(problemsOf((d) => (d.transitions.approve.input = { version: field }))).toEqual(['/transitions/approve/input/version is a name the transition body already uses']);
    expect(problemsOf((d) => (d.transitions.approve.input = { roleId: { type: 'integer', 'x-title': field['x-title'] } }))).not.toEqual([]);
  });

  it('refuses a transition named like a write (its log entry would be mistaken for one), through the meta-schema', () => {
    const found = problemsOf((d) => {
      d.transitions.update = d.transitions.approve;
    });
    expect(found.some((p) => p.startsWith('/transitions'))).toBe(true);
  });
});

describe('the transition action', () => {
  const doc = rules();
  const resources = new Map([[doc.name, doc]]);
  const registry = { resource: (n: string) => resources.get(n), screen: () => undefined };
  const gate = (elements: string[], authority = 'plantRules'): GateContext => ({ elements: new Set(elements), authority, registry, resource: 'plantRules' });
  const approve: Action = { kind: 'transition', transition: 'approve', label: { zh: '审核通过', en: 'Approve', es: 'Aprobar' } };

  it('needs the transition’s element code under the route’s authority or an alias', () => {
    expect(requiredElementCodes(approve, gate([]))).toEqual(['plantRules:review', 'agricultureKnowledgePlantRules:review']);
    expect(requiredElementCodes({ ...approve, transition: 'fly' } as Action, gate([]))).toEqual([':unknown-transition']);
  });

  it('shows only on a row whose hint lists it, to a user holding its element code', () => {
    const row = { id: 1, version: 3, status: 1, _transitions: ['approve', 'reject'] };
    expect(actionAllowed(approve, gate(['plantRules:review']), row)).toBe(true);
    expect(actionAllowed(approve, gate(['agricultureKnowledgePlantRules:review'], 'agricultureKnowledgePlantRules'), row)).toBe(true);
    expect(actionAllowed(approve, gate(['plantRules:submit']), row)).toBe(false);
    expect(actionAllowed(approve, gate(['plantRules:review']), { ...row, _transitions: ['withdraw'] })).toBe(false);
    expect(actionAllowed(approve, gate(['plantRules:review']), { id: 1, version: 3, status: 1 })).toBe(false);
    expect(actionAllowed(approve, gate(['plantRules:review']), {})).toBe(false);
  });

  it('is refused by the screen lint when the resource declares no such transition, or outside a record', () => {
    const screen = manager() as Screen & { rowActions: Action[]; toolbar: Action[] };
    screen.rowActions.push({ ...approve, transition: 'publish' } as Action);
    screen.toolbar.push(approve);
    const found = lintScreens({ screens: [{ screen, file: 'x.json' }], resources, menus: null, widgetNames: [] })
      .filter((p) => p.severity === 'error' && !p.message.includes('element code') && !p.message.includes('resource "c'))
      .map((p) => `${p.pointer} ${p.message}`);
    expect(found).toContain(`/rowActions/${screen.rowActions.length - 1}/transition "publish" is no transition of resource "plantRules" (declared: submit, approve, reject, withdraw)`);
    expect(found).toContain(`/toolbar/${screen.toolbar.length - 1}/kind a transition acts on one record: put it among row actions or a form’s or detail’s actions`);
    expect(found.filter((p) => p.includes('transition'))).toHaveLength(2);
  });
});
