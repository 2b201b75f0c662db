/**
 * What the open consoles are told, per farm: a device's new state or online flag, new
 * readings, a command's outcome, an alarm. In process (one API instance's consoles); every
 * instance hears every device message it stores and every command it sends, so its own
 * consoles are told (docs/devices.md, "Several instances").
 */
import { EventEmitter } from 'node:events';
import type { DeviceStreamEvent } from '../../runtime/protocol/devices.ts';

/** What is published is what the stream sends (runtime/protocol/devices.ts). */
export type DeviceEvent = DeviceStreamEvent;

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
