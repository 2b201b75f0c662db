/**
 * A dashboard: stat cards and ECharts charts, each bound to an endpoint whose `data`
 * holds the number (a dot path) or the rows of the chart.
 */
import { Alert, Card, Col, Empty, Row, Skeleton, Statistic } from 'antd';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataSource } from '../services/contract.ts';
import { valueAt } from '../schema/conditions.ts';
import type { ChartBlock, DashboardScreen, EndpointRef, StatBlock } from '../schema/screen.ts';
import { textOf, type Lang } from '../schema/texts.ts';
import { useLang, useScreenHost } from './host.ts';
import { formatDuration, formatSize, type DurationUnit, type SizeUnit } from '../format/duration.ts';
import { SchemaIcon } from './icons.tsx';
import { useResourceQuery } from './use-resource-query.ts';

echarts.use([LineChart, BarChart, PieChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

function useEndpointData(ref: EndpointRef): { data: unknown; failure: string | null; loading: boolean } {
  const host = useScreenHost();
  const ctx = useMemo(() => ({ route: host.params, query: host.query }), [host.params, host.query]);
  const source = useMemo<DataSource>(() => ({ endpoint: ref, ctx }), [ref, ctx]);
  const { data, failure, loading } = useResourceQuery(source);
  return { data, failure, loading };
}

export function DashboardView({ screen }: { screen: DashboardScreen }) {
  return (
    <Row gutter={[16, 16]}>
      {screen.blocks.map((b, i) => (
        <Col key={i} xs={24} md={b.span ?? (b.kind === 'stat' ? 6 : 24)}>
          {b.kind === 'stat' ? <StatCard block={b} /> : <ChartCard block={b} />}
        </Col>
      ))}
    </Row>
  );
}

function StatCard({ block }: { block: StatBlock }) {
  const lang = useLang();
  const { data, failure, loading } = useEndpointData(block.endpoint);
  const raw = valueAt(data, block.value);
  const numeric = typeof raw === 'number' ? raw : typeof raw === 'string' && raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
  // A word (a state such as "up") shows as text, through the block's options when it has them.
  const option = block.options?.find((o) => o.value === raw);
  // Durations and sizes in words; the chart library's own number formatting for the rest.
  const words =
    numeric === undefined || !block.render
      ? undefined
      : block.render === 'duration'
        ? formatDuration(numeric, lang, (block.valueUnit as DurationUnit | undefined) ?? 's')
        : formatSize(numeric, lang, (block.valueUnit as SizeUnit | undefined) ?? 'B');
  const value = option ? textOf(option.label, lang) : (words ?? numeric ?? (typeof raw === 'string' && raw !== '' ? raw : undefined));
  return (
    <Card size="small">
      {failure ? (
        <Alert type="error" showIcon title={textOf(block.title, lang)} description={failure} />
      ) : (
        <Statistic
          title={textOf(block.title, lang)}
          value={value ?? '—'}
          precision={typeof value === 'number' ? block.precision : undefined}
          styles={option?.color ? { content: { color: option.color } } : undefined}
          loading={loading}
          prefix={<SchemaIcon name={block.icon} />}
          suffix={block.unit && !words ? textOf(block.unit, lang) : undefined}
        />
      )}
    </Card>
  );
}

/** Axis text dark enough for WCAG AA on white (ECharts' default grey is 3.9:1). */
const AXIS_TEXT = 'rgba(0, 0, 0, 0.72)';

export function chartOption(block: ChartBlock, rows: Record<string, unknown>[], lang: Lang): echarts.EChartsCoreOption {
  if (block.chart === 'pie') {
    return {
      tooltip: { trigger: 'item' },
      legend: { bottom: 0 },
      series: [{ type: 'pie', radius: ['35%', '65%'], data: rows.map((r) => ({ name: String(valueAt(r, block.name ?? 'name') ?? ''), value: Number(valueAt(r, block.value ?? 'value') ?? 0) })) }],
    };
  }
  const categories = rows.map((r) => String(valueAt(r, block.x ?? 'x') ?? ''));
  // Every category keeps its label: long or many labels are slanted and cut with an
  // ellipsis (the tooltip has the whole text), and the grid makes room for them.
  const longest = categories.reduce((m, c) => Math.max(m, c.length), 0);
  const slanted = longest * categories.length > 80;
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 8, right: 24, top: 32, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category',
      data: categories,
      axisLabel: { interval: 0, hideOverlap: false, rotate: slanted ? 35 : 0, width: slanted ? 140 : undefined, overflow: slanted ? 'truncate' : undefined, color: AXIS_TEXT },
    },
    yAxis: { type: 'value', axisLabel: { color: AXIS_TEXT } },
    series: (block.series ?? []).map((s) => ({
      type: block.chart,
      name: textOf(s.title, lang),
      stack: block.stacked ? 'total' : undefined,
      data: rows.map((r) => Number(valueAt(r, s.field) ?? 0)),
    })),
  };
}

function ChartCard({ block }: { block: ChartBlock }) {
  const lang = useLang();
  const { t } = useTranslation();
  const { data, failure, loading } = useEndpointData(block.endpoint);
  const el = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => {
    const list = block.rows ? valueAt(data, block.rows) : data;
    return Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
  }, [data, block.rows]);

  useEffect(() => {
    if (!el.current || !rows.length) return;
    const chart = echarts.init(el.current, undefined, { renderer: 'svg' });
    chart.setOption(chartOption(block, rows, lang));
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(() => chart.resize()) : null;
    ro?.observe(el.current);
    return () => {
      ro?.disconnect();
      chart.dispose();
    };
  }, [block, rows, lang]);

  return (
    <Card size="small" title={textOf(block.title, lang)}>
      {failure ? (
        <Alert type="error" showIcon title={t('screens.table.failed')} description={failure} />
      ) : loading ? (
        <Skeleton active />
      ) : rows.length ? (
        <div ref={el} style={{ height: block.height ?? 300 }} role="img" aria-label={textOf(block.title, lang)} />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('screens.table.empty')} />
      )}
    </Card>
  );
}
