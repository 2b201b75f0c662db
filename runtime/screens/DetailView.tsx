/**
 * A detail screen: the record in sections of fields (rendered like table cells), its
 * actions, and related lists as child tables filtered by the record.
 */
import { Button, Card, Descriptions, Flex, Result, Skeleton } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useServices } from '../services/context.ts';
import { isHttpError } from '../http/errors.ts';
import { evaluate } from '../schema/conditions.ts';
import type { DetailScreen, RelatedList } from '../schema/screen.ts';
import { textOf } from '../schema/texts.ts';
import { pluck, type ValueContext } from '../schema/values.ts';
import { ActionButtons, targetUrl } from './actions.tsx';
import { onResourceChanged } from './data-events.ts';
import { resolveEndpoint, resourceOperation } from './endpoints.ts';
import { fieldTitle } from './form-schema.ts';
import { ValueView } from './format.tsx';
import { useLang, useScreenHost } from './host.ts';
import { fieldSchemaOf, useOptionsList } from './options.ts';
import { TableView } from './TableView.tsx';
import { useReportRecord } from './record-report.ts';

type Data = Record<string, unknown>;

export function DetailView({ screen }: { screen: DetailScreen }) {
  const host = useScreenHost();
  const lang = useLang();
  const { t } = useTranslation();
  const { http } = useServices();
  const doc = screen.resource ? host.registry.resource(screen.resource) : undefined;
  const id = host.params[screen.idParam ?? 'id'];
  const [record, setRecord] = useState<Data | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const baseCtx = useMemo<ValueContext>(() => ({ route: host.params, query: host.query }), [host.params, host.query]);

  useEffect(() => {
    if (!screen.resource) return;
    return onResourceChanged((r) => r === screen.resource && setReloads((n) => n + 1));
  }, [screen.resource]);

  useEffect(() => {
    let live = true;
    const ep = screen.load ? resolveEndpoint(screen.load, baseCtx, host.registry, screen.resource) : doc && id ? resourceOperation(doc, 'read', id) : null;
    if (!ep) {
      setFailure(t('screens.form.noRecord'));
      return;
    }
    http
      .request<Data>({ method: ep.method, url: ep.url })
      .then((env) => {
        if (!live) return;
        setRecord(env.data ?? {});
        setFailure(null);
      })
      .catch((e: unknown) => live && setFailure(isHttpError(e) ? (e.serverMessage ?? e.message) : String(e)));
    return () => {
      live = false;
    };
  }, [screen.load, screen.resource, baseCtx, host.registry, doc, id, http, t, reloads]);

  useReportRecord(record);
  const fields = useMemo(() => screen.sections.flatMap((s) => s.fields), [screen.sections]);
  const ctx = useMemo<ValueContext>(() => ({ ...baseCtx, record: record ?? {} }), [baseCtx, record]);
  const options = useOptionsList(
    useMemo(() => fields.map((f) => ({ e: f, prop: fieldSchemaOf(doc, f.field) })), [fields, doc]),
    ctx,
  );

  if (failure)
    return <Result status="warning" title={t('screens.form.loadFailed')} subTitle={failure} extra={<Button onClick={() => setReloads((n) => n + 1)}>{t('screens.retry')}</Button>} />;
  if (!record) return <Skeleton active paragraph={{ rows: 8 }} />;

  let index = 0;
  return (
    <Flex vertical gap={16}>
      <ActionButtons actions={screen.actions} scope={{ ctx, resource: screen.resource, refresh: () => setReloads((n) => n + 1) }} data={record} />
      {screen.sections.map((s, si) => (
        <Card key={si} size="small" title={s.title ? textOf(s.title, lang) : undefined}>
          <Descriptions
            column={s.columns ?? 2}
            items={s.fields.flatMap((f) => {
              const opts = options[index++];
              if (f.when && !safeEvaluate(f.when, record)) return [];
              const value = pluck(record, f.field);
              const link = f.link
                ? (text: string) => {
                    const url = targetUrl(f.link!, ctx, host);
                    return url ? <Link to={url}>{text}</Link> : text;
                  }
                : undefined;
              return [
                {
                  key: f.field,
                  label: fieldTitle(f, fieldSchemaOf(doc, f.field), lang),
                  span: f.span,
                  children: <ValueView value={value} fmt={{ render: f.render === 'link' ? 'text' : f.render, precision: f.precision, lang }} options={opts} link={link} />,
                },
              ];
            })}
          />
        </Card>
      ))}
      {(screen.related ?? []).map((rel, i) => (
        <RelatedTable key={i} id={`${screen.id}-related-${i}`} related={rel} ctx={ctx} />
      ))}
    </Flex>
  );
}

function RelatedTable({ id, related, ctx }: { id: string; related: RelatedList; ctx: ValueContext }) {
  const lang = useLang();
  const parts = useMemo(
    () => ({ ...related, fixedFilters: [...(related.fixedFilters ?? []), { field: related.foreignKey, value: `record.${related.parentField ?? 'id'}` as const }] }),
    [related],
  );
  return (
    <Card size="small" title={textOf(related.title, lang)}>
      <TableView id={id} parts={parts} resource={related.resource} title={related.title} ctx={ctx} />
    </Card>
  );
}

function safeEvaluate(c: Parameters<typeof evaluate>[0], data: unknown): boolean {
  try {
    return evaluate(c, data);
  } catch {
    return false;
  }
}
