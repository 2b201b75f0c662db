/**
 * A form's live preview (FormScreen.preview, docs/schema-language.md "Form preview"): once
 * the fields it waits for are filled and valid, the form's values go to the preview
 * endpoint after a pause in typing, and the reply's data is drawn by a widget of the
 * manifest. The widget's chunk is fetched only when there is a reply to draw. A refusal is
 * the server's sentence in place of the drawing; the form itself is untouched. With
 * `adjustments`, the widget may change the preview (WidgetProps.adjust): the change is kept in
 * that property of the form, sent with the next preview call and the save, and a refusal
 * of it goes back to the widget (which shows it where the change was made).
 */
import { Alert, Flex, Skeleton, Typography } from 'antd';
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../http/errors.ts';
import type { FormPreview as PreviewSpec } from '../schema/screen.ts';
import { textOf, type Lang } from '../schema/texts.ts';
import type { ValueContext } from '../schema/values.ts';
import { useServices } from '../services/context.ts';
import { widgetFor, type WidgetAdjust } from '../widgets/api.ts';
import { PREVIEW_DEBOUNCE_MS, previewBody } from './form-preview.ts';
import { useScreenHost } from './host.ts';
import { viewOf } from './widget-view.ts';

type State =
  | { state: 'waiting' }
  | { state: 'loading'; shown?: unknown }
  | { state: 'ready'; data: unknown }
  | { state: 'refused'; messages: string[] };

export interface FormPreviewProps {
  preview: PreviewSpec;
  /** What a save would send: the form's shown fields, and the preview's adjustments property. */
  fields: readonly string[];
  data: Record<string, unknown>;
  ctx: ValueContext;
  /** The fields the preview waits for. */
  requires: readonly string[];
  /** Those not yet ready (empty or invalid), with their titles. */
  unready: readonly { field: string; title: string }[];
  /** Sets one value of the form (the preview's adjustments). */
  setValue: (field: string, value: unknown) => void;
  lang: Lang;
}

/** A widget's change waiting for the reply that shows it (WidgetProps.adjust). */
interface PendingChange {
  resolve: () => void;
  reject: (e: Error) => void;
  previous: unknown;
}

export function FormPreview({ preview, fields, data, ctx, requires, unready, setValue, lang }: FormPreviewProps) {
  const { t } = useTranslation();
  const host = useScreenHost();
  const services = useServices();
  const body = useMemo(() => previewBody(preview, fields, data, ctx, unready.map((u) => u.field)), [preview, fields, data, ctx, unready]);
  const bodyKey = body ? JSON.stringify(body) : null;
  const [state, setState] = useState<State>({ state: 'waiting' });
  // Only the reply to the latest body counts; an older one arriving late is dropped.
  const latest = useRef(0);
  const pending = useRef<PendingChange | null>(null);
  const adjField = preview.adjustments;
  const adjusted = adjField ? data[adjField] : undefined;

  // Adjustments belong to the preview they were made on: another template or date drops them.
  const basis = JSON.stringify(requires.map((f) => data[f] ?? null));
  const lastBasis = useRef(basis);
  useEffect(() => {
    if (lastBasis.current === basis) return;
    lastBasis.current = basis;
    // A change still waiting is settled: its preview is gone, so no later refusal is its.
    pending.current?.resolve();
    pending.current = null;
    if (adjField && adjusted !== undefined) setValue(adjField, undefined);
  }, [basis, adjField, adjusted, setValue]);

  const adjust = useMemo(() => {
    if (!adjField) return undefined;
    return {
      value: adjusted,
      change: (next: unknown) =>
        new Promise<void>((resolve, reject) => {
          // A newer change supersedes one still waiting; the newer reply will show both.
          pending.current?.resolve();
          pending.current = { resolve, reject, previous: adjusted };
          setValue(adjField, next);
        }),
    };
  }, [adjField, adjusted, setValue]);

  // The endpoint is resolved against the form's values at the time of the call; a new
  // context alone (every keystroke makes one) is no reason to call again, a new body is.
  const source = useRef({ endpoint: preview.endpoint, ctx });
  source.current = { endpoint: preview.endpoint, ctx };
  // biome-ignore lint/correctness/useExhaustiveDependencies: bodyKey stands for body; the call depends on its content only
  useEffect(() => {
    const call = ++latest.current;
    if (!body) {
      setState({ state: 'waiting' });
      return;
    }
    setState((s) => ({ state: 'loading', shown: s.state === 'ready' ? s.data : s.state === 'loading' ? s.shown : undefined }));
    const timer = setTimeout(() => {
      services.data
        .mutate({ registry: host.registry, source: source.current, body, quiet: true })
        .then((env) => {
          if (call !== latest.current) return;
          setState({ state: 'ready', data: env.data });
          pending.current?.resolve();
          pending.current = null;
        })
        .catch((e: unknown) => {
          if (call !== latest.current) return;
          const sentences = isHttpError(e) && e.kind === 'business' ? (e.fieldErrors.length ? e.fieldErrors.map((f) => f.message) : [e.serverMessage ?? e.message]) : [t('screens.callFailed')];
          const change = pending.current;
          if (change && adjField) {
            // The widget's change was refused: the widget shows the sentence where the change was
            // made, the value goes back, and the last accepted preview stays (asked again).
            pending.current = null;
            setValue(adjField, change.previous);
            change.reject(new Error(sentences.join(' ')));
            return;
          }
          setState({ state: 'refused', messages: sentences });
        });
    }, preview.debounceMs ?? PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [bodyKey, services.data, host.registry, preview.debounceMs, t, adjField, setValue]);

  const title = textOf(preview.title, lang);
  const shown = state.state === 'ready' ? state.data : state.state === 'loading' ? state.shown : undefined;
  return (
    <section className="form-preview" aria-label={title} aria-busy={state.state === 'loading' || undefined} style={{ marginTop: 8 }}>
      <Flex vertical gap={8}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {preview.help ? <Typography.Text type="secondary">{textOf(preview.help, lang)}</Typography.Text> : null}
        {state.state === 'waiting' ? (
          <Typography.Text type="secondary">{t('screens.form.preview.waiting', { fields: listOf(unready.map((u) => u.title), lang) })}</Typography.Text>
        ) : null}
        {state.state === 'loading' ? (
          <Typography.Text type="secondary" role="status">
            {t('screens.loading')}…
          </Typography.Text>
        ) : null}
        {state.state === 'refused' ? <Alert type="warning" showIcon role="alert" title={t('screens.form.preview.refused')} description={state.messages.join(' ')} /> : null}
        {shown !== undefined ? <PreviewWidget name={preview.widget} props={preview.props} data={shown} adjust={adjust} lang={lang} /> : null}
      </Flex>
    </section>
  );
}

function PreviewWidget({ name, props, data, adjust, lang }: { name: string; props?: Record<string, unknown>; data: unknown; adjust?: WidgetAdjust; lang: Lang }) {
  const { t } = useTranslation();
  const host = useScreenHost();
  const services = useServices();
  const found = widgetFor(name);
  if (found.state !== 'ready') return <Alert type="error" showIcon title={t(found.state === 'missing' ? 'screens.widget.missingTitle' : 'screens.widget.unknownTitle', { name })} />;
  const Widget = viewOf(found.load);
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
      <Widget config={props ?? {}} route={host.params} authority={host.authority} services={services} registry={host.registry} language={lang} data={data} adjust={adjust} />
    </Suspense>
  );
}

/** "a, b and c" in the console's language. */
function listOf(items: readonly string[], lang: Lang): string {
  return new Intl.ListFormat(lang, { style: 'long', type: 'conjunction' }).format(items);
}
