/**
 * A map point field (`x-geometry` with kinds ["Point"]): longitude and latitude boxes and
 * «use my location». The value is GeoJSON text, as the server stores and checks it
 * (server/land/geometry.ts); an empty pair is no value.
 */
import { AimOutlined } from '@ant-design/icons';
import { Button, InputNumber, Space } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export function pointOf(value: unknown): [number, number] | null {
  if (typeof value !== 'string' || !value) return null;
  try {
    const g = JSON.parse(value) as { type?: string; coordinates?: unknown };
    const c = g.coordinates;
    return g.type === 'Point' && Array.isArray(c) && c.length === 2 && c.every((n) => typeof n === 'number') ? [c[0] as number, c[1] as number] : null;
  } catch {
    return null;
  }
}

/** «126.63550, 45.75620» for read views and cells. */
export function pointText(value: unknown): string {
  const p = pointOf(value);
  return p ? `${p[0].toFixed(5)}, ${p[1].toFixed(5)}` : typeof value === 'string' ? value : '';
}

export function PointWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const stored = pointOf(props.value);
  const [lon, setLon] = useState<number | null>(stored?.[0] ?? null);
  const [lat, setLat] = useState<number | null>(stored?.[1] ?? null);
  const [problem, setProblem] = useState<string | null>(null);
  const emit = (x: number | null, y: number | null) => {
    setLon(x);
    setLat(y);
    props.onChange(x === null && y === null ? undefined : JSON.stringify({ type: 'Point', coordinates: [x, y] }));
  };
  const disabled = props.disabled || props.readonly;
  const locate = () => {
    setProblem(null);
    if (!navigator.geolocation) return setProblem(t('screens.files.locateFailed'));
    navigator.geolocation.getCurrentPosition(
      (pos) => emit(Math.round(pos.coords.longitude * 1e6) / 1e6, Math.round(pos.coords.latitude * 1e6) / 1e6),
      () => setProblem(t('screens.files.locateFailed')),
      { timeout: 10_000 },
    );
  };
  return (
    <Space wrap id={props.id}>
      <InputNumber aria-label={`${props.label}: ${t('screens.files.longitude')}`} placeholder={t('screens.files.longitude')} min={-180} max={180} step={0.0001} value={lon} disabled={disabled} onChange={(v) => emit(v, lat)} style={{ width: 150 }} />
      <InputNumber aria-label={`${props.label}: ${t('screens.files.latitude')}`} placeholder={t('screens.files.latitude')} min={-90} max={90} step={0.0001} value={lat} disabled={disabled} onChange={(v) => emit(lon, v)} style={{ width: 150 }} />
      {!disabled ? (
        <Button icon={<AimOutlined />} onClick={locate}>
          {t('screens.files.locate')}
        </Button>
      ) : null}
      {problem ? <span role="alert">{problem}</span> : null}
    </Space>
  );
}
