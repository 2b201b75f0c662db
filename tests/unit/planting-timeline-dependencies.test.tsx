// @vitest-environment jsdom
/**
 * Finish-to-start dependencies on the planting timeline (widgets/planting-timeline/
 * dependencies.ts, plan-items.ts): the arrow from the predecessor's end to the successor's
 * start at each zoom, the way round when there is no room, a dependency broken by a draft,
 * plan rows carrying `after` / `lagDays` to the bars, when the adapter reads the plan again,
 * a done task never overdue, the texts in zh / en / es, and the component drawing the arrows
 * (and saying them to screen readers) while keeping the bars' labels. Dates are fixed.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { giveElementsDesktopSize } from './desktop-layout.ts';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../../widgets/planting-timeline/dates.ts';
import { ARROW_GAP, arrowHead, arrowPath, dependencyLinks, earliestStartDay } from '../../widgets/planting-timeline/dependencies.ts';
import { PlantingTimeline, type TimelineTask } from '../../widgets/planting-timeline/PlantingTimeline.tsx';
import { hasSuccessors, statusOf, timelineOf, type PlanItemRow } from '../../widgets/planting-timeline/plan-items.ts';
import { makeScale } from '../../widgets/planting-timeline/scale.ts';
import { TIMELINE_TEXTS } from '../../widgets/planting-timeline/texts.ts';

const season = { start: '2031-03-01', end: '2031-05-31' };
const span = (start: string, end: string) => ({ start: dayOf(start), end: dayOf(end) });

describe('the arrow of a dependency', () => {
  it('leaves the predecessor’s end, turns to the successor’s row and runs into its start', () => {
    expect(arrowPath(100, 16, 160, 80, 32)).toBe(`M100 16H${100 + ARROW_GAP}V80H160`);
    expect(arrowHead(160, 80)).toBe('M155 76L160 80L155 84Z');
  });

  it('goes round along the successor row’s border when it starts at or before the predecessor’s end', () => {
    expect(arrowPath(100, 16, 100, 80, 32)).toBe(`M100 16H106V64H94V80H100`);
    // A predecessor below its successor: the border above… below the successor's row.
    expect(arrowPath(100, 80, 90, 16, 32)).toBe(`M100 80H106V32H84V16H90`);
  });

  it('is placed by the dates at each zoom, the lag is told, a draft that breaks it is flagged', () => {
    const tasks = [
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B', after: 'a', lagDays: 2 },
      { id: 'c', name: 'C', after: 'stage-1' },
    ];
    const spans = [span('2031-03-01', '2031-03-03'), span('2031-03-06', '2031-03-08'), span('2031-03-10', '2031-03-10')];
    const week = dependencyLinks(tasks, spans, makeScale(season, 'week'), 32);
    // Week zoom, 10 px a day: A ends after day 3 (x 30), B starts on day 6 (x 50); rows 0 and 1.
    expect(week).toEqual([{ from: 'a', to: 'b', fromIndex: 0, toIndex: 1, lagDays: 2, kept: true, path: 'M30 16H36V48H50', head: arrowHead(50, 48) }]);
    const day = dependencyLinks(tasks, spans, makeScale(season, 'day'), 32);
    expect(day[0].path).toBe('M96 16H102V48H160');
    // Month zoom, 3 px a day: a bar is drawn at least 8 px wide, and the arrow leaves it there.
    expect(dependencyLinks(tasks, [span('2031-03-01', '2031-03-01'), spans[1], spans[2]], makeScale(season, 'month'), 32, 8)[0].path.startsWith('M8 16')).toBe(true);
    // A drag of A to end on 03-05 leaves B (03-06) short of its lag: the arrow says it will be pushed.
    expect(dependencyLinks(tasks, [span('2031-03-03', '2031-03-05'), spans[1], spans[2]], makeScale(season, 'week'), 32)[0].kept).toBe(false);
    expect(earliestStartDay(span('2031-03-01', '2031-03-03'), 2)).toBe(dayOf('2031-03-06'));
  });
});

describe('plan rows with dependencies', () => {
  const row = (id: number, orderNumber: number, patch: Partial<PlanItemRow> = {}): PlanItemRow => ({
    id,
    version: 1,
    planId: 7,
    orderNumber,
    itemType: 'work',
    name: `#${id}`,
    startOn: '2031-03-01',
    endOn: '2031-03-03',
    ...patch,
  });

  it('carry after and lagDays to the bars (lag 0 when absent); the adapter reads the plan again only after moving an item others follow', () => {
    const rows = [row(1, 1), row(2, 2, { after: 1, lagDays: 2, startOn: '2031-03-06', endOn: '2031-03-08' }), row(3, 3, { after: 2 })];
    const { tasks } = timelineOf(rows, dayOf('2031-03-02'), season);
    expect(tasks.map((t) => [t.id, t.after, t.lagDays])).toEqual([
      [1, undefined, undefined],
      [2, 1, 2],
      [3, 2, 0],
    ]);
    expect(hasSuccessors(rows, 1)).toBe(true);
    expect(hasSuccessors(rows, 3)).toBe(false);
  });

  it('a done task is never overdue; an open one past its end is', () => {
    const today = dayOf('2031-04-01');
    expect(statusOf({ endOn: '2031-03-03', taskStatus: 'done' }, today)).toBe('done');
    expect(statusOf({ endOn: '2031-03-03', taskStatus: 'inProgress' }, today)).toBe('overdue');
    expect(statusOf({ endOn: '2031-04-01', taskStatus: 'published' }, today)).toBe('published');
  });

  it('are said in zh, en and es', () => {
    expect(TIMELINE_TEXTS.zh.dependency('起垄', '整地', 2)).toBe('起垄 在 整地 结束 2 天后开始');
    expect(TIMELINE_TEXTS.zh.dependency('起垄', '整地', 0)).toBe('起垄 在 整地 结束后开始');
    expect(TIMELINE_TEXTS.en.dependency('Ridging', 'Tillage', 1)).toBe('Ridging starts 1 day after Tillage ends');
    expect(TIMELINE_TEXTS.en.dependency('Ridging', 'Tillage', 0)).toBe('Ridging starts after Tillage ends');
    expect(TIMELINE_TEXTS.es.dependency('Caballones', 'Labranza', 3)).toBe('Caballones empieza 3 días después de que termine Labranza');
  });
});

describe('the component', () => {
  afterEach(() => cleanup());
  beforeAll(() => {
    giveElementsDesktopSize();
  });

  const tasks: TimelineTask[] = [
    { id: 1, name: 'Tillage', startOn: '2031-03-01', endOn: '2031-03-03', status: 'done' },
    { id: 2, name: 'Ridging', startOn: '2031-03-06', endOn: '2031-03-08', status: 'planned', after: 1, lagDays: 2 },
  ];

  it('draws one arrow per dependency, says it to screen readers, keeps the bars’ labels and shows a draft pushing it', async () => {
    const { container } = render(
      <PlantingTimeline stages={[]} keyNodes={[]} tasks={tasks} season={season} language="en" today="2031-04-01" initialZoom="week" onReschedule={() => Promise.resolve()} />,
    );
    const arrows = container.querySelectorAll('[data-testid="ptl-dependencies"] g');
    expect(arrows).toHaveLength(1);
    expect(arrows[0].getAttribute('data-from')).toBe('1');
    expect(arrows[0].getAttribute('data-to')).toBe('2');
    expect(arrows[0].querySelector('path')?.getAttribute('d')).toBe('M30 16H36V48H50');
    expect(screen.getByText('Ridging starts 2 days after Tillage ends')).toBeTruthy();
    expect(screen.getByText('Dependency (finish to start)')).toBeTruthy();
    // The done task is shown done, though its end is a month before today.
    const tillage = screen.getByRole('button', { name: /^Tillage, / });
    expect(tillage.getAttribute('aria-label')).toMatch(/3 days, Done$/);
    // → on the predecessor: a draft ending 03-04 leaves Ridging short of its lag; the arrow is flagged.
    await act(async () => {
      tillage.focus();
      fireEvent.keyDown(tillage, { key: 'ArrowRight' });
    });
    expect(container.querySelector('[data-testid="ptl-dependencies"] g')?.getAttribute('class')).toContain('ptl-dep-pushed');
    await act(async () => {
      fireEvent.keyDown(tillage, { key: 'Escape' });
    });
    expect(container.querySelector('[data-testid="ptl-dependencies"] g')?.getAttribute('class')).toBe('ptl-dep');
  });

  it('draws nothing without dependencies', () => {
    const { container } = render(<PlantingTimeline stages={[]} keyNodes={[]} tasks={tasks.map(({ after: _a, lagDays: _l, ...t }) => t)} season={season} language="zh" today="2031-04-01" />);
    expect(container.querySelector('[data-testid="ptl-dependencies"]')).toBeNull();
  });
});
