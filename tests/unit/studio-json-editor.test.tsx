// @vitest-environment jsdom
/**
 * The studio's JSON editor takes a text pushed from outside (a change restored from the
 * diff) even when it equals the last text pushed: typing since then is replaced. Before
 * `version`, restoring the only change back to the loaded text left the typed text shown.
 */
import { act, cleanup, render } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonEditor } from '../../widgets/schema-studio/JsonEditor.tsx';
import { stubBrowserApis } from './screens-harness.tsx';

const LOADED = '{\n  "id": "x"\n}\n';

describe('JsonEditor', () => {
  afterEach(() => cleanup());

  it('replaces what was typed when the same text is pushed again with a new version', () => {
    stubBrowserApis();
    const typed: string[] = [];
    const props = { type: 'screen' as const, check: () => [], onChange: (t: string) => typed.push(t), label: 'doc' };
    const { container, rerender } = render(<JsonEditor {...props} value={LOADED} version={0} />);
    const view = EditorView.findFromDOM(container.querySelector('.cm-editor') as HTMLElement)!;
    act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: '{\n  "id": "y"\n}\n' } }));
    expect(view.state.doc.toString()).toContain('"y"');
    // The same value again, without a new version: nothing to do (typing is kept).
    rerender(<JsonEditor {...props} value={LOADED} version={0} />);
    expect(view.state.doc.toString()).toContain('"y"');
    // Pushed again (a restored change equal to the loaded text): the editor shows it, and says so.
    rerender(<JsonEditor {...props} value={LOADED} version={1} />);
    expect(view.state.doc.toString()).toBe(LOADED);
    expect(typed.at(-1)).toBe(LOADED);
  });
});
