/**
 * The units and their devices, kept live: read once (deviceUnits), then changed by the
 * server's events (deviceEvents: state, reading, command, alarm). After a dropped stream
 * the data provider reconnects and the units are read again (what was missed).
 */
import { useEffect, useRef, useState } from 'react';
import type { ConsoleServices } from '../../runtime/services/contract.ts';
import type { CommandRef, CommandStatus, DeviceStreamEvent, DeviceUnitsReply, DeviceView, UnitView } from '../../runtime/widgets/api.ts';

export type { CommandRef };

/** A device as the server shows it, and the outcome of this console's last command to it (shown beside the controls). */
export type Device = DeviceView & { outcome?: { commandId: number; status: CommandStatus; message: string } };

export type Unit = Omit<UnitView, 'devices'> & { devices: Device[] };

export interface Live {
  state: 'loading' | 'failed' | 'ready';
  units: Unit[];
  connected: boolean;
  /** Listens to the readings as they arrive (live charts); returns the unsubscribe. */
  onReading(fn: (reading: Extract<DeviceStreamEvent, { type: 'reading' }>) => void): () => void;
  /** Marks a command sent by this console as pending on its device. */
  markPending(deviceId: number, command: CommandRef & { status: CommandStatus; message: string }): void;
}

/** `enabled` false: nothing is read or streamed (views that show no device, e.g. report trends). */
export function useLiveUnits(services: ConsoleServices, kinds?: string[], enabled = true): Live {
  const [units, setUnits] = useState<Unit[]>([]);
  const [state, setState] = useState<Live['state']>('loading');
  const [connected, setConnected] = useState(false);
  const kindsKey = (kinds ?? []).join(',');
  const reload = useRef<() => void>(() => undefined);
  const [readingListeners] = useState(() => new Set<(reading: Extract<DeviceStreamEvent, { type: 'reading' }>) => void>());

  useEffect(() => {
    if (!enabled) return;
    let stop = false;
    const load = () =>
      services.data
        .call<DeviceUnitsReply>('deviceUnits', { params: kindsKey ? { kinds: kindsKey } : {}, quiet: true })
        .then((env) => {
          if (stop) return;
          setUnits(Array.isArray(env.data?.units) ? env.data.units : []);
          setState('ready');
        })
        .catch(() => !stop && setState((s) => (s === 'ready' ? s : 'failed')));
    reload.current = load;
    void load();
    const change = (fn: (d: Device) => Device, deviceId: number) =>
      setUnits((list) => list.map((u) => (u.devices.some((d) => d.id === deviceId) ? { ...u, devices: u.devices.map((d) => (d.id === deviceId ? fn(d) : d)) } : u)));
    const sub = services.data.subscribe?.('deviceEvents', {
      onOpen() {
        setConnected(true);
        void load();
      },
      onDrop() {
        setConnected(false);
      },
      onEvent(type, data) {
        const e = { ...(data as object), type } as DeviceStreamEvent;
        switch (e.type) {
          case 'state':
            change((d) => ({ ...d, online: e.online, state: e.state, lastSeen: e.lastSeen }), e.deviceId);
            break;
          case 'reading':
            for (const fn of readingListeners) fn(e);
            change((d) => ({ ...d, online: true, lastSeen: e.ts, readings: { ...d.readings, ...Object.fromEntries(Object.entries(e.values).map(([k, v]) => [k, { value: v, ts: e.ts }])) } }), e.deviceId);
            break;
          case 'command':
            change(
              (d) => ({
                ...d,
                pendingCommand: e.status === 'pending' ? (d.pendingCommand?.id === e.commandId ? d.pendingCommand : { id: e.commandId, action: '', params: {} }) : d.pendingCommand?.id === e.commandId ? null : d.pendingCommand,
                outcome: { commandId: e.commandId, status: e.status, message: e.message },
              }),
              e.deviceId,
            );
            break;
          case 'alarm':
            void load();
            break;
        }
      },
    });
    return () => {
      stop = true;
      sub?.close();
    };
  }, [services, kindsKey, enabled, readingListeners]);

  return {
    state,
    units,
    connected,
    onReading(fn) {
      readingListeners.add(fn);
      return () => readingListeners.delete(fn);
    },
    markPending(deviceId, c) {
      setUnits((list) =>
        list.map((u) => ({
          ...u,
          devices: u.devices.map((d) =>
            d.id === deviceId ? withReply(d, c) : d,
          ),
        })),
      );
    },
  };
}

/** The command's reply, unless its event (ack, time-out) already arrived: the later news wins. */
function withReply(d: Device, c: CommandRef & { status: CommandStatus; message: string }): Device {
  const final = d.outcome?.commandId === c.id && d.outcome.status !== 'pending';
  if (final) return { ...d, pendingCommand: d.pendingCommand?.id === c.id ? null : d.pendingCommand };
  return { ...d, pendingCommand: c.status === 'pending' ? { id: c.id, action: c.action, params: c.params } : null, outcome: { commandId: c.id, status: c.status, message: c.message } };
}
