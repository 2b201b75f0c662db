/**
 * Trend of a field-condition report (seedling, pest or disaster) over a chosen range: the
 * number of reports, the average and worst grade and the report's measure per day, week or
 * month (the server chooses by the range), drawn as a line and bar chart.
 */
import { Alert, DatePicker, Empty, Select, Space } from 'antd';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef, useState } from 'react';
import type { ConsoleServices } from '../../runtime/services/contract.ts';
import { isHttpError } from '../../runtime/widgets/api.ts';
import type { Texts } from './texts.ts';

echarts.use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

interface Trend {
  report: string;
  bucket: string;
  measure: string;
  points: { t: string; reports: number; avgGrade: number | null; maxGrade: number | null; measure: number | null }[];
}

const day = (d: Date) => d.toISOString().slice(0, 10);

export function ReportTrendView({ services, texts, report, defaultRange }: { services: ConsoleServices; texts: Texts; report: string; defaultRange?: string }) {
  const [range, setRange] = useState(defaultRange && texts.reportRanges[defaultRange] ? defaultRange : '365d');
  const [custom, setCustom] = useState<[string, string] | null>(null);
  const [data, setData] = useState<Trend | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const to = custom ? custom[1] : day(new Date());
    const from = custom ? custom[0] : day(new Date(Date.now() - Number.parseInt(range, 10) * 86_400_000));
    let stop = false;
    services.data
      .call<Trend>('fieldReportTrend', { params: { report, from, to }, quiet: true })
      .then((env) => {
        if (stop) return;
        setData(Array.isArray(env.data?.points) ? env.data : null);
        setError(null);
      })
      .catch((e: unknown) => !stop && setError(isHttpError(e) ? (e.serverMessage ?? e.message) : String(e)));
    return () => {
      stop = true;
    };
  }, [services, report, range, custom]);
  return (
    <div className="eqc-charts" data-testid={`report-trend-${report}`}>
      <Space wrap className="eqc-chart-bar">
        <Select aria-label={texts.range} value={custom ? 'custom' : range} onChange={(r) => { setCustom(null); setRange(r); }} style={{ width: 110 }} options={Object.entries(texts.reportRanges).map(([value, label]) => ({ value, label }))} />
        <DatePicker.RangePicker aria-label={texts.range} onChange={(v) => setCustom(v?.[0] && v[1] ? [v[0].format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')] : null)} />
      </Space>
      {error && <Alert type="error" title={error} showIcon />}
      {data && !data.points.length ? <Empty description={texts.noData} /> : data && <TrendChart data={data} texts={texts} />}
    </div>
  );
}

function TrendChart({ data, texts }: { data: Trend; texts: Texts }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current, undefined, { renderer: 'svg' });
    const x = data.points.map((p) => p.t);
    chart.setOption({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 48, right: 48, top: 36, bottom: 32 },
      xAxis: { type: 'category', data: x },
      yAxis: [
        { type: 'value', name: texts.reportCount, minInterval: 1 },
        { type: 'value', name: texts.avgGrade, min: 0, max: 4, position: 'right' },
      ],
      series: [
        { name: texts.reportCount, type: 'bar', data: data.points.map((p) => p.reports) },
        { name: texts.avgGrade, type: 'line', yAxisIndex: 1, data: data.points.map((p) => p.avgGrade) },
        { name: texts.maxGrade, type: 'line', yAxisIndex: 1, lineStyle: { type: 'dashed' }, data: data.points.map((p) => p.maxGrade) },
        { name: texts.measures[data.measure] ?? data.measure, type: 'line', data: data.points.map((p) => p.measure) },
      ],
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [data, texts]);
  return <div ref={ref} className="eqc-chart" role="img" aria-label={`${texts.trendTitle}: ${data.points.length}`} />;
}
