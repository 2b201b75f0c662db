/**
 * What a drag or a key press does to a bar's dates, as pure functions of whole days: moving
 * keeps the duration, resizing moves one end and never lets the bar get shorter than one
 * day, and nothing leaves the season (the server refuses dates outside it anyway; the
 * timeline does not offer them).
 */
export interface DaySpan {
  /** Day number of the first day. */
  start: number;
  /** Day number of the last day (inclusive). */
  end: number;
}

/** Which part of the bar is being dragged: its body moves it, its edges resize it. */
export type DragMode = 'move' | 'start' | 'end';

export interface Bounds {
  firstDay: number;
  lastDay: number;
}

export function applyDelta(span: DaySpan, mode: DragMode, days: number, bounds: Bounds): DaySpan {
  if (mode === 'move') {
    const length = span.end - span.start;
    // A bar longer than the season cannot move; it stays where it is.
    if (length > bounds.lastDay - bounds.firstDay) return span;
    const start = clamp(span.start + days, bounds.firstDay, bounds.lastDay - length);
    return { start, end: start + length };
  }
  if (mode === 'start') return { start: clamp(span.start + days, Math.min(bounds.firstDay, span.end), span.end), end: span.end };
  return { start: span.start, end: clamp(span.end + days, span.start, Math.max(bounds.lastDay, span.start)) };
}

export type KeyIntent = { kind: 'nudge'; mode: DragMode; days: number } | { kind: 'commit' } | { kind: 'cancel' } | { kind: 'focus'; to: 'previous' | 'next' | 'first' | 'last' } | null;

/**
 * The keyboard contract of a bar: ←/→ move it by a day, Shift+←/→ move its end (resize),
 * Enter saves the new dates, Escape puts the bar back, ↑/↓/Home/End go to another bar.
 */
export function keyIntent(key: string, shift: boolean): KeyIntent {
  switch (key) {
    case 'ArrowLeft':
      return { kind: 'nudge', mode: shift ? 'end' : 'move', days: -1 };
    case 'ArrowRight':
      return { kind: 'nudge', mode: shift ? 'end' : 'move', days: 1 };
    case 'Enter':
      return { kind: 'commit' };
    case 'Escape':
      return { kind: 'cancel' };
    case 'ArrowUp':
      return { kind: 'focus', to: 'previous' };
    case 'ArrowDown':
      return { kind: 'focus', to: 'next' };
    case 'Home':
      return { kind: 'focus', to: 'first' };
    case 'End':
      return { kind: 'focus', to: 'last' };
    default:
      return null;
  }
}

export function sameSpan(a: DaySpan, b: DaySpan): boolean {
  return a.start === b.start && a.end === b.end;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
