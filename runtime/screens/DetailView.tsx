/**
 * A detail screen: the record in sections of fields (rendered like table cells), its
 * actions, and related lists as child tables filtered by the record.
 */
import { DocumentLink } from './DocumentLink.tsx';
import { Button, Card, Descriptions, Flex, Result, Skeleton } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { DataSource } from '../services/contract.ts';
import { evaluate } from '../schema/conditions.ts';
import { idParamOf, type DetailScreen, type RelatedList } from '../schema/screen.ts';
import { textOf } from '../schema/texts.ts';
import { pluck, type ValueContext } from '../schema/values.ts';
import { ActionButtons, targetUrl } from './actions.tsx';
import { onResourceChanged } from './data-events.ts';
import { fieldTitle } from './form-schema.ts';
import { ValueView } from './format.tsx';
import { useLang, useScreenHost } from './host.ts';
import { fieldSchemaOf, useOptionsList } from './options.ts';
import { TableView } from './TableView.tsx';
import { useReportRecord } from './record-report.ts';
import { useResourceQuery } from './use-resource-query.ts';

type Data = Record<string, unknown>;

export function DetailView({ screen }: { screen: DetailScreen }) {
  const host = useScreenHost();
  const lang = useLang();
  const { t } = useTranslation();
  const doc = screen.resource ? host.registry.resource(screen.resource) : undefined;
  const id = host.params[idParamOf(screen, host.routePattern)];
  const baseCtx = useMemo<ValueContext>(() => ({ route: host.params, query: host.query }), [host.params, host.query]);
  const source = useMemo<DataSource | null>(
    () => (screen.load ? { endpoint: screen.load, ctx: baseCtx, screenResource: screen.resource } : screen.resource && id ? { resource: screen.resource, operation: 'read', id } : null),
    [screen.load, screen.resource, baseCtx, id],
  );
  const loaded = useResourceQuery<Data | null>(source, { refreshOn: screen.resource });
  const reload = loaded.refresh;
  // A detail computed by a call of its own (`load`: plan against record, a summary) is made
  // of its related lists' records: it reads again when one of them changes.
  const relatedResources = useMemo(() => (screen.load ? new Set((screen.related ?? []).map((r) => r.resource)) : null), [screen.load, screen.related]);
  useEffect(() => (relatedResources?.size ? onResourceChanged((r) => relatedResources.has(r) && reload()) : undefined), [relatedResources, reload]);
  // A record comes back as the reply's data; an empty reply is an empty record.
  const record = useMemo(() => (loaded.data === undefined ? null : (loaded.data ?? {})), [loaded.data]);
  const failure = !source || loaded.unresolvable ? t('screens.form.noRecord') : loaded.failure;

  useReportRecord(record);
  const fields = useMemo(() => screen.sections.flatMap((s) => s.fields), [screen.sections]);
  const ctx = useMemo<ValueContext>(() => ({ ...baseCtx, record: record ?? {} }), [baseCtx, record]);
  const options = useOptionsList(
    useMemo(() => fields.map((f) => ({ e: f, prop: fieldSchemaOf(doc, f.field) })), [fields, doc]),
    ctx,
  );

  if (failure)
    return <Result status="warning" title={t('screens.form.loadFailed')} subTitle={failure} extra={<Button onClick={reload}>{t('screens.retry')}</Button>} />;
  if (!record) return <Skeleton active paragraph={{ rows: 8 }} />;

  let index = 0;
  return (
    <Flex vertical gap={16}>
      <ActionButtons actions={screen.actions} scope={{ ctx, resource: screen.resource, refresh: reload }} data={record} />
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
                    if (url && f.link!.document) return <DocumentLink href={url}>{text}</DocumentLink>;
                    return url ? <Link to={url}>{text}</Link> : text;
                  }
                : undefined;
              const label = fieldTitle(f, fieldSchemaOf(doc, f.field), lang);
              return [
                {
                  key: f.field,
                  label,
                  span: f.span,
                  children: <ValueView value={value} fmt={{ render: f.render === 'link' ? 'text' : f.render, precision: f.precision, lang, label }} options={opts} link={link} />,
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
