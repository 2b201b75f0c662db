/**
 * The planting-plan timeline: growth stages as bands, key nodes as diamonds, work items as
 * bars coloured by status (with a glyph, so colour is not the only signal), a today line and
 * three zooms. Bars move and resize by dragging or with the keyboard, snapping to days; the
 * owner saves through `onReschedule`, and a refusal puts the bar back with the server's
 * sentence beside it. A pure component: no fetching, no runtime imports. Rows are
 * virtualised, so 500 items render the same few dozen rows as 20 do. Plain SVG and HTML
 * rather than a Gantt library or ECharts: docs/planting.md says why.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useReducer, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { dateParts, dayOf, isoOf, todayDay, type IsoDate } from './dates.ts';
import { dependencyLinks, type DependencyLink } from './dependencies.ts';
import { editsReducer, isChange, NO_EDITS, shownSpan, type Edit, type ItemId } from './edits.ts';
import { applyDelta, keyIntent, type Bounds, type DaySpan, type DragMode } from './reschedule.ts';
import { dayToX, makeScale, pxToDays, spanToX, ticksOf, ZOOMS, type Scale, type Season, type Zoom } from './scale.ts';
import { formatDay, TASK_STATUSES, TIMELINE_TEXTS, type TaskStatus, type TimelineLanguage, type TimelineTexts } from './texts.ts';
import './timeline.css';

export interface TimelineStage {
  id: ItemId;
  name: string;
  startOn: IsoDate;
  endOn: IsoDate;
}

export interface TimelineKeyNode {
  id: ItemId;
  name: string;
  on: IsoDate;
}

export interface TimelineTask {
  id: ItemId;
  name: string;
  startOn: IsoDate;
  /** Inclusive. */
  endOn: IsoDate;
  status: TaskStatus;
  /** This item may not be changed by the viewer (drawn, focusable, not movable). */
  locked?: boolean;
  /** The work item this one follows (finish-to-start): an arrow runs from its end to this one's start. */
  after?: ItemId;
  /** Whole days between the predecessor's end and this item's start (0: the next day). */
  lagDays?: number;
}

export interface PlantingTimelineProps {
  stages: readonly TimelineStage[];
  keyNodes: readonly TimelineKeyNode[];
  tasks: readonly TimelineTask[];
  /** No date outside it is offered. */
  season: Season;
  language: TimelineLanguage;
  /**
   * Saves new dates. Resolve once the owner's items carry them; reject with an Error whose
   * message is the server's sentence to put the bar back and show it. Absent: read-only.
   */
  onReschedule?: (id: ItemId, startOn: IsoDate, endOn: IsoDate) => Promise<unknown>;
  initialZoom?: Zoom;
  /** The day drawn as today (tests and benchmarks pin it); the viewer's local date by default. */
  today?: IsoDate;
  /** Height of the scrolling area in pixels. */
  height?: number;
}

export const ROW_HEIGHT = 32;
const LABEL_WIDTH = 220;
const AXIS_HEIGHT = 40;
const LANE_HEIGHT = 26;
const HEADER_HEIGHT = AXIS_HEIGHT + 2 * LANE_HEIGHT;
/** A pointer moving less than this is a click (focus), not a drag. */
const DRAG_THRESHOLD_PX = 3;
const MIN_BAR_PX = 8;

export const STATUS_GLYPH: Record<TaskStatus, string> = { planned: '○', published: '•', inProgress: '▶', done: '✓', overdue: '!' };

export function PlantingTimeline(props: PlantingTimelineProps) {
  const { stages, keyNodes, tasks, season, language, onReschedule, height = 560 } = props;
  const texts = TIMELINE_TEXTS[language];
  const [zoom, setZoom] = useState<Zoom>(props.initialZoom ?? 'week');
  const scale = useMemo(() => makeScale(season, zoom), [season, zoom]);
  const bounds: Bounds = { firstDay: scale.firstDay, lastDay: scale.lastDay };
  const today = props.today ? dayOf(props.today) : todayDay();
  const ownSpans = useMemo(() => tasks.map((t) => ({ start: dayOf(t.startOn), end: dayOf(t.endOn) })), [tasks]);
  const [edits, dispatch] = useReducer(editsReducer, NO_EDITS);
  const [announcement, setAnnouncement] = useState('');
  const [activeIndex, setActiveIndex] = useState(0);
  const focusWanted = useRef<number | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const helpId = useId();

  const rows = useVirtualizer({
    count: tasks.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    paddingStart: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
  });

  // Opening the plan shows today (or the season's start) near the left, not always day one.
  const scrolledOnce = useRef(false);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || scrolledOnce.current) return;
    scrolledOnce.current = true;
    if (today > scale.firstDay && today <= scale.lastDay) el.scrollLeft = Math.max(0, dayToX(scale, today) - (el.clientWidth - LABEL_WIDTH) / 3);
  }, [scale, today]);

  // A zoom keeps the day at the middle of the view where it was.
  const changeZoom = (next: Zoom) => {
    const el = scrollRef.current;
    if (el && next !== zoom) {
      const middle = scale.firstDay + (el.scrollLeft + (el.clientWidth - LABEL_WIDTH) / 2) / scale.pxPerDay;
      pendingCentre.current = middle;
    }
    setZoom(next);
  };
  const pendingCentre = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || pendingCentre.current === null) return;
    el.scrollLeft = Math.max(0, (pendingCentre.current - scale.firstDay) * scale.pxPerDay - (el.clientWidth - LABEL_WIDTH) / 2);
    pendingCentre.current = null;
  }, [scale]);

  const say = useCallback((text: string) => setAnnouncement(text), []);

  const save = useCallback(
    (index: number, span: DaySpan) => {
      const task = tasks[index];
      if (!task || !onReschedule) return;
      dispatch({ type: 'saving', id: task.id, span });
      say(texts.saving(task.name));
      onReschedule(task.id, isoOf(span.start), isoOf(span.end)).then(
        () => {
          dispatch({ type: 'saved', id: task.id });
          say(texts.saved(task.name, formatDay(span.start, language), formatDay(span.end, language)));
        },
        (e: unknown) => {
          const message = (e instanceof Error ? e.message : typeof e === 'string' ? e : '') || texts.refusedFallback;
          dispatch({ type: 'refused', id: task.id, message });
          say(texts.refusedPrefix + message);
        },
      );
    },
    [tasks, onReschedule, texts, language, say],
  );

  const focusRow = useCallback(
    (index: number) => {
      const target = Math.min(Math.max(index, 0), tasks.length - 1);
      setActiveIndex(target);
      focusWanted.current = target;
      rows.scrollToIndex(target, { align: 'auto' });
    },
    [rows, tasks.length],
  );

  // Focus follows ↑/↓ once the wanted row is rendered (it may have been virtualised away).
  const virtualRows = rows.getVirtualItems();
  useEffect(() => {
    const wanted = focusWanted.current;
    if (wanted === null) return;
    const bar = scrollRef.current?.querySelector<HTMLElement>(`[data-bar-index="${wanted}"]`);
    if (bar) {
      focusWanted.current = null;
      bar.focus({ preventScroll: true });
    }
  });

  const firstShown = virtualRows[0]?.index ?? 0;
  const lastShown = virtualRows[virtualRows.length - 1]?.index ?? 0;
  // One bar is in the tab order (roving tabindex); when it is scrolled away, the first one shown is.
  const tabbable = activeIndex >= firstShown && activeIndex <= lastShown ? activeIndex : firstShown;

  // Arrows follow the bars as shown (a draft included), so a drag shows which successors it would push.
  const shownSpans = useMemo(() => tasks.map((t, i) => shownSpan(ownSpans[i], edits.get(t.id))), [tasks, ownSpans, edits]);
  const links = useMemo(() => dependencyLinks(tasks, shownSpans, scale, ROW_HEIGHT, MIN_BAR_PX), [tasks, shownSpans, scale]);
  const dependencyWords = useMemo(
    () => links.map((l) => texts.dependency(tasks[l.toIndex].name, tasks[l.fromIndex].name, l.lagDays)),
    [links, tasks, texts],
  );

  const canvasHeight = HEADER_HEIGHT + tasks.length * ROW_HEIGHT;
  return (
    <section className="ptl" aria-label={texts.region}>
      <div className="ptl-toolbar">
        <fieldset className="ptl-zoom">
          <legend>{texts.zoom}</legend>
          {ZOOMS.map((z) => (
            <button key={z} type="button" aria-pressed={z === zoom} onClick={() => changeZoom(z)}>
              {texts.zooms[z]}
            </button>
          ))}
        </fieldset>
        <Legend texts={texts} dependencies={links.length > 0} />
      </div>
      <p className="ptl-help" id={helpId}>
        {texts.keyboardHelp}
      </p>
      <div className="ptl-scroll" ref={scrollRef} style={{ height }}>
        <div className="ptl-canvas" style={{ width: LABEL_WIDTH + scale.width, height: canvasHeight }}>
          <Header scale={scale} stages={stages} keyNodes={keyNodes} today={today} texts={texts} language={language} dependencies={dependencyWords} />
          <Background scale={scale} stages={stages} today={today} height={tasks.length * ROW_HEIGHT} />
          {links.length > 0 && <Dependencies links={links} width={scale.width} height={tasks.length * ROW_HEIGHT} />}
          {tasks.length === 0 && <p className="ptl-empty">{texts.empty}</p>}
          {virtualRows.map((vr) => {
            const task = tasks[vr.index];
            return (
              <TaskRow
                key={task.id}
                index={vr.index}
                top={vr.start}
                task={task}
                own={ownSpans[vr.index]}
                edit={edits.get(task.id)}
                scale={scale}
                bounds={bounds}
                texts={texts}
                language={language}
                helpId={helpId}
                tabbable={vr.index === tabbable}
                editable={!!onReschedule && !task.locked}
                dispatch={dispatch}
                save={save}
                focusRow={focusRow}
                onFocusBar={setActiveIndex}
                say={say}
              />
            );
          })}
        </div>
      </div>
      <div className="ptl-live" aria-live="polite" role="status">
        {announcement}
      </div>
    </section>
  );
}

function Legend({ texts, dependencies }: { texts: TimelineTexts; dependencies: boolean }) {
  return (
    <div className="ptl-legend">
      <span className="ptl-legend-title">{texts.legend}</span>
      <ul>
        {TASK_STATUSES.map((s) => (
          <li key={s}>
            <span className={`ptl-swatch ptl-status-${s}`} aria-hidden="true">
              {STATUS_GLYPH[s]}
            </span>
            {texts.status[s]}
          </li>
        ))}
      </ul>
      {dependencies && (
        <span className="ptl-legend-dependency">
          <svg width={22} height={10} aria-hidden="true">
            <path className="ptl-dependency" d="M1 5H16" />
            <path className="ptl-dependency-head" d="M21 5L16 1.5V8.5Z" />
          </svg>
          {texts.dependencyLegend}
        </span>
      )}
    </div>
  );
}

/**
 * The finish-to-start arrows, over the background and under the bars, one SVG for all rows
 * (hidden from screen readers: the header's list says each dependency in words). An arrow
 * whose successor would start too early (while a predecessor's draft pushes it) is dashed.
 */
const Dependencies = memo(function Dependencies({ links, width, height }: { links: readonly DependencyLink[]; width: number; height: number }) {
  return (
    <svg className="ptl-deps" width={width} height={height} style={{ top: HEADER_HEIGHT, left: LABEL_WIDTH }} aria-hidden="true" data-testid="ptl-dependencies">
      {links.map((l) => (
        <g key={`${l.from}>${l.to}`} className={l.kept ? 'ptl-dep' : 'ptl-dep ptl-dep-pushed'} data-from={l.from} data-to={l.to}>
          <path className="ptl-dependency" d={l.path} />
          <path className="ptl-dependency-head" d={l.head} />
        </g>
      ))}
    </svg>
  );
});

const Header = memo(function Header(props: {
  scale: Scale;
  stages: readonly TimelineStage[];
  keyNodes: readonly TimelineKeyNode[];
  today: number;
  texts: TimelineTexts;
  language: TimelineLanguage;
  dependencies: readonly string[];
}) {
  const { scale, stages, keyNodes, today, texts, language, dependencies } = props;
  const ticks = useMemo(() => ticksOf(scale), [scale]);
  const laneY = AXIS_HEIGHT;
  const nodeY = AXIS_HEIGHT + LANE_HEIGHT;
  const showToday = today >= scale.firstDay && today <= scale.lastDay;
  const half = scale.pxPerDay / 2;
  return (
    <div className="ptl-head" style={{ height: HEADER_HEIGHT }}>
      <div className="ptl-corner" style={{ width: LABEL_WIDTH }}>
        <span className="ptl-corner-item">{texts.itemColumn}</span>
        <span style={{ top: laneY }}>{texts.stages}</span>
        <span style={{ top: nodeY }}>{texts.keyNodes}</span>
      </div>
      <svg className="ptl-head-svg" width={scale.width} height={HEADER_HEIGHT} style={{ left: LABEL_WIDTH }} aria-hidden="true">
        {ticks.map((t) => {
          const { year, month, date } = dateParts(t.day);
          return (
            <g key={t.day}>
              <line x1={t.x} x2={t.x} y1={t.major ? 0 : 22} y2={AXIS_HEIGHT} className={t.major ? 'ptl-tick-major' : 'ptl-tick'} />
              {t.major ? (
                <text x={t.x + 4} y={14} className="ptl-month">
                  {texts.monthLabel(year, month)}
                </text>
              ) : (
                <text x={t.x + 2} y={34} className="ptl-date">
                  {date}
                </text>
              )}
            </g>
          );
        })}
        {stages.map((s, i) => {
          const { x, width } = spanToX(scale, dayOf(s.startOn), dayOf(s.endOn));
          const label = texts.stage(s.name, formatDay(dayOf(s.startOn), language), formatDay(dayOf(s.endOn), language));
          return (
            <g key={s.id}>
              <title>{label}</title>
              <rect x={x} y={laneY + 2} width={width} height={LANE_HEIGHT - 4} rx={3} className={`ptl-stage ptl-stage-${i % 4}`} />
              <svg x={x} y={laneY} width={width} height={LANE_HEIGHT} aria-hidden="true">
                <text x={6} y={LANE_HEIGHT / 2 + 4} className="ptl-stage-name">
                  {s.name}
                </text>
              </svg>
            </g>
          );
        })}
        {keyNodes.map((k) => {
          const day = dayOf(k.on);
          const cx = dayToX(scale, day) + half;
          const cy = nodeY + LANE_HEIGHT / 2;
          const label = texts.keyNode(k.name, formatDay(day, language));
          return (
            <g key={k.id} className="ptl-keynode">
              <title>{label}</title>
              <path d={`M${cx} ${cy - 7}L${cx + 7} ${cy}L${cx} ${cy + 7}L${cx - 7} ${cy}Z`} />
              <text x={cx + 10} y={cy + 4}>
                {k.name}
              </text>
            </g>
          );
        })}
        {showToday && (
          <g className="ptl-today">
            <line x1={dayToX(scale, today) + half} x2={dayToX(scale, today) + half} y1={0} y2={HEADER_HEIGHT} />
            {/* Over the minor ticks' numbers, on white, so neither hides the other. */}
            <rect x={dayToX(scale, today) + half + 2} y={AXIS_HEIGHT - 15} width={texts.today.length * 8 + 6} height={13} className="ptl-today-tag" />
            <text x={dayToX(scale, today) + half + 4} y={AXIS_HEIGHT - 5}>
              {texts.today}
            </text>
          </g>
        )}
      </svg>
      {/* What the drawing shows, for screen readers (the SVG itself is hidden from them). */}
      <ul className="ptl-sr">
        {showToday && <li>{`${texts.today}: ${formatDay(today, language)}`}</li>}
        {stages.map((s) => (
          <li key={s.id}>{texts.stage(s.name, formatDay(dayOf(s.startOn), language), formatDay(dayOf(s.endOn), language))}</li>
        ))}
        {keyNodes.map((k) => (
          <li key={k.id}>{texts.keyNode(k.name, formatDay(dayOf(k.on), language))}</li>
        ))}
        {dependencies.map((d, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: one sentence per dependency, in the links' order
          <li key={i}>{d}</li>
        ))}
      </ul>
    </div>
  );
});

/** Behind the rows: the stages' bands, the month lines and the today line, one SVG for all rows. */
const Background = memo(function Background({ scale, stages, today, height }: { scale: Scale; stages: readonly TimelineStage[]; today: number; height: number }) {
  const ticks = useMemo(() => ticksOf(scale).filter((t) => t.major || scale.zoom === 'week'), [scale]);
  const showToday = today >= scale.firstDay && today <= scale.lastDay;
  return (
    <svg className="ptl-bg" width={scale.width} height={height} style={{ top: HEADER_HEIGHT, left: LABEL_WIDTH }} aria-hidden="true">
      {stages.map((s, i) => {
        const { x, width } = spanToX(scale, dayOf(s.startOn), dayOf(s.endOn));
        return <rect key={s.id} x={x} y={0} width={width} height={height} className={`ptl-band ptl-stage-${i % 4}`} />;
      })}
      {ticks.map((t) => (
        <line key={t.day} x1={t.x} x2={t.x} y1={0} y2={height} className={t.major ? 'ptl-grid-major' : 'ptl-grid'} />
      ))}
      {showToday && <line className="ptl-today-line" x1={dayToX(scale, today) + scale.pxPerDay / 2} x2={dayToX(scale, today) + scale.pxPerDay / 2} y1={0} y2={height} />}
    </svg>
  );
});

interface TaskRowProps {
  index: number;
  top: number;
  task: TimelineTask;
  own: DaySpan;
  edit: Edit | undefined;
  scale: Scale;
  bounds: Bounds;
  texts: TimelineTexts;
  language: TimelineLanguage;
  helpId: string;
  tabbable: boolean;
  editable: boolean;
  dispatch: (action: Parameters<typeof editsReducer>[1]) => void;
  save: (index: number, span: DaySpan) => void;
  focusRow: (index: number) => void;
  onFocusBar: (index: number) => void;
  say: (text: string) => void;
}

interface DragState {
  pointerId: number;
  mode: DragMode;
  originX: number;
  from: DaySpan;
  moved: boolean;
}

const TaskRow = memo(function TaskRow(p: TaskRowProps) {
  const { task, own, edit, scale, bounds, texts, language } = p;
  const span = shownSpan(own, edit);
  const { x, width: daysWidth } = spanToX(scale, span.start, span.end);
  // A one-day bar at month zoom is 3 px: drawn wider so a pointer can still take it.
  const width = Math.max(daysWidth, MIN_BAR_PX);
  const drag = useRef<DragState | null>(null);
  const busy = !!edit?.saving;
  const days = span.end - span.start + 1;
  const start = formatDay(span.start, language);
  const end = formatDay(span.end, language);
  const label = texts.bar({ name: task.name, start, end, days, status: texts.status[task.status] });

  const nudge = (mode: DragMode, delta: number) => {
    const next = applyDelta(span, mode, delta, bounds);
    p.dispatch({ type: 'draft', id: task.id, span: next });
    p.say(texts.draft(task.name, formatDay(next.start, language), formatDay(next.end, language)));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const intent = keyIntent(e.key, e.shiftKey);
    if (!intent) return;
    e.preventDefault();
    if (intent.kind === 'focus') {
      if (edit?.draft) p.dispatch({ type: 'cancel', id: task.id });
      const target = intent.to === 'previous' ? p.index - 1 : intent.to === 'next' ? p.index + 1 : intent.to === 'first' ? 0 : Number.MAX_SAFE_INTEGER;
      p.focusRow(target);
      return;
    }
    if (!p.editable || busy) return;
    if (intent.kind === 'nudge') nudge(intent.mode, intent.days);
    else if (intent.kind === 'cancel') {
      p.dispatch({ type: 'cancel', id: task.id });
      p.dispatch({ type: 'dismiss', id: task.id });
      if (edit?.draft) p.say(texts.bar({ name: task.name, start: formatDay(own.start, language), end: formatDay(own.end, language), days: own.end - own.start + 1, status: texts.status[task.status] }));
    } else if (intent.kind === 'commit') {
      if (isChange(own, edit)) p.save(p.index, edit.draft);
      else p.dispatch({ type: 'cancel', id: task.id });
    }
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (!p.editable || busy || e.button !== 0) return;
    const handle = (e.target as HTMLElement).dataset.handle as DragMode | undefined;
    drag.current = { pointerId: e.pointerId, mode: handle ?? 'move', originX: e.clientX, from: span, moved: false };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    const dx = e.clientX - d.originX;
    if (!d.moved && Math.abs(dx) < DRAG_THRESHOLD_PX) return;
    d.moved = true;
    const next = applyDelta(d.from, d.mode, pxToDays(scale, dx), bounds);
    if (next.start !== span.start || next.end !== span.end) p.dispatch({ type: 'draft', id: task.id, span: next });
  };
  const endDrag = (e: PointerEvent<HTMLDivElement>, cancelled: boolean) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    drag.current = null;
    if (!d.moved) return;
    if (cancelled || !isChange(own, edit)) p.dispatch({ type: 'cancel', id: task.id });
    else p.save(p.index, edit.draft);
  };

  const className = `ptl-bar ptl-status-${task.status}${edit?.draft ? ' ptl-draft' : ''}${busy ? ' ptl-saving' : ''}`;
  return (
    <div className={`ptl-row${edit?.refusal ? ' ptl-row-refused' : ''}`} style={{ top: p.top, height: ROW_HEIGHT }} data-row-index={p.index}>
      <div className="ptl-label" style={{ width: LABEL_WIDTH }} title={task.name}>
        {task.name}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a draggable bar has no native element; role button with a description of its keys is the pattern */}
      <div
        role="button"
        className={className}
        style={{ left: LABEL_WIDTH + x, width }}
        tabIndex={p.tabbable ? 0 : -1}
        aria-label={label}
        aria-describedby={p.helpId}
        aria-busy={busy || undefined}
        aria-disabled={!p.editable || undefined}
        title={label}
        data-bar-index={p.index}
        onKeyDown={onKeyDown}
        onFocus={() => p.onFocusBar(p.index)}
        onBlur={() => {
          if (edit?.draft && !drag.current) p.dispatch({ type: 'cancel', id: task.id });
        }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={(e) => endDrag(e, false)}
        onPointerCancel={(e) => endDrag(e, true)}
      >
        {p.editable && <span className="ptl-handle ptl-handle-start" data-handle="start" aria-hidden="true" />}
        {width >= 14 && (
          <span className="ptl-glyph" aria-hidden="true">
            {STATUS_GLYPH[task.status]}
          </span>
        )}
        {p.editable && <span className="ptl-handle ptl-handle-end" data-handle="end" aria-hidden="true" />}
      </div>
      {edit?.refusal && (
        <div className="ptl-refusal" role="alert" style={{ left: LABEL_WIDTH + spanToX(scale, own.start, own.end).x }}>
          <span>
            {texts.refusedPrefix}
            {edit.refusal}
          </span>
          <button type="button" onClick={() => p.dispatch({ type: 'dismiss', id: task.id })}>
            {texts.dismiss}
          </button>
        </div>
      )}
    </div>
  );
});
