/**
 * The timeline's pure logic: calendar days, day ↔ x at each zoom, drag snapping, keyboard
 * moves, the edit state (a refused save puts the bar back) and plan items → timeline.
 */
import { describe, expect, it } from 'vitest';
import { dayOf, isoOf, weekdayOf } from '../../widgets/planting-timeline/dates.ts';
import { editsReducer, isChange, NO_EDITS, shownSpan } from '../../widgets/planting-timeline/edits.ts';
import { previewOf, rescheduleBody, statusOf, timelineOf, withAdjustment, type PlanItemRow } from '../../widgets/planting-timeline/plan-items.ts';
import { applyDelta, keyIntent } from '../../widgets/planting-timeline/reschedule.ts';
import { dayToX, makeScale, PX_PER_DAY, pxToDays, spanToX, ticksOf, xToDay, xToDayBoundary, ZOOMS } from '../../widgets/planting-timeline/scale.ts';
import { formatDay, TIMELINE_TEXTS } from '../../widgets/planting-timeline/texts.ts';

const season = { start: '2026-03-01', end: '2026-08-31' };

describe('calendar days', () => {
  it('round-trips ISO dates through day numbers, across month, leap-day and year ends', () => {
    for (const iso of ['1970-01-01', '2024-02-29', '2026-03-01', '2026-12-31', '2027-01-01']) expect(isoOf(dayOf(iso))).toBe(iso);
    expect(dayOf('2026-03-01') - dayOf('2026-02-28')).toBe(1);
    expect(dayOf('2024-03-01') - dayOf('2024-02-28')).toBe(2);
    expect(dayOf('2026-03-29T00:00:00Z')).toBe(dayOf('2026-03-29'));
    expect(() => dayOf('3/1/2026')).toThrow(/not an ISO date/);
  });
  it('knows the weekday (2026-03-02 is a Monday)', () => {
    expect(weekdayOf(dayOf('2026-03-02'))).toBe(1);
    expect(weekdayOf(dayOf('2026-03-01'))).toBe(0);
  });
});

describe('scale', () => {
  it.each(ZOOMS)('maps days to x and back at %s zoom', (zoom) => {
    const scale = makeScale(season, zoom);
    const px = PX_PER_DAY[zoom];
    const first = dayOf('2026-03-01');
    expect(dayToX(scale, first)).toBe(0);
    expect(dayToX(scale, dayOf('2026-03-11'))).toBe(10 * px);
    expect(scale.width).toBe(184 * px); // March 1 to August 31 inclusive
    expect(xToDay(scale, 10 * px)).toBe(first + 10);
    expect(xToDay(scale, 10 * px + px - 0.01)).toBe(first + 10);
    // A boundary is the nearest day edge: just under half a day rounds down, half or more up.
    expect(xToDayBoundary(scale, 10 * px + px * 0.49)).toBe(first + 10);
    expect(xToDayBoundary(scale, 10 * px + px * 0.5)).toBe(first + 11);
    const bar = spanToX(scale, first + 2, first + 4);
    expect(bar).toEqual({ x: 2 * px, width: 3 * px });
  });
  it('snaps drags to whole days at each zoom', () => {
    expect(pxToDays(makeScale(season, 'day'), 47)).toBe(1); // 32 px a day
    expect(pxToDays(makeScale(season, 'day'), 48)).toBe(2);
    expect(pxToDays(makeScale(season, 'week'), -24)).toBe(-2); // 10 px a day
    expect(pxToDays(makeScale(season, 'month'), 4)).toBe(1); // 3 px a day
    expect(Object.is(pxToDays(makeScale(season, 'day'), -3), 0)).toBe(true);
  });
  it('ticks: months major at every zoom, days at day zoom, Mondays at week zoom', () => {
    const month = ticksOf(makeScale(season, 'month'));
    expect(month.map((t) => isoOf(t.day))).toEqual(['2026-03-01', '2026-04-01', '2026-05-01', '2026-06-01', '2026-07-01', '2026-08-01']);
    expect(month.every((t) => t.major)).toBe(true);
    const week = ticksOf(makeScale(season, 'week')).filter((t) => !t.major);
    expect(week.every((t) => weekdayOf(t.day) === 1)).toBe(true);
    expect(isoOf(week[0].day)).toBe('2026-03-02');
    expect(ticksOf(makeScale(season, 'day'))).toHaveLength(184);
  });
  it('refuses a season that ends before it starts', () => {
    expect(() => makeScale({ start: '2026-05-01', end: '2026-04-30' }, 'day')).toThrow(/before it starts/);
  });
});

describe('reschedule', () => {
  const bounds = { firstDay: 100, lastDay: 200 };
  it('moves keeping the duration, clamped to the season', () => {
    expect(applyDelta({ start: 110, end: 114 }, 'move', 3, bounds)).toEqual({ start: 113, end: 117 });
    expect(applyDelta({ start: 110, end: 114 }, 'move', -30, bounds)).toEqual({ start: 100, end: 104 });
    expect(applyDelta({ start: 190, end: 194 }, 'move', 30, bounds)).toEqual({ start: 196, end: 200 });
  });
  it('resizes one end, never below one day and never out of the season', () => {
    expect(applyDelta({ start: 110, end: 114 }, 'end', 2, bounds)).toEqual({ start: 110, end: 116 });
    expect(applyDelta({ start: 110, end: 114 }, 'end', -10, bounds)).toEqual({ start: 110, end: 110 });
    expect(applyDelta({ start: 110, end: 114 }, 'start', -20, bounds)).toEqual({ start: 100, end: 114 });
    expect(applyDelta({ start: 110, end: 114 }, 'start', 10, bounds)).toEqual({ start: 114, end: 114 });
    expect(applyDelta({ start: 110, end: 114 }, 'end', 200, bounds)).toEqual({ start: 110, end: 200 });
  });
  it('keys: arrows move by a day, shift+arrows resize, Enter commits, Escape cancels, ↑/↓ change bar', () => {
    expect(keyIntent('ArrowRight', false)).toEqual({ kind: 'nudge', mode: 'move', days: 1 });
    expect(keyIntent('ArrowLeft', false)).toEqual({ kind: 'nudge', mode: 'move', days: -1 });
    expect(keyIntent('ArrowRight', true)).toEqual({ kind: 'nudge', mode: 'end', days: 1 });
    expect(keyIntent('ArrowLeft', true)).toEqual({ kind: 'nudge', mode: 'end', days: -1 });
    expect(keyIntent('Enter', false)).toEqual({ kind: 'commit' });
    expect(keyIntent('Escape', false)).toEqual({ kind: 'cancel' });
    expect(keyIntent('ArrowDown', false)).toEqual({ kind: 'focus', to: 'next' });
    expect(keyIntent('a', false)).toBeNull();
    // Three presses right then one shift+right: three days later, one day longer.
    let span = { start: 120, end: 124 };
    for (const [key, shift] of [['ArrowRight', false], ['ArrowRight', false], ['ArrowRight', false], ['ArrowRight', true]] as const) {
      const intent = keyIntent(key, shift);
      if (intent?.kind === 'nudge') span = applyDelta(span, intent.mode, intent.days, bounds);
    }
    expect(span).toEqual({ start: 123, end: 128 });
  });
});

describe('edit state', () => {
  const own = { start: 110, end: 114 };
  it('a refused save snaps the bar back and keeps the server sentence; a new gesture clears it', () => {
    let edits = editsReducer(NO_EDITS, { type: 'draft', id: 7, span: { start: 112, end: 116 } });
    expect(shownSpan(own, edits.get(7))).toEqual({ start: 112, end: 116 });
    expect(isChange(own, edits.get(7))).toBe(true);
    edits = editsReducer(edits, { type: 'saving', id: 7, span: { start: 112, end: 116 } });
    expect(shownSpan(own, edits.get(7))).toEqual({ start: 112, end: 116 });
    edits = editsReducer(edits, { type: 'refused', id: 7, message: '日期超出种植季' });
    expect(shownSpan(own, edits.get(7))).toEqual(own);
    expect(edits.get(7)).toEqual({ refusal: '日期超出种植季' });
    edits = editsReducer(edits, { type: 'draft', id: 7, span: { start: 111, end: 115 } });
    expect(edits.get(7)).toEqual({ draft: { start: 111, end: 115 } });
    edits = editsReducer(edits, { type: 'cancel', id: 7 });
    expect(edits.has(7)).toBe(false);
  });
  it('a saved edit is dropped (the owner now has the dates); a drag back to the start is no change', () => {
    let edits = editsReducer(NO_EDITS, { type: 'saving', id: 'a', span: { start: 120, end: 124 } });
    edits = editsReducer(edits, { type: 'saved', id: 'a' });
    expect(edits.size).toBe(0);
    edits = editsReducer(edits, { type: 'draft', id: 'a', span: own });
    expect(isChange(own, edits.get('a'))).toBe(false);
  });
});

describe('plan items', () => {
  const row = (over: Partial<PlanItemRow>): PlanItemRow => ({ id: 1, version: 3, planId: 9, orderNumber: 1, itemType: 'work', name: 'x', startOn: '2026-04-01', endOn: '2026-04-03', ...over });
  const today = dayOf('2026-04-10');
  it('derives the status: the task’s, overdue when past and not done, else not published', () => {
    expect(statusOf(row({}), today)).toBe('overdue');
    expect(statusOf(row({ taskStatus: 'done' }), today)).toBe('done');
    expect(statusOf(row({ endOn: '2026-04-10' }), today)).toBe('planned');
    expect(statusOf(row({ endOn: '2026-04-20', taskStatus: 'inProgress' }), today)).toBe('inProgress');
    expect(statusOf(row({ endOn: '2026-04-20', taskStatus: 'somethingElse' }), today)).toBe('planned');
  });
  it('splits stages, key nodes and work in plan order, with a season around the items', () => {
    const data = timelineOf(
      [
        row({ id: 3, orderNumber: 3, name: 'spray', startOn: '2026-05-01', endOn: '2026-05-02', _can: { update: false } }),
        row({ id: 1, orderNumber: 1, itemType: 'stage', name: 'seedling', startOn: '2026-04-01', endOn: '2026-04-30' }),
        row({ id: 2, orderNumber: 2, itemType: 'keyNode', name: 'transplant', startOn: '2026-04-15', endOn: '2026-04-15' }),
        row({ id: 4, orderNumber: 4, name: 'weed', startOn: '2026-04-20', endOn: '2026-04-22', taskStatus: 'published' }),
      ],
      today,
    );
    expect(data.stages).toEqual([{ id: 1, name: 'seedling', startOn: '2026-04-01', endOn: '2026-04-30' }]);
    expect(data.keyNodes).toEqual([{ id: 2, name: 'transplant', on: '2026-04-15' }]);
    expect(data.tasks.map((t) => [t.id, t.status, t.locked])).toEqual([
      [3, 'planned', true],
      [4, 'published', false],
    ]);
    expect(data.season).toEqual({ start: '2026-03-18', end: '2026-05-16' });
    expect(timelineOf([], today, { start: '2026-03-01', end: '2026-10-31' }).season).toEqual({ start: '2026-03-01', end: '2026-10-31' });
  });
  it('saves the whole record with its version and the new dates', () => {
    const r = row({ materials: [{ name: '尿素', amountPerMu: 10, unit: 'kg' }] });
    expect(rescheduleBody(r, '2026-04-05', '2026-04-07')).toEqual({ ...r, startOn: '2026-04-05', endOn: '2026-04-07', version: 3 });
  });
});

describe('texts', () => {
  it('has every text in zh, en and es, and dates as each language reads them', () => {
    const keys = (l: keyof typeof TIMELINE_TEXTS) => Object.keys(TIMELINE_TEXTS[l]).sort();
    expect(keys('en')).toEqual(keys('zh'));
    expect(keys('es')).toEqual(keys('zh'));
    const day = dayOf('2026-03-05');
    expect(formatDay(day, 'zh')).toBe('2026-03-05');
    expect(formatDay(day, 'en')).toBe('Mar 5, 2026');
    expect(formatDay(day, 'es')).toMatch(/^5 mar 2026$/);
    expect(TIMELINE_TEXTS.es.bar({ name: 'Riego', start: 'a', end: 'b', days: 1, status: TIMELINE_TEXTS.es.status.overdue })).toBe('Riego, del a al b, 1 día, Atrasada');
  });
});

describe('preview reply on the timeline', () => {
  const reply = {
    plan: { name: 'p' },
    items: [
      { orderNumber: 1, itemType: 'stage', name: 'Seedling', startOn: '2026-04-01', endOn: '2026-04-30' },
      { orderNumber: 2, itemType: 'work', name: 'Irrigation', startOn: '2020-01-01', endOn: '2020-01-02' },
    ],
    season: { start: '2026-03-01', end: '2026-08-31' },
  };

  it('draws every item as planned, locked unless the host keeps adjustments, against the season given', () => {
    const today = dayOf('2026-05-01');
    const locked = previewOf(reply, today)!;
    expect(locked.season).toEqual({ start: '2026-03-01', end: '2026-08-31' });
    expect(locked.stages.map((s) => s.id)).toEqual([1]);
    expect(locked.tasks).toEqual([{ id: 2, name: 'Irrigation', startOn: '2020-01-01', endOn: '2020-01-02', status: 'planned', locked: true }]);
    expect(previewOf(reply, today, true)!.tasks[0].locked).toBe(false);
    expect(previewOf({ items: [{ orderNumber: 1 }] }, today)).toBeNull();
    expect(previewOf(null, today)).toBeNull();
  });

  it('an adjustment replaces an earlier move of the same item, in item order', () => {
    const once = withAdjustment(undefined, 5, '2026-05-01', '2026-05-02');
    const twice = withAdjustment([...once, { orderNumber: 2, startOn: '2026-04-01', endOn: '2026-04-01' }], 5, '2026-05-03', '2026-05-04');
    expect(twice).toEqual([
      { orderNumber: 2, startOn: '2026-04-01', endOn: '2026-04-01' },
      { orderNumber: 5, startOn: '2026-05-03', endOn: '2026-05-04' },
    ]);
  });
});
