/**
 * The units as tiles: each device with its live state, latest readings and controls.
 * A control sends a command and shows it pending until the device acknowledges (or the
 * server says it timed out, was refused or superseded); an offline device shows why it
 * cannot be controlled and offers no control. Controls show only with the screen's
 * `:control` element code (the server refuses without it anyway).
 */
import { Alert, Badge, Button, Card, Empty, InputNumber, Select, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { ConsoleServices } from '../../runtime/services/contract.ts';
import { formatDateTime, formatTime, isHttpError, type CommandStatus } from '../../runtime/widgets/api.ts';
import type { Device, Live, Unit } from './live.ts';
import { soilLevel, UNITS, type Texts } from './texts.ts';
import { SimulatedBanner, SimulatedTag } from './Simulated.tsx';

export interface UnitsProps {
  live: Live;
  texts: Texts;
  services: ConsoleServices;
  /** The screen's menu code, sent with each command (its `:control` element is checked). */
  menu: string;
  canControl: boolean;
  /** Only these units (names); all when empty. */
  onlyUnits?: string[];
  wall?: boolean;
}

export function UnitsView({ live, texts, services, menu, canControl, onlyUnits, wall }: UnitsProps) {
  if (live.state === 'loading') return <p aria-busy="true">{texts.loading}</p>;
  if (live.state === 'failed') return <Alert type="error" title={texts.loadFailed} />;
  const units = onlyUnits?.length ? live.units.filter((u) => onlyUnits.includes(u.unit)) : live.units;
  if (!units.length) return <Empty description={texts.noUnits} />;
  // Places of several farms (a provider, a regional center): each titled with its farm.
  const severalFarms = new Set(units.map((u) => u.farmId)).size > 1;
  return (
    <div className={wall ? 'eqc-grid eqc-wall' : 'eqc-grid'} data-testid="equipment-units">
      {!live.connected && live.state === 'ready' && <Alert className="eqc-banner" type="warning" title={texts.reconnecting} showIcon />}
      {units.some((u) => u.simulated) && <SimulatedBanner texts={texts} />}
      {units.map((u) => (
        <UnitTile key={`${u.farmId}-${u.unit}`} unit={u} title={severalFarms ? `${u.farmName} · ${u.unit}` : u.unit} texts={texts} services={services} menu={menu} canControl={canControl} live={live} />
      ))}
    </div>
  );
}

function UnitTile({ unit, title, texts, services, menu, canControl, live }: { unit: Unit; title: string; texts: Texts; services: ConsoleServices; menu: string; canControl: boolean; live: Live }) {
  const sensors = unit.devices.filter((d) => d.kind === 'sensor');
  const actuators = unit.devices.filter((d) => d.kind !== 'sensor' && d.kind !== 'camera');
  const online = unit.devices.filter((d) => d.online).length;
  return (
    <Card
      className="eqc-unit"
      title={title}
      extra={
        <Space size={4}>
          {unit.simulated && <SimulatedTag texts={texts} />}
          <Tag color={online === unit.devices.length ? 'green' : online ? 'gold' : 'default'}>{`${texts.online} ${online}/${unit.devices.length}`}</Tag>
        </Space>
      }
      data-unit={unit.unit}
    >
      {unit.alarms.map((a) => (
        <Alert key={a.id} type="error" showIcon title={`${texts.alarms}: ${a.message}`} className="eqc-alarm" />
      ))}
      {sensors.length > 0 && (
        <div className="eqc-readings">
          {sensors.flatMap((s) =>
            s.channels.map((k) => {
              const r = s.readings[k];
              return (
                <div key={`${s.id}-${k}`} className={s.online ? 'eqc-reading' : 'eqc-reading eqc-stale'} data-reading={`${s.code}:${k}`}>
                  <span className="eqc-reading-name">{texts.readings[k] ?? k}</span>
                  <span className="eqc-reading-value">{r ? `${r.value}${UNITS[k] ? ` ${UNITS[k]}` : ''}` : '—'}</span>
                  {k === 'soilMoisture' && r && <Tag>{texts.soilLevels[soilLevel(r.value)]}</Tag>}
                </div>
              );
            }),
          )}
        </div>
      )}
      <div className="eqc-devices">
        {actuators.map((d) => (
          <DeviceRow key={d.id} device={d} texts={texts} services={services} menu={menu} canControl={canControl} live={live} />
        ))}
      </div>
    </Card>
  );
}

function DeviceRow({ device: d, texts, services, menu, canControl, live }: { device: Device; texts: Texts; services: ConsoleServices; menu: string; canControl: boolean; live: Live }) {
  const [error, setError] = useState<string | null>(null);
  const pending = !!d.pendingCommand;
  const send = async (action: string, params: Record<string, unknown>) => {
    setError(null);
    try {
      const env = await services.data.call<{ id: number; status: CommandStatus; message: string; action: string; params: Record<string, unknown> }>('deviceCommand', {
        body: { deviceId: d.id, action, params, menu },
        quiet: true,
      });
      live.markPending(d.id, env.data);
    } catch (e) {
      setError(isHttpError(e) ? (e.serverMessage ?? e.message) : String(e));
    }
  };
  const disabled = !d.online || pending || !canControl;
  const outcome = d.outcome && d.outcome.status !== 'pending' ? d.outcome : null;
  return (
    <div className="eqc-device" data-device={d.code} data-online={d.online ? 'yes' : 'no'}>
      <div className="eqc-device-head">
        <Badge status={d.online ? 'success' : 'default'} text={d.name} />
        {d.simulated && <SimulatedTag texts={texts} />}
        <Typography.Text type="secondary" className="eqc-kind">
          {texts.kinds[d.kind] ?? d.kind}
        </Typography.Text>
      </div>
      {!d.online ? (
        <Typography.Text type="secondary" className="eqc-offline" data-testid="offline">
          {texts.offline} · {texts.offlineHint}
          {d.lastSeen ? ` · ${texts.lastSeen} ${formatDateTime(d.lastSeen, texts.lang)}` : ''}
        </Typography.Text>
      ) : (
        <Space wrap size="small" className="eqc-controls">
          {canControl ? <Controls device={d} texts={texts} disabled={disabled} send={send} /> : <Tag>{stateText(d, texts)}</Tag>}
          {pending && (
            <Tag color="processing" data-testid="pending">
              {texts.pending}
            </Tag>
          )}
          {!pending && outcome && (
            <Tag color={outcome.status === 'acknowledged' ? 'success' : outcome.status === 'superseded' ? 'default' : 'error'} data-testid="outcome" data-status={outcome.status}>
              {texts[outcome.status]}
              {outcome.message ? `：${outcome.message}` : ''}
            </Tag>
          )}
        </Space>
      )}
      {d.state.fault ? <Tag color="error">{String(d.state.fault)}</Tag> : null}
      {error && <Alert type="error" title={error} showIcon className="eqc-error" />}
    </div>
  );
}

function Controls({ device: d, texts, disabled, send }: { device: Device; texts: Texts; disabled: boolean; send: (action: string, params: Record<string, unknown>) => Promise<void> }) {
  const [minutes, setMinutes] = useState<number>(20);
  const [runFor, setRunFor] = useState<number | null>(null);
  const [ac, setAc] = useState({ mode: String(d.state.mode ?? 'auto'), setPoint: Number(d.state.setPoint ?? 24), fan: String(d.state.fan ?? 'auto') });
  const [recipe, setRecipe] = useState({ name: '番茄结果期', ec: 2.2, ph: 6.2, minutes: 30 });
  switch (d.kind) {
    case 'switch':
    case 'pump':
      // Run for a while: with a duration, the server switches the device off itself (empty: it stays on).
      return (
        <>
          <Switch
            checked={d.state.on === true}
            disabled={disabled}
            checkedChildren={texts.on}
            unCheckedChildren={texts.off}
            aria-label={d.name}
            onChange={(on) => void send('switch', on && runFor ? { on, runForS: Math.round(runFor * 60) } : { on })}
          />
          {d.state.on !== true && (
            <InputNumber size="small" min={1} max={1440} value={runFor} placeholder={texts.runFor} title={texts.runForHelp} onChange={(v) => setRunFor(v == null ? null : Number(v))} aria-label={`${d.name} ${texts.runFor}`} suffix={texts.minutes} style={{ width: 130 }} />
          )}
        </>
      );
    case 'valve':
      return d.state.open === true ? (
        <>
          <Tag color="blue">{texts.open}{d.state.until ? ` → ${formatTime(String(d.state.until), texts.lang)}` : ''}</Tag>
          <Button size="small" disabled={disabled} onClick={() => void send('valve', { open: false })}>
            {texts.close}
          </Button>
        </>
      ) : (
        <>
          <InputNumber size="small" min={1} max={720} value={minutes} onChange={(v) => setMinutes(Number(v ?? 20))} aria-label={texts.openFor} suffix={texts.minutes} />
          <Button size="small" type="primary" disabled={disabled} onClick={() => void send('valve', { open: true, minutes })}>
            {texts.open}
          </Button>
        </>
      );
    case 'airConditioner':
      return (
        <>
          <Switch checked={d.state.power === true} disabled={disabled} aria-label={`${d.name} ${texts.power}`} onChange={(power) => void send('airConditioner', { power, ...ac })} />
          <Select size="small" value={ac.mode} disabled={disabled} aria-label={texts.mode} onChange={(mode) => setAc({ ...ac, mode })} options={Object.entries(texts.modes).map(([value, label]) => ({ value, label }))} style={{ width: 96 }} />
          <InputNumber size="small" min={16} max={32} value={ac.setPoint} disabled={disabled} aria-label={`${texts.setPoint} (°C)`} onChange={(v) => setAc({ ...ac, setPoint: Number(v ?? 24) })} />
          <Select size="small" value={ac.fan} disabled={disabled} aria-label={texts.fan} onChange={(fan) => setAc({ ...ac, fan })} options={Object.entries(texts.fans).map(([value, label]) => ({ value, label }))} style={{ width: 80 }} />
          <Button size="small" type="primary" disabled={disabled} onClick={() => void send('airConditioner', { power: true, ...ac })}>
            {texts.apply}
          </Button>
          <Typography.Text type="secondary">{d.state.power ? `${texts.modes[String(d.state.mode)] ?? ''} ${String(d.state.setPoint ?? '')}°C` : texts.off}</Typography.Text>
        </>
      );
    case 'fertigation':
      return d.state.running === true ? (
        <>
          <Tag color="green">{texts.running}: {String((d.state.recipe as { name?: string } | null)?.name ?? '')}</Tag>
          <Button size="small" danger disabled={disabled} onClick={() => void send('fertigation', { run: false })}>
            {texts.stop}
          </Button>
        </>
      ) : (
        <>
          <Tag>{texts.idle}</Tag>
          <InputNumber size="small" min={0.2} max={5} step={0.1} value={recipe.ec} aria-label={texts.ec} prefix="EC" onChange={(v) => setRecipe({ ...recipe, ec: Number(v ?? 2) })} />
          <InputNumber size="small" min={4} max={8.5} step={0.1} value={recipe.ph} aria-label={texts.ph} prefix="pH" onChange={(v) => setRecipe({ ...recipe, ph: Number(v ?? 6.2) })} />
          <InputNumber size="small" min={1} max={240} value={recipe.minutes} aria-label={texts.minutes} suffix={texts.minutes} onChange={(v) => setRecipe({ ...recipe, minutes: Number(v ?? 30) })} />
          <Button size="small" type="primary" disabled={disabled} onClick={() => void send('fertigation', { run: true, recipe })}>
            {texts.run}
          </Button>
        </>
      );
    default:
      return null;
  }
}

/** What a device is doing, in words (shown instead of controls to those who may not control). */
function stateText(d: Device, texts: Texts): string {
  switch (d.kind) {
    case 'switch':
    case 'pump':
      return d.state.on === true ? texts.on : texts.off;
    case 'valve':
      return d.state.open === true ? texts.open : texts.close;
    case 'airConditioner':
      return d.state.power ? `${texts.modes[String(d.state.mode)] ?? ''} ${String(d.state.setPoint ?? '')}°C` : texts.off;
    case 'fertigation':
      return d.state.running === true ? `${texts.running}: ${String((d.state.recipe as { name?: string } | null)?.name ?? '')}` : texts.idle;
    default:
      return '';
  }
}
