/**
 * Where a JSON pointer points in a document's text: the offset, line and column (both
 * 1-based) of the value it names, so a problem the gate reports at `/columns/2/title`
 * is shown where that title is written. A pointer whose target does not exist (a
 * required property missing) falls back to its nearest existing ancestor. React-free:
 * the editor, the publish refusal and the tests share it. Also the other way round, the
 * pointer of the value at an offset (the editor's completion asks where the cursor is).
 */
import { findNodeAtLocation, getLocation, parseTree, type Node, type ParseError } from 'jsonc-parser';

export interface TextPosition {
  /** 0-based offset of the value (or of its property's key, for a property). */
  offset: number;
  /** Length of the value's text (0 when the document could not be parsed at all). */
  length: number;
  line: number;
  column: number;
  /** The pointer actually found: the requested one, or the ancestor it fell back to. */
  found: string;
}

/** Segments of a JSON pointer ("/a/0/b~1c" → ["a", "0", "b/c"]). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function pointerOf(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Line and column (1-based) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: end - start + 1 };
}

/** A parsed tree kept with its text, so many pointers of one text are found in one parse. */
export function pointerLocator(text: string): (pointer: string) => TextPosition {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  return (pointer) => {
    if (!root) return { offset: 0, length: 0, ...lineColumn(text, 0), found: '' };
    const segs = pointerSegments(pointer);
    for (let n = segs.length; n >= 0; n--) {
      const path = segs.slice(0, n).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      const node = findNodeAtLocation(root, path) ?? findIndexInObject(root, path);
      if (!node) continue;
      // A property's key is where a reader looks for it: point at `"title": …`.
      const at = node.parent?.type === 'property' ? node.parent : node;
      return { offset: at.offset, length: at.length, ...lineColumn(text, at.offset), found: pointerOf(segs.slice(0, n)) };
    }
    return { offset: root.offset, length: root.length, ...lineColumn(text, root.offset), found: '' };
  };
}

/** One pointer's position; `pointerLocator` for many of one text. */
export function pointerPosition(text: string, pointer: string): TextPosition {
  return pointerLocator(text)(pointer);
}

/** A numeric segment of an object's path is a property name ("0" in {"0": …}). */
function findIndexInObject(root: Node, path: (string | number)[]): Node | undefined {
  if (!path.some((s) => typeof s === 'number')) return undefined;
  return findNodeAtLocation(root, path.map(String));
}

/**
 * The JSON pointer at an offset, and whether the cursor is at a property name (to complete
 * keys) or a value (to complete values).
 */
export function pointerAtOffset(text: string, offset: number): { pointer: string; segments: (string | number)[]; atKey: boolean; previousNode?: { value?: unknown } } {
  const loc = getLocation(text, offset);
  return { pointer: pointerOf(loc.path), segments: loc.path, atKey: loc.isAtPropertyKey, previousNode: loc.previousNode };
}
