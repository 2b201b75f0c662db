/**
 * Environment charts: one measure over any range (6 hours to a year, or given dates),
 * aggregated by the server into time buckets, one line per farm's place for comparison;
 * exported as CSV (bucket, farm, place, avg, min, max, n), or every raw reading of the range
 * as CSV or XLSX (the server's file). A reading that arrives while the chart is open joins
 * its bucket (chart-live.ts).
 */
import { Alert, Button, DatePicker, Empty, Select, Space } from 'antd';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ConsoleServices } from '../../runtime/services/contract.ts';
import { csvDocument } from '../../runtime/widgets/api.ts';
import { isHttpError } from '../../runtime/widgets/api.ts';
import type { FileReply } from '../../runtime/services/contract.ts';
import { withReading, type ChartSeries } from './chart-live.ts';
import type { Live, Unit } from './live.ts';
import { UNITS, type Texts } from './texts.ts';
import { SimulatedBanner } from './Simulated.tsx';

echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

type Series = ChartSeries;

const RANGES: Record<string, number> = { '6h': 6 * 3600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000, '365d': 365 * 86_400_000 };

export function ChartsView({ services, texts, units, live, defaultKind, defaultRange }: { services: ConsoleServices; texts: Texts; units: Unit[]; live?: Pick<Live, 'onReading'>; defaultKind?: string; defaultRange?: string }) {
  const kinds = useMemo(() => [...new Set(units.flatMap((u) => u.devices.flatMap((d) => d.channels)))], [units]);
  const [kind, setKind] = useState(defaultKind ?? 'airTemperature');
  // A place is asked for with its farm (farmId:name): a viewer of several farms compares
  // each farm's house, never two same-named houses averaged together.
  const severalFarms = useMemo(() => new Set(units.map((u) => u.farmId)).size > 1, [units]);
  const placesOfKind = useMemo(
    () =>
      units
        .filter((u) => u.devices.some((d) => d.channels.includes(kind)))
        .map((u) => ({ value: `${u.farmId}:${u.unit}`, label: severalFarms ? `${u.farmName} · ${u.unit}` : u.unit })),
    [units, kind, severalFarms],
  );
  const [places, setPlaces] = useState<string[]>([]);
  const [range, setRange] = useState(defaultRange ?? '7d');
  const [custom, setCustom] = useState<[string, string] | null>(null);
  const [bucket, setBucket] = useState('auto');
  const [data, setData] = useState<Series | null>(null);
  const [error, setError] = useState<string | null>(null);
  const chosen = places.length ? places : placesOfKind.slice(0, 3).map((p) => p.value);

  const [exporting, setExporting] = useState<string | null>(null);
  // Whole hours, so the server reads its hourly rollup.
  const rangeNow = () => {
    const to = custom ? new Date(custom[1]) : new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
    return { from: custom ? new Date(custom[0]) : new Date(to.getTime() - RANGES[range]), to };
  };

  useEffect(() => {
    if (!chosen.length) return;
    const { from, to } = rangeNow();
    let stop = false;
    services.data
      .call<Series>('deviceReadings', { params: { kind, places: chosen.join(','), from: from.toISOString(), to: to.toISOString(), bucket }, quiet: true })
      .then((env) => {
        if (stop) return;
        setData(Array.isArray(env.data?.series) ? env.data : null);
        setError(null);
      })
      .catch((e: unknown) => !stop && setError(isHttpError(e) ? (e.serverMessage ?? e.message) : String(e)));
    return () => {
      stop = true;
    };
  }, [services, kind, chosen.join('|'), range, custom, bucket]);

  // New readings join the open chart: a range that follows now slides, a fixed one takes only its own.
  useEffect(() => {
    if (!live) return;
    const span = custom ? { from: Date.parse(custom[0]), to: Date.parse(custom[1]) } : { windowMs: RANGES[range] };
    return live.onReading((reading) => setData((d) => (d ? (withReading(d, reading, span) ?? d) : d)));
  }, [live, range, custom]);

  const exportRaw = async (format: 'csv' | 'xlsx') => {
    const { from, to } = rangeNow();
    setExporting(format);
    try {
      const env = await services.data.call<FileReply>('deviceReadingsRaw', {
        params: { kind, places: chosen.join(','), from: from.toISOString(), to: to.toISOString(), format },
        asFile: true,
        quiet: true,
        timeoutMs: 600_000,
      });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(env.data.blob);
      a.download = env.data.fileName ?? `${kind}.${format}`;
      a.click();
      URL.revokeObjectURL(a.href);
      setError(null);
    } catch (e) {
      setError(isHttpError(e) ? (e.serverMessage ?? e.message) : String(e));
    } finally {
      setExporting(null);
    }
  };

  const exportCsv = () => {
    if (!data) return;
    // Farm and place names are people's text: csvDocument keeps a formula-like one inert.
    const rows = [['time', 'farm', 'place', 'avg', 'min', 'max', 'n'], ...data.series.flatMap((s) => s.points.map((p) => [p.t, s.farmName, s.place, p.avg, p.min, p.max, p.n]))];
    const blob = new Blob([csvDocument(rows)], { type: 'text/csv;charset=utf-8' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${kind}-${new Date().toISOString().slice(0, 10)}.csv`;
    a.click();
    URL.revokeObjectURL(a.href);
  };

  return (
    <div className="eqc-charts">
      <Space wrap className="eqc-chart-bar">
        <Select aria-label={texts.kind} value={kind} onChange={(k) => { setKind(k); setPlaces([]); }} style={{ width: 150 }} options={(kinds.length ? kinds : Object.keys(texts.readings)).map((k) => ({ value: k, label: texts.readings[k] ?? k }))} />
        <Select aria-label={texts.places} mode="multiple" value={chosen} onChange={setPlaces} style={{ minWidth: 260 }} options={placesOfKind} maxTagCount={3} />
        <Select aria-label={texts.range} value={custom ? 'custom' : range} onChange={(r) => { setCustom(null); setRange(r); }} style={{ width: 110 }} options={Object.entries(texts.ranges).map(([value, label]) => ({ value, label }))} />
        <DatePicker.RangePicker showTime aria-label={texts.range} onChange={(v) => setCustom(v?.[0] && v[1] ? [v[0].toISOString(), v[1].toISOString()] : null)} />
        <Select aria-label={texts.bucket} value={bucket} onChange={setBucket} style={{ width: 100 }} options={Object.entries(texts.buckets).map(([value, label]) => ({ value, label }))} />
        <Button onClick={exportCsv} disabled={!data}>{texts.exportCsv}</Button>
        <Button onClick={() => void exportRaw('csv')} loading={exporting === 'csv'} disabled={!chosen.length}>{texts.exportRawCsv}</Button>
        <Button onClick={() => void exportRaw('xlsx')} loading={exporting === 'xlsx'} disabled={!chosen.length}>{texts.exportRawXlsx}</Button>
      </Space>
      {error && <Alert type="error" title={error} showIcon />}
      {data?.series.some((s) => s.simulated) && <SimulatedBanner texts={texts} />}
      {data && data.series.every((s) => !s.points.length) ? <Empty description={texts.noData} /> : data && <Chart data={data} texts={texts} />}
    </div>
  );
}

function Chart({ data, texts }: { data: Series; texts: Texts }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current, undefined, { renderer: 'svg' });
    const unit = UNITS[data.kind] ?? data.unit;
    chart.setOption({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 48, right: 24, top: 36, bottom: 32 },
      xAxis: { type: 'time' },
      yAxis: { type: 'value', name: `${texts.readings[data.kind] ?? data.kind}${unit ? ` (${unit})` : ''}`, scale: true },
      series: data.series.map((s) => ({ name: s.simulated ? `${s.label ?? s.place}（${texts.simulated}）` : (s.label ?? s.place), type: 'line', showSymbol: false, data: s.points.map((p) => [p.t, p.avg]) })),
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [data, texts]);
  // How many readings the chart holds (a live one adds one): for people who check it, and for tests.
  const readings = data.series.reduce((sum, s) => sum + s.points.reduce((n, p) => n + p.n, 0), 0);
  return <div ref={ref} className="eqc-chart" data-readings={readings} role="img" aria-label={`${texts.readings[data.kind] ?? data.kind}: ${data.series.map((s) => s.label ?? s.place).join(', ')}`} />;
}
