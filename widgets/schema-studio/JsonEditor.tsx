/**
 * The JSON editor: CodeMirror 6 with JSON highlighting, completion from the meta-schema
 * (completion.ts) and the gate's problems as diagnostics at their line and column
 * (pointer-position.ts), computed by `check` after a pause in typing (the linter's delay).
 * The text is the editor's own; `onChange` reports it, `value` replaces it when it changes
 * from outside (a revision restored, a change applied).
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter, lintKeymap, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { pointerLocator } from '../../runtime/schema/pointer-position.ts';
import type { DocType, GateProblem } from './api.ts';
import { schemaCompletion } from './completion.ts';

export interface JsonEditorProps {
  /** The text pushed into the editor (a document loaded, a change restored); typing does not change it. */
  value: string;
  /** Raised with every push: a push of the same text as the last one still replaces what was typed since. */
  version?: number;
  type: DocType;
  /** Checks a text; its problems become diagnostics. */
  check: (text: string) => GateProblem[];
  onChange: (text: string) => void;
  /** Delay after the last keystroke before checking, ms. */
  delay?: number;
  label: string;
}

/** Diagnostics of problems in `text`: a pointer's place, or the offset a syntax error carries. */
export function diagnosticsOf(text: string, problems: readonly GateProblem[]): Diagnostic[] {
  const locate = pointerLocator(text);
  return problems.map((p) => {
    const syntax = p as GateProblem & { offset?: number; length?: number };
    const pos = typeof syntax.offset === 'number' ? { offset: syntax.offset, length: syntax.length ?? 1 } : locate(p.pointer);
    const from = Math.min(pos.offset, text.length);
    // The first line of the value is enough to mark: a whole object would paint half the screen.
    const lineEnd = text.indexOf('\n', from);
    const to = Math.min(from + Math.max(pos.length, 1), lineEnd < 0 ? text.length : lineEnd, text.length);
    return { from, to: Math.max(to, from), severity: p.severity === 'warning' ? 'warning' : 'error', message: p.pointer ? `${p.pointer}: ${p.message}` : p.message, source: 'gate' };
  });
}

export function JsonEditor({ value, version = 0, type, check, onChange, delay = 300, label }: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ check, onChange });
  latest.current = { check, onChange };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is made once per document kind; `value` flows in below
  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          foldGutter(),
          drawSelection(),
          history(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          highlightActiveLine(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          json(),
          autocompletion({ override: [schemaCompletion(type)], activateOnTyping: true }),
          lintGutter(),
          linter((ev) => diagnosticsOf(ev.state.doc.toString(), latest.current.check(ev.state.doc.toString())), { delay }),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...foldKeymap, ...completionKeymap, ...lintKeymap, indentWithTab]),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) latest.current.onChange(u.state.doc.toString());
          }),
          // tabindex: axe does not count a contenteditable as focusable content of its scroller.
          EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': 'studio-editor', tabindex: '0' }),
          EditorView.theme({ '&': { height: '100%', fontSize: '13px' }, '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' } }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, [type]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` pushes a value equal to the last one pushed (a change restored back to the loaded text)
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value, version]);

  return <div ref={host} style={{ height: '100%', minHeight: 480, border: '1px solid #d9d9d9', borderRadius: 6, overflow: 'hidden' }} />;
}
