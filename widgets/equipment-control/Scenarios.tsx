/**
 * Scenarios: the list (trigger, window, action, enabled, last run, runs) and a form to
 * create one: thresholds on places' measures (one or several conditions, all or any of
 * them) or a time of day, the hours it may act in, a device action (a switch, pump or fan
 * optionally for a run time, after which the server switches it off), and whether it
 * raises an alarm. Enabling, disabling and deleting need
 * the screen's element codes (the server checks them).
 */
import { Alert, Button, Checkbox, Form, Input, InputNumber, Modal, Select, Space, Switch, Table, Tag } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useCallback, useEffect, useState } from 'react';
import type { ConsoleServices } from '../../runtime/services/contract.ts';
import { ACTION_OF_KIND } from '../../runtime/widgets/api.ts';
import { formatDateTime, isHttpError } from '../../runtime/widgets/api.ts';
import type { Unit } from './live.ts';
import type { Texts } from './texts.ts';

interface Scenario {
  id: number;
  name: string;
  enabled: boolean;
  trigger: {
    type: 'threshold' | 'schedule'; place?: string; kind?: string; op?: string; value?: number; deadband?: number; minIntervalS?: number; at?: string;
    conditions?: Condition[]; match?: 'all' | 'any';
  };
  windowFrom: string;
  windowTo: string;
  action: { deviceId: number; action: string; params: Record<string, unknown> } | null;
  alarm: boolean;
  lastFiredAt: string | null;
  runs: number;
  deviceName: string | null;
}

interface Condition {
  place?: string;
  kind?: string;
  op?: string;
  value?: number;
  deadband?: number;
}


export function ScenariosView({ services, texts, units, can }: { services: ConsoleServices; texts: Texts; units: Unit[]; can: (action: 'add' | 'edit' | 'delete') => boolean }) {
  const [rows, setRows] = useState<Scenario[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const load = useCallback(() => {
    services.data
      .call<{ rows: Scenario[] }>('deviceScenarios', { params: { pageSize: 200 }, quiet: true })
      .then((env) => setRows(Array.isArray(env.data?.rows) ? env.data.rows : []))
      .catch((e: unknown) => setError(isHttpError(e) ? (e.serverMessage ?? e.message) : String(e)));
  }, [services]);
  useEffect(() => {
    load();
    // Runs and last runs change as scenarios fire: read again now and then while open.
    const t = setInterval(load, 5000);
    return () => clearInterval(t);
  }, [load]);
  const act = async (run: () => Promise<unknown>) => {
    try {
      await run();
      setError(null);
      load();
    } catch (e) {
      setError(isHttpError(e) ? (e.serverMessage ?? e.message) : String(e));
    }
  };
  const condition = (c: Condition) =>
    `${c.place} ${texts.readings[c.kind ?? ''] ?? c.kind} ${c.op === 'above' ? texts.above : texts.below} ${c.value}` + (c.deadband ? ` · ${texts.deadband} ${c.deadband}` : '');
  const describe = (s: Scenario) =>
    s.trigger.type === 'threshold'
      ? (s.trigger.conditions?.length ? s.trigger.conditions.map(condition).join(` ${s.trigger.match === 'any' ? texts.or : texts.and} `) : condition(s.trigger)) +
        (s.trigger.minIntervalS ? ` · ${texts.minInterval} ${Math.round(s.trigger.minIntervalS / 60)} ${texts.minutes}` : '')
      : `${texts.schedule} ${s.trigger.at}`;
  return (
    <div className="eqc-scenarios">
      <Space className="eqc-chart-bar">
        {can('add') && (
          <Button type="primary" onClick={() => setAdding(true)}>
            {texts.addScenario}
          </Button>
        )}
      </Space>
      {error && <Alert type="error" title={error} showIcon closable onClose={() => setError(null)} />}
      <Table<Scenario>
        rowKey="id"
        size="small"
        dataSource={rows}
        pagination={false}
        columns={[
          { title: texts.name, dataIndex: 'name' },
          { title: texts.trigger, render: (_, s) => describe(s) },
          { title: texts.window, render: (_, s) => `${s.windowFrom}–${s.windowTo}` },
          { title: texts.action, render: (_, s) => (s.action ? `${s.deviceName ?? s.action.deviceId} · ${commandText(s.action.params, texts)}` : '—') + (s.alarm ? ` · ${texts.alarms}` : '') },
          {
            title: texts.enabled,
            render: (_, s) => <Switch size="small" checked={s.enabled} disabled={!can('edit')} aria-label={`${texts.enabled} ${s.name}`} onChange={(enabled) => void act(() => services.data.call('deviceScenarioEnabled', { body: { id: s.id, enabled }, quiet: true }))} />,
          },
          { title: texts.lastRun, render: (_, s) => (s.lastFiredAt ? formatDateTime(s.lastFiredAt, texts.lang) : texts.never) },
          { title: texts.runs, dataIndex: 'runs', render: (n: number, s) => <Tag data-testid={`runs-${s.name}`}>{n}</Tag> },
          {
            title: '',
            render: (_, s) =>
              can('delete') ? (
                <Button size="small" danger onClick={() => void act(() => services.data.call('deviceScenarioDelete', { params: { id: s.id }, quiet: true }))}>
                  {texts.delete}
                </Button>
              ) : null,
          },
        ]}
      />
      {adding && <ScenarioForm services={services} texts={texts} units={units} onDone={() => { setAdding(false); load(); }} />}
    </div>
  );
}

interface FormValues {
  name: string;
  type: 'threshold' | 'schedule';
  conditions?: Condition[];
  match?: 'all' | 'any';
  minIntervalMin?: number;
  at?: string;
  windowFrom?: string;
  windowTo?: string;
  deviceId?: number;
  on?: boolean;
  minutes?: number;
  /** Run time of a switch, pump or fan turned on, minutes (the server switches it off). */
  runForMin?: number | null;
  alarm?: boolean;
}

function ScenarioForm({ services, texts, units, onDone }: { services: ConsoleServices; texts: Texts; units: Unit[]; onDone: () => void }) {
  const [form] = Form.useForm<FormValues>();
  const [error, setError] = useState<string | null>(null);
  const type = Form.useWatch('type', form) ?? 'threshold';
  const conditions = Form.useWatch('conditions', form) ?? [];
  const on = Form.useWatch('on', form) ?? true;
  const deviceId = Form.useWatch('deviceId', form);
  const devices = units.flatMap((u) => u.devices).filter((d) => ACTION_OF_KIND[d.kind] === 'switch' || ACTION_OF_KIND[d.kind] === 'valve');
  const device = devices.find((d) => d.id === deviceId);
  const kindsAt = (place?: string) => [...new Set(units.filter((u) => !place || u.unit === place).flatMap((u) => u.devices.flatMap((d) => d.channels)))];
  const switchParams = (v: FormValues) => ({ on: v.on ?? true, ...(v.on !== false && v.runForMin ? { runForS: Math.round(v.runForMin * 60) } : {}) });
  const threshold = (v: FormValues) => {
    const list = (v.conditions ?? []).map((c) => ({ place: c.place, kind: c.kind, op: c.op ?? 'above', value: c.value, deadband: c.deadband ?? 0 }));
    const minIntervalS = Math.round((v.minIntervalMin ?? 1) * 60);
    // One condition keeps the first shape; several go in `conditions` with all / any.
    return list.length === 1 ? { type: 'threshold', ...list[0], minIntervalS } : { type: 'threshold', match: v.match ?? 'all', conditions: list, minIntervalS };
  };
  const submit = async (v: FormValues) => {
    const action = device ? { deviceId: device.id, action: ACTION_OF_KIND[device.kind], params: ACTION_OF_KIND[device.kind] === 'valve' ? { open: true, minutes: v.minutes ?? 10 } : switchParams(v) } : undefined;
    const body = {
      name: v.name,
      trigger: v.type === 'threshold' ? threshold(v) : { type: 'schedule', at: v.at },
      ...(v.windowFrom ? { windowFrom: v.windowFrom } : {}),
      ...(v.windowTo ? { windowTo: v.windowTo } : {}),
      ...(action ? { action } : {}),
      alarm: v.alarm === true,
    };
    try {
      await services.data.call('deviceScenarioCreate', { body, quiet: true });
      onDone();
    } catch (e) {
      setError(isHttpError(e) ? (e.serverMessage ?? e.message) : String(e));
    }
  };
  return (
    <Modal open title={texts.addScenario} onCancel={onDone} onOk={() => form.submit()} okText={texts.save} cancelText={texts.cancel}>
      {error && <Alert type="error" title={error} showIcon />}
      <Form form={form} layout="vertical" initialValues={{ type: 'threshold', conditions: [{ op: 'above', deadband: 0 }], match: 'all', on: true, minutes: 10, windowFrom: '00:00', windowTo: '23:59', minIntervalMin: 1 }} onFinish={(v) => void submit(v)}>
        <Form.Item name="name" label={texts.name} rules={[{ required: true }]}>
          <Input maxLength={60} />
        </Form.Item>
        <Form.Item name="type" label={texts.trigger}>
          <Select options={[{ value: 'threshold', label: texts.threshold }, { value: 'schedule', label: texts.schedule }]} />
        </Form.Item>
        {type === 'threshold' ? (
          <>
            <Form.List name="conditions">
              {(fields, { add, remove }) => (
                <>
                  {fields.map((f, i) => (
                    <Space wrap key={f.key} align="end" aria-label={`${texts.conditions} ${i + 1}`}>
                      <Form.Item name={[f.name, 'place']} label={texts.place} rules={[{ required: true }]}>
                        <Select style={{ width: 150 }} options={units.filter((u) => u.devices.some((d) => d.channels.length)).map((u) => ({ value: u.unit, label: u.unit }))} />
                      </Form.Item>
                      <Form.Item name={[f.name, 'kind']} label={texts.kind} rules={[{ required: true }]}>
                        <Select style={{ width: 130 }} options={kindsAt(conditions[i]?.place).map((k) => ({ value: k, label: texts.readings[k] ?? k }))} />
                      </Form.Item>
                      <Form.Item name={[f.name, 'op']} label=" ">
                        <Select style={{ width: 110 }} options={[{ value: 'above', label: texts.above }, { value: 'below', label: texts.below }]} />
                      </Form.Item>
                      <Form.Item name={[f.name, 'value']} label={texts.threshold} rules={[{ required: true }]}>
                        <InputNumber />
                      </Form.Item>
                      <Form.Item name={[f.name, 'deadband']} label={texts.deadband} tooltip={texts.deadbandHelp}>
                        <InputNumber min={0} max={100000} style={{ width: 90 }} />
                      </Form.Item>
                      {fields.length > 1 && (
                        <Form.Item label=" ">
                          <Button type="text" icon={<MinusCircleOutlined />} aria-label={`${texts.removeCondition} ${i + 1}`} onClick={() => remove(f.name)} />
                        </Form.Item>
                      )}
                    </Space>
                  ))}
                  <Space wrap align="end">
                    {fields.length < 8 && (
                      <Form.Item label=" ">
                        <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ op: 'above', deadband: 0 })}>
                          {texts.addCondition}
                        </Button>
                      </Form.Item>
                    )}
                    {fields.length > 1 && (
                      <Form.Item name="match" label={texts.match}>
                        <Select style={{ width: 170 }} options={[{ value: 'all', label: texts.matchAll }, { value: 'any', label: texts.matchAny }]} />
                      </Form.Item>
                    )}
                    <Form.Item name="minIntervalMin" label={texts.minInterval} tooltip={texts.minIntervalHelp}>
                      <InputNumber min={0} max={1440} suffix={texts.minutes} style={{ width: 120 }} />
                    </Form.Item>
                  </Space>
                </>
              )}
            </Form.List>
          </>
        ) : (
          <Form.Item name="at" label={texts.at} rules={[{ required: true, pattern: /^([01][0-9]|2[0-3]):[0-5][0-9]$/ }]}>
            <Input placeholder="07:30" maxLength={5} />
          </Form.Item>
        )}
        <Space wrap>
          <Form.Item name="windowFrom" label={texts.window}>
            <Input maxLength={5} style={{ width: 80 }} />
          </Form.Item>
          <Form.Item name="windowTo" label=" ">
            <Input maxLength={5} style={{ width: 80 }} />
          </Form.Item>
        </Space>
        <Form.Item name="deviceId" label={`${texts.action} · ${texts.device}`}>
          <Select allowClear options={devices.map((d) => ({ value: d.id, label: `${d.name}（${texts.kinds[d.kind] ?? d.kind}）` }))} />
        </Form.Item>
        {device && ACTION_OF_KIND[device.kind] === 'switch' && (
          <Space wrap>
            <Form.Item name="on" label={texts.state}>
              <Select style={{ width: 110 }} options={[{ value: true, label: texts.on }, { value: false, label: texts.off }]} />
            </Form.Item>
            {on !== false && (
              <Form.Item name="runForMin" label={texts.runFor} tooltip={texts.runForHelp}>
                <InputNumber min={1} max={1440} suffix={texts.minutes} style={{ width: 130 }} />
              </Form.Item>
            )}
          </Space>
        )}
        {device && ACTION_OF_KIND[device.kind] === 'valve' && (
          <Form.Item name="minutes" label={texts.openFor}>
            <InputNumber min={1} max={720} suffix={texts.minutes} />
          </Form.Item>
        )}
        <Form.Item name="alarm" valuePropName="checked">
          <Checkbox>{texts.alarm}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * A command's parameters in words (issue 29, "Words everywhere"): «开启 · 20 分钟», «电源 开 ·
 * 模式 制热 · 设定温度 20», never `{"open":true,"minutes":20}`.
 */
export function commandText(params: Record<string, unknown> | null | undefined, texts: Texts): string {
  const onOff = (v: unknown) => (v ? texts.on : texts.off);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params ?? {})) {
    if (key === 'open') parts.push(value ? texts.open : texts.close);
    else if (key === 'on') parts.push(onOff(value));
    else if (key === 'minutes') parts.push(`${value} ${texts.minutes}`);
    else if (key === 'runForS') parts.push(`${texts.runsFor} ${Math.round(Number(value) / 60)} ${texts.minutes}`);
    else if (key === 'power') parts.push(`${texts.power} ${onOff(value)}`);
    else if (key === 'mode') parts.push(`${texts.mode} ${texts.modes[String(value)] ?? String(value)}`);
    else if (key === 'setPoint') parts.push(`${texts.setPoint} ${value}`);
    else parts.push(`${key} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  }
  return parts.join(' · ') || '—';
}
