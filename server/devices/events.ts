/**
 * What the open consoles are told, per farm: a device's new state or online flag, new
 * readings, a command's outcome, an alarm. In process (one API instance's consoles); every
 * instance hears every device message it stores and every command it sends, so its own
 * consoles are told (docs/devices.md, "Several instances").
 */
import { EventEmitter } from 'node:events';

export type DeviceEvent =
  | { type: 'state'; farmId: number; deviceId: number; online: boolean; state: Record<string, unknown>; lastSeen: string | null }
  | { type: 'reading'; farmId: number; deviceId: number; place: string; ts: string; values: Record<string, number> }
  | { type: 'command'; farmId: number; deviceId: number; commandId: number; status: string; message: string }
  | {
      type: 'alarm';
      farmId: number;
      alarmId: number;
      /** False once cleared. */
      raised: boolean;
      message: string;
      state?: 'open' | 'acknowledged' | 'cleared';
      severity?: string;
      condition?: string;
      escalationLevel?: number;
    }
  | { type: 'gateway'; farmId: number; gatewayId: number; online: boolean };

export class DeviceEvents {
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  publish(event: DeviceEvent): void {
    this.emitter.emit(String(event.farmId), event);
    this.emitter.emit('*', event);
  }
  /** Listens to one farm's events ('*': all); returns the unsubscribe. */
  subscribe(farmId: number | '*', fn: (event: DeviceEvent) => void): () => void {
    const key = String(farmId);
    this.emitter.on(key, fn);
    return () => this.emitter.off(key, fn);
  }
}
