/**
 * The studio editor's check as you type, in the browser, without the console around it:
 * the bundled documents (as the console holds them), then one document edited keystroke by
 * keystroke (the help text growing one letter at a time), each text through exactly what
 * the editor's linter runs (widgets/schema-studio: checkDraft = the publish gate + the
 * registry for the preview, then diagnostics at line and column). Results on
 * window.__studioCheck.
 */
import { bundledSource } from '../../../runtime/schema/bundled.ts';
import { assembleRegistry, gatherDocuments } from '../../../runtime/schema/registry-core.ts';
import { checkDraft } from '../../../widgets/schema-studio/check.ts';
import { documentText, effectiveDocuments } from '../../../widgets/schema-studio/effective.ts';
import { diagnosticsOf } from '../../../widgets/schema-studio/JsonEditor.tsx';

declare global {
  interface Window {
    __studioCheck: { ready: boolean; first?: number; typed?: number[]; problems?: number; bytes?: number };
  }
}

window.__studioCheck = { ready: false };
const params = new URLSearchParams(location.search);
const file = params.get('file') ?? 'schemas/screens/knowledge/cropsManager.json';
const keystrokes = Number(params.get('keys') ?? 200);

const registry = assembleRegistry(await gatherDocuments([{ ...bundledSource, trusted: true }]), null);
const effective = effectiveDocuments(registry);
const doc = effective.find((d) => d.file === file);
if (!doc) throw new Error(`no document ${file}`);
const base = documentText(doc.content);
// Typing into the help text (a title must match its menu entry: editing one is a problem on every keystroke).
const at = base.indexOf('"en": "', base.indexOf('"help"')) + '"en": "'.length;

const time = (text: string) => {
  const t0 = performance.now();
  const result = checkDraft(file, text, effective, 'en');
  diagnosticsOf(text, result.problems);
  return { ms: performance.now() - t0, problems: result.problems.length };
};
// The first check also computes the effective set's baseline (once per set).
const first = time(base).ms;
const typed: number[] = [];
let problems = 0;
const word = 'abcdefghijklmnopqrstuvwxyz';
for (let i = 0; i < keystrokes; i++) {
  const text = `${base.slice(0, at)}${word.repeat(10).slice(0, i + 1)}${base.slice(at)}`;
  const r = time(text);
  typed.push(r.ms);
  problems = r.problems;
}
window.__studioCheck = { ready: true, first, typed, problems, bytes: base.length };
document.getElementById('out')!.textContent = JSON.stringify({ first, n: typed.length });
