/**
 * A form's live preview (FormScreen.preview, docs/schema-language.md "Form preview"): once
 * the fields it waits for are filled and valid, the form's values go to the preview
 * endpoint after a pause in typing, and the reply's data is drawn by a widget of the
 * manifest. The widget's chunk is fetched only when there is a reply to draw. A refusal is
 * the server's sentence in place of the drawing; the form itself is untouched.
 */
import { Alert, Flex, Skeleton, Typography } from 'antd';
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../http/errors.ts';
import type { FormPreview as PreviewSpec } from '../schema/screen.ts';
import { textOf, type Lang } from '../schema/texts.ts';
import type { ValueContext } from '../schema/values.ts';
import { useServices } from '../services/context.ts';
import { widgetFor } from '../widgets/api.ts';
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
  /** The form's shown fields (what a save would send). */
  fields: readonly string[];
  data: Record<string, unknown>;
  ctx: ValueContext;
  /** The waited-for fields not yet ready (empty or invalid), with their titles. */
  unready: readonly { field: string; title: string }[];
  lang: Lang;
}

export function FormPreview({ preview, fields, data, ctx, unready, lang }: FormPreviewProps) {
  const { t } = useTranslation();
  const host = useScreenHost();
  const services = useServices();
  const body = useMemo(() => previewBody(preview, fields, data, ctx, unready.map((u) => u.field)), [preview, fields, data, ctx, unready]);
  const bodyKey = body ? JSON.stringify(body) : null;
  const [state, setState] = useState<State>({ state: 'waiting' });
  // Only the reply to the latest body counts; an older one arriving late is dropped.
  const latest = useRef(0);

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
          if (call === latest.current) setState({ state: 'ready', data: env.data });
        })
        .catch((e: unknown) => {
          if (call !== latest.current) return;
          if (isHttpError(e) && e.kind === 'business') {
            const sentences = e.fieldErrors.map((f) => f.message);
            setState({ state: 'refused', messages: sentences.length ? sentences : [e.serverMessage ?? e.message] });
          } else setState({ state: 'refused', messages: [t('screens.callFailed')] });
        });
    }, preview.debounceMs ?? PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [bodyKey, services.data, host.registry, preview.debounceMs, t]);

  const title = preview.title ? textOf(preview.title, lang) : t('screens.form.preview.title');
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
            {t('screens.form.preview.updating')}
          </Typography.Text>
        ) : null}
        {state.state === 'refused' ? <Alert type="warning" showIcon role="alert" title={t('screens.form.preview.refused')} description={state.messages.join(' ')} /> : null}
        {shown !== undefined ? <PreviewWidget name={preview.widget} props={preview.props} data={shown} lang={lang} /> : null}
      </Flex>
    </section>
  );
}

function PreviewWidget({ name, props, data, lang }: { name: string; props?: Record<string, unknown>; data: unknown; lang: Lang }) {
  const { t } = useTranslation();
  const host = useScreenHost();
  const services = useServices();
  const found = widgetFor(name);
  if (found.state !== 'ready') return <Alert type="error" showIcon title={t('screens.form.preview.unavailable', { name })} />;
  const Widget = viewOf(found.load);
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
      <Widget config={props ?? {}} route={host.params} authority={host.authority} services={services} registry={host.registry} language={lang} data={data} />
    </Suspense>
  );
}

/** "a, b and c" in the console's language. */
function listOf(items: readonly string[], lang: Lang): string {
  return new Intl.ListFormat(lang, { style: 'long', type: 'conjunction' }).format(items);
}
