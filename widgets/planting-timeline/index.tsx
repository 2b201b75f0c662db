/**
 * The planting timeline behind the runtime's widget API: the ONE file of the widget that
 * imports the runtime. It reads the plan named by the screen (props.planId, else the
 * route's :planId, else :id), loads its items, and saves a drag with the engine's update.
 * The console loads this module lazily (widgets/manifest.ts); its default export is the
 * widget component.
 *
 * Given `data` (a form's preview, WidgetProps.data), it draws the generator's preview reply
 * instead: the items of a plan not yet stored, read-only (plan-items.ts previewOf).
 *
 * Screen props: planId?, seasonStart?, seasonEnd? (the planting group's season), height?,
 * editElement? (the element code that allows rescheduling; ":edit" resolves against the
 * screen's menu code). Without editElement, or without that code, the timeline is read-only:
 * the console never offers a change the server would refuse.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { isHttpError, type WidgetProps } from '../../runtime/widgets/api.ts';
import { todayDay } from './dates.ts';
import type { ItemId } from './edits.ts';
import { PlantingTimeline } from './PlantingTimeline.tsx';
import { hasSuccessors, PLAN_ITEMS, previewOf, rescheduleBody, timelineOf, withAdjustment, type PlanItemRow } from './plan-items.ts';
import { TIMELINE_TEXTS, type TimelineLanguage } from './texts.ts';

const MAX_ITEMS = 500;

type Load = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; rows: PlanItemRow[] };

export default function PlantingTimelineWidget(props: WidgetProps) {
  // Data handed in (a form's preview of a plan not yet stored) is drawn as it is, read-only.
  return props.data !== undefined ? <PreviewTimeline {...props} /> : <StoredPlanTimeline {...props} />;
}

/**
 * A generator's preview reply (plan-items.ts previewOf) on the timeline: nothing to read.
 * With `adjust` (a form keeping adjustments), work items move and resize as on a stored plan;
 * a move becomes an adjustment `{orderNumber, startOn, endOn}` handed to the form, which asks
 * the server again, and a refusal comes back beside the bar. Without it, read-only.
 */
function PreviewTimeline({ data, config, language, adjust }: WidgetProps) {
  const texts = TIMELINE_TEXTS[language];
  const drawn = useMemo(() => previewOf(data, todayDay(), !!adjust), [data, adjust]);
  const onReschedule = useCallback(
    (id: ItemId, startOn: string, endOn: string) => (adjust ? adjust.change(withAdjustment(adjust.value, Number(id), startOn, endOn)) : Promise.resolve()),
    [adjust],
  );
  if (!drawn) return <p role="alert">{texts.loadFailed}</p>;
  return <PlantingTimeline {...drawn} language={language} onReschedule={adjust ? onReschedule : undefined} height={typeof config.height === 'number' ? config.height : 360} />;
}

function StoredPlanTimeline({ config: props, route, authority, services, registry, language: lang }: WidgetProps) {
  const { data: provider, access } = services;
  const language: TimelineLanguage = lang;
  const texts = TIMELINE_TEXTS[language];
  const planId = text(props.planId) ?? route.planId ?? route.id;
  const editElement = text(props.editElement);
  const editable = !!editElement && access.can({ elements: [editElement.startsWith(':') ? `${authority}${editElement}` : editElement] });

  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const rows = useRef<PlanItemRow[]>([]);
  const [reloads, setReloads] = useState(0);
  const shownPlan = useRef<string | undefined>(undefined);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reloads` is the signal to read the plan again
  useEffect(() => {
    if (!planId) return;
    // Another plan starts from "loading"; a re-read of the same plan keeps it on screen.
    if (shownPlan.current !== planId) setLoad({ state: 'loading' });
    const abort = new AbortController();
    provider
      .query<{ rows: PlanItemRow[] }>({ registry, source: { resource: PLAN_ITEMS, operation: 'page' }, params: { planId, pageSize: MAX_ITEMS } })
      .then((page) => {
        if (abort.signal.aborted) return;
        rows.current = page.rows;
        shownPlan.current = planId;
        setLoad({ state: 'ready', rows: page.rows });
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setLoad({ state: 'failed', message: isHttpError(e) ? (e.serverMessage ?? '') : '' });
      });
    return () => abort.abort();
    // A refused save reads the plan again (reloads), so the next try carries current versions.
  }, [provider, registry, planId, reloads]);

  const onReschedule = useCallback(
    async (id: ItemId, startOn: string, endOn: string) => {
      const row = rows.current.find((r) => r.id === id);
      if (!row) throw new Error(texts.refusedFallback);
      try {
        const env = await provider.mutate<PlanItemRow>({ registry, source: { resource: PLAN_ITEMS, operation: 'update', id: row.id }, body: rescheduleBody(row, startOn, endOn) });
        rows.current = rows.current.map((r) => (r.id === row.id ? { ...r, ...env.data } : r));
        // The server moved the item's successors as far as their dependencies need (docs/planting.md,
        // "Dependencies"): the plan is read again, so their bars show their new dates (and versions).
        if (hasSuccessors(rows.current, row.id)) {
          try {
            const page = await provider.query<{ rows: PlanItemRow[] }>({ registry, source: { resource: PLAN_ITEMS, operation: 'page' }, params: { planId: planId ?? String(row.planId), pageSize: MAX_ITEMS } });
            rows.current = page.rows;
          } catch {
            // Saved all the same; the next refusal or visit reads the plan again.
          }
        }
        setLoad({ state: 'ready', rows: rows.current });
      } catch (e) {
        setReloads((n) => n + 1);
        throw new Error(isHttpError(e) && e.kind === 'business' ? (e.serverMessage ?? e.message) : texts.refusedFallback);
      }
    },
    [provider, registry, texts, planId],
  );

  const seasonStart = text(props.seasonStart);
  const seasonEnd = text(props.seasonEnd);
  const data = useMemo(
    () => (load.state === 'ready' ? timelineOf(load.rows, todayDay(), { start: seasonStart, end: seasonEnd }) : null),
    [load, seasonStart, seasonEnd],
  );

  if (!planId || load.state === 'failed') {
    return (
      <p role="alert">
        {texts.loadFailed}
        {load.state === 'failed' && load.message ? `: ${load.message}` : ''}
      </p>
    );
  }
  if (!data) return <p aria-busy="true">{texts.loading}</p>;
  return (
    <PlantingTimeline
      {...data}
      language={language}
      onReschedule={editable ? onReschedule : undefined}
      height={typeof props.height === 'number' ? props.height : undefined}
    />
  );
}

function text(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value ? value : undefined;
}
