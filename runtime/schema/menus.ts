/**
 * The menu tree document (schemas/menus.json): its types, its validator and helpers to
 * walk it. No React and no Node APIs, so the console, the server's seed and the CLI
 * tools share exactly one definition of what a valid menu tree is.
 */
import type { LocalizedText } from '../protocol/texts.ts';
import type { ErrorObject, ValidateFunction } from 'ajv';
import validateMenusMeta from './generated/menus.ts';
import { entryPath } from './menu-links.ts';

export const MENUS_FORMAT_VERSION = 1;

/** A text in every language (runtime/protocol/texts.ts). */
export type LocalText = LocalizedText;

export interface MenuElement {
  code: string;
  title: LocalText;
}

export interface MenuChild {
  code: string;
  path?: string;
  title: LocalText;
  icon?: string;
  sort?: number;
  hidden?: boolean;
  elements?: MenuElement[];
}

export interface MenuSection extends MenuChild {
  defaultChild?: string;
  children: MenuChild[];
}

export interface MenuDocument {
  $schema?: string;
  formatVersion: number;
  revision: number;
  menus: MenuSection[];
}

/** One place in one document that is wrong, and why. */
export interface MenuProblem {
  file: string;
  /** JSON pointer (RFC 6901) into the document. */
  pointer: string;
  message: string;
}

export class MenuDocumentError extends Error {
  constructor(readonly problems: MenuProblem[]) {
    super(`invalid menu tree:\n${problems.map((p) => `  ${p.file}#${p.pointer}: ${p.message}`).join('\n')}`);
    this.name = 'MenuDocumentError';
  }
}

/** menus.schema.json compiled ahead of time (tools/meta-validators.ts). */
function structural(): ValidateFunction {
  return validateMenusMeta as unknown as ValidateFunction;
}

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return `missing property "${String(p.missingProperty)}"`;
  if (e.keyword === 'additionalProperties') return `unknown property "${String(p.additionalProperty)}"`;
  if (e.keyword === 'pattern') return `does not match ${String(p.pattern)}`;
  return e.message ?? e.keyword;
}

/** Every problem of `doc`: structure (the meta-schema) first, then the rules across entries. */
export function validateMenus(doc: unknown, file = 'schemas/menus.json'): MenuProblem[] {
  const validate = structural();
  if (!validate(doc)) {
    // allOf + additionalProperties reports the same place twice; one line per place and reason is enough.
    const seen = new Set<string>();
    const problems: MenuProblem[] = [];
    for (const e of validate.errors ?? []) {
      const problem = { file, pointer: e.instancePath || '/', message: describe(e) };
      const key = `${problem.pointer} ${problem.message}`;
      if (!seen.has(key)) problems.push(problem);
      seen.add(key);
    }
    return problems;
  }
  return crossEntryProblems(doc as MenuDocument, file);
}

function crossEntryProblems(doc: MenuDocument, file: string): MenuProblem[] {
  const problems: MenuProblem[] = [];
  const codes = new Map<string, string>();
  const elementCodes = new Map<string, string>();
  const sectionPaths = new Set<string>();
  const check = (entry: MenuChild, pointer: string) => {
    const first = codes.get(entry.code);
    if (first) problems.push({ file, pointer: `${pointer}/code`, message: `code "${entry.code}" is already used at ${first}` });
    else codes.set(entry.code, pointer);
    (entry.elements ?? []).forEach((el, i) => {
      const at = `${pointer}/elements/${i}/code`;
      if (!el.code.startsWith(`${entry.code}:`)) {
        problems.push({ file, pointer: at, message: `element code "${el.code}" must start with "${entry.code}:"` });
      }
      const prev = elementCodes.get(el.code);
      if (prev) problems.push({ file, pointer: at, message: `element code "${el.code}" is already used at ${prev}` });
      else elementCodes.set(el.code, at);
    });
  };
  doc.menus.forEach((section, s) => {
    const sp = `/menus/${s}`;
    check(section, sp);
    const path = entryPath(section);
    if (sectionPaths.has(path)) problems.push({ file, pointer: sp, message: `section path "${path}" is used twice` });
    sectionPaths.add(path);
    const childPaths = new Set<string>();
    section.children.forEach((child, c) => {
      const cp = `${sp}/children/${c}`;
      check(child, cp);
      const p = entryPath(child);
      if (childPaths.has(p)) problems.push({ file, pointer: cp, message: `child path "${p}" is used twice in section "${section.code}"` });
      childPaths.add(p);
    });
    if (section.defaultChild !== undefined && !childPaths.has(section.defaultChild)) {
      problems.push({ file, pointer: `${sp}/defaultChild`, message: `"${section.defaultChild}" is not the path of a child of "${section.code}"` });
    }
  });
  return problems;
}

/** The validated document, or a MenuDocumentError listing every problem. */
export function loadMenus(doc: unknown, file = 'schemas/menus.json'): MenuDocument {
  const problems = validateMenus(doc, file);
  if (problems.length) throw new MenuDocumentError(problems);
  return doc as MenuDocument;
}

export { childLink, entryPath } from './menu-links.ts';

/** Every menu code, sections and children. */
export function menuCodes(doc: MenuDocument): string[] {
  return doc.menus.flatMap((s) => [s.code, ...s.children.map((c) => c.code)]);
}

/** Every element code of every entry. */
export function elementCodes(doc: MenuDocument): string[] {
  return doc.menus.flatMap((s) => [s, ...s.children]).flatMap((e) => (e.elements ?? []).map((el) => el.code));
}
