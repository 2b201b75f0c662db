/**
 * The read-mostly views of the widget: soil moisture (墒情 levels from the
 * sensors) and the weather (the farm's stations, and the forecast provider's answer).
 */
import { Alert, Card, Descriptions, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import type { ConsoleServices } from '../../runtime/services/contract.ts';
import type { Device, Unit } from './live.ts';
import { soilLevel, UNITS, type Texts } from './texts.ts';
import { SimulatedBanner, SimulatedTag } from './Simulated.tsx';

export function SoilView({ units, texts }: { units: Unit[]; texts: Texts }) {
  const rows = units.flatMap((u) => u.devices.filter((d) => d.channels.includes('soilMoisture')).map((d) => ({ ...d, unit: u.unit })));
  return (
    <>
      {rows.some((d) => d.simulated) && <SimulatedBanner texts={texts} />}
      <Table
        rowKey="id"
        size="small"
        dataSource={rows}
        pagination={false}
        columns={[
          { title: texts.unit, dataIndex: 'unit' },
          { title: texts.place, dataIndex: 'place' },
          { title: texts.device, render: (_, d: Device) => <>{d.name} {d.simulated && <SimulatedTag texts={texts} />}</> },
          { title: texts.readings.soilMoisture, render: (_, d: Device) => (d.readings.soilMoisture ? `${d.readings.soilMoisture.value} %` : '—') },
          { title: texts.readings.soilTemperature, render: (_, d: Device) => (d.readings.soilTemperature ? `${d.readings.soilTemperature.value} °C` : '—') },
          {
            title: texts.soilLevel,
            render: (_, d: Device) => {
              const v = d.readings.soilMoisture?.value;
              if (v === undefined) return '—';
              const level = soilLevel(v);
              return <Tag color={{ dry: 'red', low: 'gold', good: 'green', wet: 'blue' }[level]}>{texts.soilLevels[level]}</Tag>;
            },
          },
          { title: texts.online, render: (_, d: Device) => <Tag color={d.online ? 'green' : 'default'}>{d.online ? texts.online : texts.offline}</Tag> },
        ]}
      />
    </>
  );
}

interface Weather {
  stations: Unit[];
  forecast: { configured: boolean; provider: string | null; message: string; days: { date: string; summary: string; low: number; high: number; rainfallMm: number }[] };
}

export function WeatherView({ services, texts, units }: { services: ConsoleServices; texts: Texts; units: Unit[] }) {
  const [w, setW] = useState<Weather | null>(null);
  useEffect(() => {
    void services.data.call<Weather>('deviceWeather', { quiet: true }).then((env) => setW(env.data && Array.isArray(env.data.stations) ? env.data : null)).catch(() => undefined);
  }, [services]);
  // Live readings of the stations come from the units (pushed); the forecast from the call.
  const stations = units.filter((u) => w?.stations.some((s) => s.unit === u.unit));
  return (
    <div className="eqc-grid">
      {stations.map((s) => (
        <Card key={s.unit} title={`${texts.stations} · ${s.unit}`} extra={s.simulated ? <SimulatedTag texts={texts} /> : null} className="eqc-unit">
          <Descriptions size="small" column={1}>
            {s.devices.flatMap((d) =>
              d.channels.map((k) => (
                <Descriptions.Item key={`${d.id}-${k}`} label={texts.readings[k] ?? k}>
                  {d.readings[k] ? `${d.readings[k].value} ${UNITS[k] ?? ''}` : '—'}
                </Descriptions.Item>
              )),
            )}
          </Descriptions>
        </Card>
      ))}
      <Card title={texts.forecast} className="eqc-unit">
        {w && !w.forecast.configured ? (
          <Alert type="info" showIcon title={w.forecast.message} data-testid="no-forecast" />
        ) : w && !w.forecast.days.length ? (
          <Alert type="warning" showIcon title={w.forecast.message} data-testid="forecast-down" />
        ) : (
          <>
            {w && <p data-testid="forecast-from">{w.forecast.message}</p>}
            {w?.forecast.days.map((d) => (
              <p key={d.date}>
                {d.date} {d.summary} {d.low}–{d.high} °C {d.rainfallMm} mm
              </p>
            ))}
          </>
        )}
      </Card>
    </div>
  );
}
