/**
 * The draft checked as you type: the publish gate (runtime/schema/gate.ts: meta-schema,
 * every cross-document rule with the draft in place, zh/en/es texts, ids, presentation-only
 * resources) against the console's effective set; the server's POST /api/studio/check adds
 * the render check on demand and before publishing.
 */
import { parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { baselineProblems, gateCandidate, refuses } from '../../runtime/schema/gate.ts';
import { buildRegistry, documentTypeOfPath, type SchemaRegistry, type SourceDocument } from '../../runtime/schema/registry.ts';
import type { Lang } from '../../runtime/schema/texts.ts';
import { WIDGET_NAMES } from '../../runtime/schema/widget-names.ts';
import type { GateProblem } from './api.ts';
import type { DraftCheck, EffectiveDocument } from './effective.ts';

const baselines = new WeakMap<readonly EffectiveDocument[], GateProblem[]>();

/**
 * The draft `text` of `file` through the publish gate (runtime/schema/gate.ts, the same
 * function the publish API runs), against the effective set with it in place. A syntax
 * error is reported at its offset (the gate says only that the text is not JSON). When
 * the draft passes, the registry with it in place is built for the preview.
 */
export function checkDraft(file: string, text: string, effective: readonly EffectiveDocument[], lang?: Lang): DraftCheck {
  const started = performance.now();
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length || !tree) {
    return { problems: errors.map((e) => syntaxProblem(file, e)), ms: performance.now() - started };
  }
  let baseline = baselines.get(effective);
  if (!baseline) {
    baseline = baselineProblems({ effective, widgetNames: WIDGET_NAMES });
    baselines.set(effective, baseline);
  }
  const result = gateCandidate({ file, content: text, effective, widgetNames: WIDGET_NAMES, lang, baseline });
  const problems = result.problems.map((p) => ({ file: p.file, pointer: p.pointer, message: p.file === file ? p.message : `${p.file}: ${p.message}`, severity: p.severity }));
  const type = documentTypeOfPath(file);
  let registry: SchemaRegistry | undefined;
  if (!refuses(result.problems) && type) {
    // Checked already: every document is taken as it is, the draft (migrated) in its place.
    const docs: (SourceDocument & { source: string })[] = effective
      .filter((d) => d.file !== file)
      .map((d) => ({ file: d.file, type: d.type, content: d.content, trusted: true, source: 'effective' }));
    docs.push({ file, type, content: result.value, trusted: true, source: 'draft' });
    registry = buildRegistry(docs, { widgetNames: WIDGET_NAMES });
  }
  return { problems, value: result.value, registry, ms: performance.now() - started };
}

/** A syntax error at its offset: the pointer is empty, `offset` carries the place. */
function syntaxProblem(file: string, e: ParseError): GateProblem & { offset: number; length: number } {
  return { file, pointer: '', message: `JSON: ${printParseErrorCode(e.error)}`, severity: 'error', offset: e.offset, length: Math.max(1, e.length) };
}

