/**
 * System build (docs/devices.md, "System build"): the farm's gateways and devices with
 * channels, placement (unit, place, coordinates), online and last seen; added, changed and
 * deleted with the screen's element codes (`{menu}:add`, `:edit`, `:delete`; the server
 * checks them and the farm). The MQTT identity answered on creation is shown once in a
 * dialog (the password is never shown again). Online state follows the live units.
 */
import { Alert, Button, Checkbox, Descriptions, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import type { ConsoleServices } from '../../runtime/services/contract.ts';
import { formatDateTime, isHttpError } from '../../runtime/widgets/api.ts';
import type { Unit } from './live.ts';
import type { Texts } from './texts.ts';
import { SimulatedTag } from './Simulated.tsx';

interface Gateway {
  id: number;
  code: string;
  name: string;
  place: string;
  firmware: string;
  online: boolean;
  lastSeen: string | null;
  devices: number;
  /** A demo gateway the simulator plays (not real equipment). */
  simulated: boolean;
}
interface BuildDevice {
  id: number;
  code: string;
  name: string;
  kind: string;
  model: string;
  gatewayId: number | null;
  gateway: string | null;
  placeType: string;
  place: string;
  unit: string;
  channels: string[];
  firmware: string;
  lng: number | null;
  lat: number | null;
  online: boolean;
  lastSeen: string | null;
  simulated: boolean;
}
interface Build {
  gateways: Gateway[];
  devices: BuildDevice[];
  kinds: string[];
  channels: string[];
}
interface Identity {
  username: string | null;
  password?: string;
  topics?: Record<string, string>;
  topicPrefix?: string;
}

type Editing = { type: 'gateway'; row: Gateway | null } | { type: 'device'; row: BuildDevice | null } | null;

export function BuildView({ services, texts, units, kinds, menu, can }: { services: ConsoleServices; texts: Texts; units: Unit[]; kinds?: string[]; menu: string; can: (a: 'add' | 'edit' | 'delete') => boolean }) {
  const [build, setBuild] = useState<Build | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [identity, setIdentity] = useState<Identity | null>(null);
  const load = useCallback(() => {
    services.data
      .call<Build>('deviceBuild', { quiet: true })
      .then((env) => setBuild(env.data && Array.isArray(env.data.devices) && Array.isArray(env.data.gateways) ? env.data : { gateways: [], devices: [], kinds: [], channels: [] }))
      .catch((e: unknown) => setError(isHttpError(e) ? (e.serverMessage ?? e.message) : String(e)));
  }, [services]);
  useEffect(load, [load]);
  const act = async (run: () => Promise<unknown>) => {
    try {
      await run();
      setError(null);
      load();
    } catch (e) {
      setError(isHttpError(e) ? (e.serverMessage ?? e.message) : String(e));
    }
  };
  // Online and last seen are live (pushed to the units); the build list is read on change.
  const liveOf = new Map(units.flatMap((u) => u.devices).map((d) => [d.id, d]));
  const devices = (build?.devices ?? []).filter((d) => !kinds?.length || kinds.includes(d.kind)).map((d) => ({ ...d, online: liveOf.get(d.id)?.online ?? d.online, lastSeen: liveOf.get(d.id)?.lastSeen ?? d.lastSeen }));
  const time = (v: string | null) => (v ? formatDateTime(v, texts.lang) : '—');
  return (
    <div className="eqc-build">
      {error && <Alert type="error" showIcon title={error} closable onClose={() => setError(null)} data-testid="build-error" />}
      <Typography.Title level={5}>{texts.gateways}</Typography.Title>
      {can('add') && (
        <Button type="primary" onClick={() => setEditing({ type: 'gateway', row: null })} style={{ marginBottom: 8 }}>
          {texts.addGateway}
        </Button>
      )}
      <Table<Gateway>
        rowKey="id"
        size="small"
        dataSource={build?.gateways ?? []}
        loading={!build && !error}
        pagination={false}
        columns={[
          { title: texts.name, render: (_, g) => <SimulatedName name={g.name} simulated={g.simulated} texts={texts} /> },
          { title: texts.code, dataIndex: 'code' },
          { title: texts.place, dataIndex: 'place' },
          { title: texts.deviceCount, dataIndex: 'devices' },
          { title: texts.online, render: (_, g) => <Tag color={g.online ? 'green' : 'default'}>{g.online ? texts.online : texts.offline}</Tag> },
          { title: texts.firmware, dataIndex: 'firmware' },
          { title: texts.lastSeen, render: (_, g) => time(g.lastSeen) },
          {
            title: '',
            render: (_, g) => (
              <Space size="small">
                {can('edit') && (
                  <Button size="small" onClick={() => setEditing({ type: 'gateway', row: g })}>
                    {texts.edit}
                  </Button>
                )}
                {can('edit') && (
                  <Popconfirm title={`${texts.renewSecret}?`} onConfirm={() => void act(async () => setIdentity((await services.data.call<{ mqtt: Identity }>('deviceGatewaySecret', { body: { menu, id: g.id }, quiet: true })).data.mqtt))}>
                    <Button size="small">{texts.renewSecret}</Button>
                  </Popconfirm>
                )}
                {can('delete') && (
                  <Popconfirm title={texts.confirmDelete} onConfirm={() => void act(() => services.data.call('deviceGatewayDelete', { params: { menu, id: g.id }, quiet: true }))}>
                    <Button size="small" danger>
                      {texts.delete}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {texts.devicesTitle}
      </Typography.Title>
      {can('add') && (
        <Button type="primary" onClick={() => setEditing({ type: 'device', row: null })} style={{ marginBottom: 8 }}>
          {texts.addDevice}
        </Button>
      )}
      <Table<BuildDevice>
        rowKey="id"
        size="small"
        dataSource={devices}
        loading={!build && !error}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        onRow={(d) => ({ 'data-build-device': d.code }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: texts.device, render: (_, d) => <SimulatedName name={d.name} simulated={d.simulated} texts={texts} />, sorter: (a, b) => a.name.localeCompare(b.name) },
          { title: texts.code, dataIndex: 'code' },
          { title: texts.kindLabel, render: (_, d) => <Tag color={d.kind === 'sensor' ? 'cyan' : 'blue'}>{texts.kinds[d.kind] ?? d.kind}</Tag> },
          { title: texts.model, dataIndex: 'model' },
          { title: texts.gateway, render: (_, d) => d.gateway ?? texts.noGateway },
          { title: texts.unit, dataIndex: 'unit', filters: [...new Set(devices.map((r) => r.unit))].map((u) => ({ text: u, value: u })), onFilter: (v, r) => r.unit === v },
          { title: texts.place, render: (_, d) => `${texts.placeTypes[d.placeType] ?? d.placeType} · ${d.place}${d.lng != null && d.lat != null ? ` (${d.lng}, ${d.lat})` : ''}` },
          { title: texts.channels, render: (_, d) => d.channels.map((c) => texts.readings[c] ?? c).join('、') || '—' },
          { title: texts.online, render: (_, d) => <Tag color={d.online ? 'green' : 'default'}>{d.online ? texts.online : texts.offline}</Tag> },
          { title: texts.lastSeen, render: (_, d) => time(d.lastSeen) },
          {
            title: '',
            render: (_, d) => (
              <Space size="small">
                {can('edit') && (
                  <Button size="small" onClick={() => setEditing({ type: 'device', row: d })}>
                    {texts.edit}
                  </Button>
                )}
                {can('delete') && (
                  <Popconfirm title={texts.confirmDelete} onConfirm={() => void act(() => services.data.call('deviceDelete', { params: { menu, id: d.id }, quiet: true }))}>
                    <Button size="small" danger>
                      {texts.delete}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      {editing?.type === 'gateway' && (
        <GatewayForm services={services} texts={texts} menu={menu} row={editing.row} onDone={(id) => { setEditing(null); if (id) setIdentity(id); load(); }} />
      )}
      {editing?.type === 'device' && build && (
        <DeviceForm services={services} texts={texts} menu={menu} row={editing.row} build={build} onDone={(id) => { setEditing(null); if (id) setIdentity(id); load(); }} />
      )}
      {identity && (
        <Modal open title={texts.identityTitle} onCancel={() => setIdentity(null)} onOk={() => setIdentity(null)} cancelButtonProps={{ style: { display: 'none' } }} data-testid="mqtt-identity">
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={texts.username}>
              <Typography.Text copyable>{identity.username ?? '—'}</Typography.Text>
            </Descriptions.Item>
            {identity.password ? (
              <Descriptions.Item label={texts.password}>
                <Typography.Text copyable data-testid="mqtt-password">{identity.password}</Typography.Text>
              </Descriptions.Item>
            ) : (
              <Descriptions.Item label={texts.password}>{texts.identityNoPassword}</Descriptions.Item>
            )}
            <Descriptions.Item label={texts.topics}>
              {identity.topics ? Object.entries(identity.topics).map(([k, v]) => <div key={k}><Typography.Text code copyable>{v}</Typography.Text></div>) : <Typography.Text code>{`${identity.topicPrefix ?? ''}{deviceCode}/reading`}</Typography.Text>}
            </Descriptions.Item>
          </Descriptions>
        </Modal>
      )}
    </div>
  );
}

/** Server field errors onto the form's fields; the sentence above. */
function useSubmit(onError: (message: string) => void) {
  return async <T,>(form: ReturnType<typeof Form.useForm<T>>[0], run: () => Promise<void>) => {
    try {
      await run();
    } catch (e) {
      if (isHttpError(e)) {
        form.setFields(e.fieldErrors.map((f) => ({ name: f.field as never, errors: [f.message] })) as never);
        onError(e.serverMessage ?? e.message);
      } else onError(String(e));
    }
  };
}

function GatewayForm({ services, texts, menu, row, onDone }: { services: ConsoleServices; texts: Texts; menu: string; row: Gateway | null; onDone: (identity?: Identity) => void }) {
  const [form] = Form.useForm<{ code: string; name: string; place?: string; firmware?: string }>();
  const [error, setError] = useState<string | null>(null);
  const submit = useSubmit(setError);
  return (
    <Modal open title={row ? `${texts.edit} · ${row.name}` : texts.addGateway} onCancel={() => onDone()} onOk={() => form.submit()} okText={texts.save} cancelText={texts.cancel}>
      {error && <Alert type="error" title={error} showIcon />}
      <Form
        form={form}
        layout="vertical"
        initialValues={row ?? {}}
        onFinish={(v) =>
          void submit(form, async () => {
            if (row) {
              await services.data.call('deviceGatewayUpdate', { body: { menu, id: row.id, name: v.name, place: v.place ?? '', firmware: v.firmware ?? '' }, quiet: true });
              onDone();
            } else {
              const env = await services.data.call<{ mqtt: Identity }>('deviceGatewayCreate', { body: { menu, code: v.code, name: v.name, place: v.place ?? '', firmware: v.firmware ?? '' }, quiet: true });
              onDone(env.data.mqtt);
            }
          })
        }
      >
        <Form.Item name="code" label={texts.code} rules={[{ required: true, pattern: /^[A-Za-z0-9_-]{1,48}$/ }]}>
          <Input disabled={!!row} maxLength={48} />
        </Form.Item>
        <Form.Item name="name" label={texts.name} rules={[{ required: true }]}>
          <Input maxLength={60} />
        </Form.Item>
        <Form.Item name="place" label={texts.place}>
          <Input maxLength={60} />
        </Form.Item>
        <Form.Item name="firmware" label={texts.firmware}>
          <Input maxLength={40} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface DeviceValues {
  code: string;
  name: string;
  kind: string;
  direct?: boolean;
  gatewayId?: number | null;
  model?: string;
  placeType?: string;
  place?: string;
  unit?: string;
  channels?: string[];
  firmware?: string;
  lng?: number | null;
  lat?: number | null;
}

function DeviceForm({ services, texts, menu, row, build, onDone }: { services: ConsoleServices; texts: Texts; menu: string; row: BuildDevice | null; build: Build; onDone: (identity?: Identity) => void }) {
  const [form] = Form.useForm<DeviceValues>();
  const [error, setError] = useState<string | null>(null);
  const submit = useSubmit(setError);
  const kind = Form.useWatch('kind', form) ?? row?.kind;
  const direct = Form.useWatch('direct', form);
  return (
    <Modal open title={row ? `${texts.edit} · ${row.name}` : texts.addDevice} onCancel={() => onDone()} onOk={() => form.submit()} okText={texts.save} cancelText={texts.cancel} width={640}>
      {error && <Alert type="error" title={error} showIcon />}
      <Form
        form={form}
        layout="vertical"
        initialValues={row ?? { placeType: 'greenhouse', channels: [] }}
        onFinish={(v) =>
          void submit(form, async () => {
            const common = { name: v.name, model: v.model ?? '', placeType: v.placeType, place: v.place ?? '', unit: v.unit ?? '', channels: kind === 'sensor' ? (v.channels ?? []) : [], firmware: v.firmware ?? '', lng: v.lng ?? null, lat: v.lat ?? null };
            if (row) {
              await services.data.call('deviceUpdate', { body: { menu, id: row.id, gatewayId: v.gatewayId ?? null, ...common }, quiet: true });
              onDone();
            } else {
              const env = await services.data.call<{ mqtt: Identity }>('deviceCreate', {
                body: { menu, code: v.code, kind: v.kind, ...(v.direct ? { direct: true } : { gatewayId: v.gatewayId ?? null }), ...common },
                quiet: true,
              });
              onDone(env.data.mqtt);
            }
          })
        }
      >
        <Space wrap>
          <Form.Item name="code" label={texts.code} rules={[{ required: true, pattern: /^[A-Za-z0-9_-]{1,48}$/ }]}>
            <Input disabled={!!row} maxLength={48} style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="name" label={texts.name} rules={[{ required: true }]}>
            <Input maxLength={60} style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="kind" label={texts.kindLabel} rules={[{ required: true }]}>
            <Select disabled={!!row} style={{ width: 150 }} options={build.kinds.map((k) => ({ value: k, label: texts.kinds[k] ?? k }))} />
          </Form.Item>
          <Form.Item name="model" label={texts.model}>
            <Input maxLength={60} style={{ width: 160 }} />
          </Form.Item>
        </Space>
        {!row && (
          <Form.Item name="direct" valuePropName="checked">
            <Checkbox>{texts.direct}</Checkbox>
          </Form.Item>
        )}
        {!direct && (
          <Form.Item name="gatewayId" label={texts.gateway}>
            <Select allowClear placeholder={texts.noGateway} options={build.gateways.map((g) => ({ value: g.id, label: `${g.name}（${g.code}）` }))} />
          </Form.Item>
        )}
        <Space wrap>
          <Form.Item name="placeType" label={texts.placeType}>
            <Select style={{ width: 120 }} options={['plot', 'greenhouse', 'facility'].map((k) => ({ value: k, label: texts.placeTypes[k] }))} />
          </Form.Item>
          <Form.Item name="place" label={texts.place}>
            <Input maxLength={60} style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="unit" label={texts.unit}>
            <Input maxLength={60} style={{ width: 180 }} />
          </Form.Item>
        </Space>
        {kind === 'sensor' && (
          <Form.Item name="channels" label={texts.channels}>
            <Select mode="multiple" options={build.channels.map((c) => ({ value: c, label: texts.readings[c] ?? c }))} />
          </Form.Item>
        )}
        <Space wrap>
          <Form.Item name="lng" label={texts.lng}>
            <InputNumber min={-180} max={180} step={0.0001} style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="lat" label={texts.lat}>
            <InputNumber min={-90} max={90} step={0.0001} style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="firmware" label={texts.firmware}>
            <Input maxLength={40} style={{ width: 140 }} />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}

/** A name with the «模拟» tag when the simulator plays it. */
function SimulatedName({ name, simulated, texts }: { name: string; simulated: boolean; texts: Texts }) {
  return (
    <Space size={6}>
      {name}
      {simulated && <SimulatedTag texts={texts} />}
    </Space>
  );
}
